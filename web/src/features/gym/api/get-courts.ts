import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Court } from './types';

export type { Court };

/** GET /api/gym/locations/{location_id}/courts. */
export const courtsKey = (locationId: string) => `/gym/locations/${encodeURIComponent(locationId)}/courts`;

/** The location's courts; SPEC §8: a failure is logged and yields an empty list. */
export async function getCourts(locationId: string): Promise<Court[]> {
  try {
    return await api.get<Court[]>(courtsKey(locationId));
  } catch (error) {
    console.error('Failed to load courts', error);
    return [];
  }
}

export function useCourts(locationId: string | null | undefined) {
  return useSWR<Court[]>(locationId ? courtsKey(locationId) : null, () => getCourts(locationId as string));
}
