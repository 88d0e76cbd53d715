import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { CourtAvailability } from './types';

/** GET /api/gym/locations/{location_id}/availability: the open court time coaches may request. */
export const openAvailabilityKey = (locationId: string) =>
  `/gym/locations/${encodeURIComponent(locationId)}/availability`;

export const getOpenAvailability = (locationId: string) =>
  api.get<CourtAvailability[]>(openAvailabilityKey(locationId));

export function useOpenAvailability(locationId: string | null | undefined) {
  return useSWR<CourtAvailability[]>(
    locationId ? openAvailabilityKey(locationId) : null,
    () => getOpenAvailability(locationId as string),
    { onError: (error) => console.error('Failed to load court availability', error) },
  );
}
