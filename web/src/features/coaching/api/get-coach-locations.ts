import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { CoachLocation } from './types';

/** GET /api/locations/coach/{coachId}: where a coach trains (any signed-in user). */
export const coachLocationsKey = (coachId: string) =>
  `/locations/coach/${encodeURIComponent(coachId)}`;

export const getCoachLocations = (coachId: string) =>
  api.get<CoachLocation[]>(coachLocationsKey(coachId));

export function useCoachLocations(coachId: string | undefined) {
  return useSWR<CoachLocation[]>(
    coachId ? coachLocationsKey(coachId) : null,
    () => getCoachLocations(coachId as string),
    // SPEC §8: a failure here is only logged.
    { onError: (error) => console.error('Failed to load coach locations', error) },
  );
}
