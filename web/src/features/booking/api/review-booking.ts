import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { BOOKINGS_KEY } from './create-booking';

/** PATCH /api/coach/bookings/{id}/approve: pending → confirmed. */
export async function approveBooking(bookingId: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/approve`);
  await mutate(BOOKINGS_KEY);
}

/** PATCH /api/coach/bookings/{id}/deny: pending → denied. */
export async function denyBooking(bookingId: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/deny`);
  await mutate(BOOKINGS_KEY);
}
