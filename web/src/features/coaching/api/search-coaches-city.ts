import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Query } from '@/lib/api-types';
import { withQuery } from '@/lib/swr';
import type { CoachListing } from './types';

/** The searched city and state, as typed (either may be empty). */
export type CityParams = Complete<Pick<Query<'/coaches/search/city'>, 'city' | 'state'>>;

/** GET /api/coaches/search/city?city&state: coaches with a location in that city and/or state. */
export const cityCoachesKey = ({ city, state }: CityParams) =>
  withQuery('/coaches/search/city', { city, state });

export const searchCoachesByCity = (params: CityParams) =>
  api.get<CoachListing[]>(cityCoachesKey(params));

/** Reads a city search; `null` reads nothing. Results are usually seeded by the search action. */
export function useCityCoaches(params: CityParams | null, config?: SWRConfiguration<CoachListing[]>) {
  return useSWR<CoachListing[]>(params ? cityCoachesKey(params) : null, {
    revalidateIfStale: false,
    ...config,
  });
}
