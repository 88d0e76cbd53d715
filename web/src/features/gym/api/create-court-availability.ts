import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/lib/api-types';
import { COURT_AVAILABILITY_KEY } from './get-court-availability';
import type { CourtAvailability } from './types';

export type CourtAvailabilityInput = Schemas['CourtAvailabilityBody'];

/** POST /api/gym/court-availability, then refresh the gym's availability. */
export async function createCourtAvailability(input: CourtAvailabilityInput) {
  const created = await api.post<CourtAvailability>(COURT_AVAILABILITY_KEY, input);
  await mutate(COURT_AVAILABILITY_KEY);
  return created;
}
