import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { GymLocation } from './types';

export type { GymLocation };

/** GET /api/gym/locations: a gym's own locations, or every gym's for a coach. */
export const GYM_LOCATIONS_KEY = '/gym/locations';

export const getGymLocations = () => api.get<GymLocation[]>(GYM_LOCATIONS_KEY);

export function useGymLocations() {
  return useSWR<GymLocation[]>(GYM_LOCATIONS_KEY, getGymLocations, {
    onError: (error) => console.error('Failed to load gym locations', error),
  });
}
