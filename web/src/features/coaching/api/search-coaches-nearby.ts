import useSWR, { type SWRConfiguration } from 'swr';
import { api } from '@/lib/api-client';
import type { Query } from '@/lib/api-types';
import { withQuery } from '@/lib/swr';
import type { CoachListing } from './types';

/** SPEC §9: the nearby search radius, in miles. */
export const NEARBY_RADIUS_MILES = 25;

export type NearbyParams = Query<'/coaches/search/nearby'>;

/** GET /api/coaches/search/nearby?lat&lng&radius: coaches nearest first, with `distance`. */
export const nearbyCoachesKey = ({ lat, lng, radius = NEARBY_RADIUS_MILES }: NearbyParams) =>
  withQuery('/coaches/search/nearby', { lat, lng, radius });

export const searchCoachesNearby = (params: NearbyParams) =>
  api.get<CoachListing[]>(nearbyCoachesKey(params));

/** Reads a nearby search; `null` reads nothing. Results are usually seeded by the search action. */
export function useNearbyCoaches(params: NearbyParams | null, config?: SWRConfiguration<CoachListing[]>) {
  return useSWR<CoachListing[]>(params ? nearbyCoachesKey(params) : null, {
    revalidateIfStale: false,
    ...config,
  });
}
