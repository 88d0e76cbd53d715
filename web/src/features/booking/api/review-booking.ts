import { api } from '@/lib/api-client';
import { refreshBookings } from './get-bookings';

/** PATCH /api/coach/bookings/{id}/approve: pending → confirmed. */
export async function approveBooking(bookingId: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/approve`);
  await refreshBookings();
}

/** PATCH /api/coach/bookings/{id}/deny: pending → denied. */
export async function denyBooking(bookingId: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/deny`);
  await refreshBookings();
}
