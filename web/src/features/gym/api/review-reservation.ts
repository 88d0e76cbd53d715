import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { COURT_AVAILABILITY_KEY } from './get-court-availability';
import { PENDING_RESERVATIONS_KEY } from './get-pending-reservations';

/** SPEC §4: after approving or denying, both the pending list and the availability list refetch. */
const refresh = () => Promise.all([mutate(PENDING_RESERVATIONS_KEY), mutate(COURT_AVAILABILITY_KEY)]);

/** PATCH /api/gym/reservations/{id}/approve: the court time becomes reserved. */
export async function approveReservation(reservationId: string) {
  await api.patch(`/gym/reservations/${encodeURIComponent(reservationId)}/approve`);
  await refresh();
}

/** PATCH /api/gym/reservations/{id}/deny. */
export async function denyReservation(reservationId: string) {
  await api.patch(`/gym/reservations/${encodeURIComponent(reservationId)}/deny`);
  await refresh();
}

/**
 * PATCH /api/gym/reservations/{id}/cancel: the gym cancels an approved reservation before it
 * starts, with an optional reason the coach reads; the court time is open again.
 */
export async function cancelApprovedReservation(reservationId: string, reason?: string) {
  const body = reason?.trim() ? { reason: reason.trim() } : undefined;
  await api.patch(`/gym/reservations/${encodeURIComponent(reservationId)}/cancel`, body);
  await refresh();
}
