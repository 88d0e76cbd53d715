import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { CoachLocation } from './types';

export type { CoachLocation };

/** GET /api/locations: the signed-in coach's own locations. */
export const MY_LOCATIONS_KEY = '/locations';

export const getMyLocations = () => api.get<CoachLocation[]>(MY_LOCATIONS_KEY);

export function useMyLocations() {
  return useSWR<CoachLocation[]>(MY_LOCATIONS_KEY, getMyLocations, {
    onError: (error) => console.error('Failed to load locations', error),
  });
}
