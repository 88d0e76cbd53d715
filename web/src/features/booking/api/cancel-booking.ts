import { api } from '@/lib/api-client';
import { refreshBookings } from './get-bookings';

/** `{"reason": ...}` when one was given, else no body. */
const withReason = (reason?: string) => (reason?.trim() ? { reason: reason.trim() } : undefined);

/** PATCH /api/bookings/{id}/cancel (the client's own pending or confirmed booking, before it starts). */
export async function cancelBooking(bookingId: string, reason?: string) {
  await api.patch(`/bookings/${encodeURIComponent(bookingId)}/cancel`, withReason(reason));
  await refreshBookings();
}

/** PATCH /api/coach/bookings/{id}/cancel: the coach cancels a confirmed session before it starts. */
export async function coachCancelBooking(bookingId: string, reason?: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/cancel`, withReason(reason));
  await refreshBookings();
}

/** PATCH /api/coach/bookings/{id}/no-show: a completed session the client did not come to. */
export async function markNoShow(bookingId: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/no-show`);
  await refreshBookings();
}
