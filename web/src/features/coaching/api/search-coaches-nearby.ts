import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';
import type { Query } from '@/lib/api-types';
import { withQuery } from '@/lib/swr';
import type { CoachListing } from './types';

/** SPEC §9: the nearby search radius, in miles. */
export const NEARBY_RADIUS_MILES = 25;

export type NearbyParams = Query<'/coaches/search/nearby'>;

/** GET /api/coaches/search/nearby?lat&lng&radius: coaches nearest first, with `distance`. */
export const nearbyCoachesKey = (
  { lat, lng, radius = NEARBY_RADIUS_MILES }: NearbyParams,
  filters: Record<string, string> = {},
) => withQuery('/coaches/search/nearby', { lat, lng, radius, ...filters });

export const searchCoachesNearby = (params: NearbyParams, filters?: Record<string, string>) =>
  api.get<CoachListing[]>(nearbyCoachesKey(params, filters));

/** Reads a nearby search; `null` reads nothing. Results are usually seeded by the search action. */
export function useNearbyCoaches(
  params: NearbyParams | null,
  config?: SWRConfiguration<CoachListing[]>,
  filters?: Record<string, string>,
) {
  return useSWR<CoachListing[]>(params ? nearbyCoachesKey(params, filters) : null, {
    revalidateIfStale: false,
    ...config,
  });
}
