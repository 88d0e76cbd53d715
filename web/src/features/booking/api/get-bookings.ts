import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { BOOKINGS_KEY } from './create-booking';

export { BOOKINGS_KEY };

/** pending | confirmed | denied | cancelled | expired | completed | no_show. */
export type BookingStatus = Schemas['BookingStatus'];

/** A booking as GET /api/bookings lists it: the client sees coach_name, the coach client_name. */
export type Booking = Complete<Schemas['Booking']>;

/** GET /api/bookings: the client's own bookings, or the bookings with the signed-in coach. */
export const getBookings = () => api.get<Booking[]>(BOOKINGS_KEY);

/** How often the list is read again: statuses move on the server's clock (expired, completed). */
export const BOOKINGS_REFRESH_MS = 60_000;

export function useBookings() {
  // SPEC §8: a failed bookings fetch is only logged.
  return useSWR<Booking[]>(BOOKINGS_KEY, getBookings, {
    refreshInterval: BOOKINGS_REFRESH_MS,
    onError: (error) => console.error('Failed to load bookings', error),
  });
}
