import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Query } from '@/lib/api-types';
import { withQuery } from '@/lib/swr';
import type { CoachListing } from './types';

/** The searched city and state, as typed (either may be empty). */
export type CityParams = Complete<Pick<Query<'/coaches/search/city'>, 'city' | 'state'>>;

/** GET /api/coaches/search/city?city&state: coaches with a location in that city and/or state. */
export const cityCoachesKey = ({ city, state }: CityParams, filters: Record<string, string> = {}) =>
  withQuery('/coaches/search/city', { city, state, ...filters });

export const searchCoachesByCity = (params: CityParams, filters?: Record<string, string>) =>
  api.get<CoachListing[]>(cityCoachesKey(params, filters));

/** Reads a city search; `null` reads nothing. Results are usually seeded by the search action. */
export function useCityCoaches(
  params: CityParams | null,
  config?: SWRConfiguration<CoachListing[]>,
  filters?: Record<string, string>,
) {
  return useSWR<CoachListing[]>(params ? cityCoachesKey(params, filters) : null, {
    revalidateIfStale: false,
    ...config,
  });
}
