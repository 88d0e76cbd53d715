import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { BOOKINGS_KEY } from './create-booking';

/** PATCH /api/bookings/{id}/cancel (the client's own pending or confirmed booking). */
export async function cancelBooking(bookingId: string) {
  await api.patch(`/bookings/${encodeURIComponent(bookingId)}/cancel`);
  await mutate(BOOKINGS_KEY);
}
