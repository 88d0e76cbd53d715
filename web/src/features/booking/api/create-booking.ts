import { mutate } from 'swr';
import { api } from '@/lib/api-client';

/** SPEC §3 "Booking request": the date is the local calendar date, YYYY-MM-DD. */
export interface BookingRequest {
  coach_id: string;
  slot_id: string;
  booking_date: string;
}

/** GET /api/bookings is the list this changes (the client's own, or the coach's). */
export const BOOKINGS_KEY = '/bookings';

/** POST /api/bookings, then refresh the bookings list. */
export async function createBooking(request: BookingRequest) {
  const created = await api.post<unknown>('/bookings', request);
  await mutate(BOOKINGS_KEY);
  return created;
}
