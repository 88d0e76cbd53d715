import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';
import type { CoachListing } from './types';

export type { CoachListing };

/** GET /api/coaches: every coach with a profile (public). */
export const COACHES_KEY = '/coaches';

export const getCoaches = () => api.get<CoachListing[]>(COACHES_KEY);

export function useCoaches(config?: SWRConfiguration<CoachListing[]>) {
  return useSWR<CoachListing[]>(COACHES_KEY, getCoaches, config);
}
