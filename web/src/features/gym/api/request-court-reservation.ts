import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/lib/api-types';
import { COURT_RESERVATIONS_KEY } from './get-court-reservations';
import { openAvailabilityKey } from './get-open-availability';
import type { CourtReservation } from './types';

/** POST /api/coach/court-reservations: ask the gym for this court time (pending until it answers). */
export async function requestCourtReservation(availabilityId: string, locationId: string) {
  const body: Schemas['ReservationBody'] = { availability_id: availabilityId };
  const created = await api.post<CourtReservation>(COURT_RESERVATIONS_KEY, body);
  await Promise.all([mutate(COURT_RESERVATIONS_KEY), mutate(openAvailabilityKey(locationId))]);
  return created;
}
