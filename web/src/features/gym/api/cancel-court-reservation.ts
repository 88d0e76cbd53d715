import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { COURT_RESERVATIONS_KEY } from './get-court-reservations';

/** DELETE /api/coach/court-reservations/{id}: withdraw the coach's own pending request. */
export async function cancelCourtReservation(reservationId: string) {
  await api.delete(`${COURT_RESERVATIONS_KEY}/${encodeURIComponent(reservationId)}`);
  await mutate(COURT_RESERVATIONS_KEY);
}
