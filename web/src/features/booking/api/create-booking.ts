import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/lib/api-types';
import type { Booking } from './get-bookings';

/** SPEC §3 "Booking request": the date is the local calendar date, YYYY-MM-DD; issue 33's
 * `payment_method_id` picks one of the client's cards (left out: their default). */
export type BookingRequest = Schemas['BookingBody'];

/** GET /api/bookings is the list this changes (the client's own, or the coach's). */
export const BOOKINGS_KEY = '/bookings';

/** POST /api/bookings, then refresh the bookings list. */
export async function createBooking(request: BookingRequest) {
  const created = await api.post<Booking>('/bookings', request);
  await mutate(BOOKINGS_KEY);
  return created;
}
