import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { AvailabilitySlot } from './types';

export type { AvailabilitySlot };

/** GET /api/availability/coach/{coachId}: a coach's slots. */
export const coachAvailabilityKey = (coachId: string) =>
  `/availability/coach/${encodeURIComponent(coachId)}`;

export const getCoachAvailability = (coachId: string) =>
  api.get<AvailabilitySlot[]>(coachAvailabilityKey(coachId));

export function useCoachAvailability(coachId: string | undefined) {
  return useSWR<AvailabilitySlot[]>(
    coachId ? coachAvailabilityKey(coachId) : null,
    () => getCoachAvailability(coachId as string),
    // SPEC §8: a failure here is only logged.
    { onError: (error) => console.error('Failed to load availability', error) },
  );
}
