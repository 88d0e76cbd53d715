import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Closed, Complete, Schemas } from '@/lib/api-types';
import { BOOKINGS_KEY } from './create-booking';

export { BOOKINGS_KEY };

/** pending | confirmed | denied | cancelled (other values may come; they show as text). */
export type BookingStatus = Closed<
  Schemas['Booking']['status'],
  'pending' | 'confirmed' | 'denied' | 'cancelled' | (string & {})
>;

/** A booking as GET /api/bookings lists it: the client sees coach_name, the coach client_name. */
export type Booking = Complete<Omit<Schemas['Booking'], 'status'>> & { status: BookingStatus };

/** GET /api/bookings: the client's own bookings, or the bookings with the signed-in coach. */
export const getBookings = () => api.get<Booking[]>(BOOKINGS_KEY);

export function useBookings() {
  // SPEC §8: a failed bookings fetch is only logged.
  return useSWR<Booking[]>(BOOKINGS_KEY, getBookings, {
    onError: (error) => console.error('Failed to load bookings', error),
  });
}
