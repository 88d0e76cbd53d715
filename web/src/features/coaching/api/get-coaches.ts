import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';
import { withQuery } from '@/lib/swr';
import type { CoachListing } from './types';

export type { CoachListing };

/** GET /api/coaches: every coach with a profile (public). */
export const COACHES_KEY = '/coaches';

export const getCoaches = () => api.get<CoachListing[]>(COACHES_KEY);

export function useCoaches(config?: SWRConfiguration<CoachListing[]>) {
  return useSWR<CoachListing[]>(COACHES_KEY, getCoaches, config);
}

/**
 * GET /api/coaches?specialty&min_rate&max_rate&min_rating&sort: the coaches that pass the filters,
 * in that order, filtered on the server; `null` reads nothing.
 */
export function useFilteredCoaches(
  filters: Record<string, string> | null,
  config?: SWRConfiguration<CoachListing[]>,
) {
  const key = filters ? withQuery(COACHES_KEY, filters) : null;
  return useSWR<CoachListing[]>(key, () => api.get<CoachListing[]>(key as string), config);
}
