import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { BOOKINGS_KEY } from './create-booking';

/** `{"reason": ...}` when one was given, else no body. */
const withReason = (reason?: string) => (reason?.trim() ? { reason: reason.trim() } : undefined);

/** PATCH /api/bookings/{id}/cancel (the client's own pending or confirmed booking, before it starts). */
export async function cancelBooking(bookingId: string, reason?: string) {
  await api.patch(`/bookings/${encodeURIComponent(bookingId)}/cancel`, withReason(reason));
  await mutate(BOOKINGS_KEY);
}

/** PATCH /api/coach/bookings/{id}/cancel: the coach cancels a confirmed session before it starts. */
export async function coachCancelBooking(bookingId: string, reason?: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/cancel`, withReason(reason));
  await mutate(BOOKINGS_KEY);
}

/** PATCH /api/coach/bookings/{id}/no-show: a completed session the client did not come to. */
export async function markNoShow(bookingId: string) {
  await api.patch(`/coach/bookings/${encodeURIComponent(bookingId)}/no-show`);
  await mutate(BOOKINGS_KEY);
}
