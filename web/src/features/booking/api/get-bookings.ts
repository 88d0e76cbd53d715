import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { refreshPaged, usePagedList } from '@/lib/pages';
import type { Complete, Schemas } from '@/lib/api-types';
import { BOOKINGS_KEY } from './create-booking';

export { BOOKINGS_KEY };

/** pending | confirmed | denied | cancelled | expired | completed | no_show. */
export type BookingStatus = Schemas['BookingStatus'];

/** A booking as GET /api/bookings lists it: the client sees coach_name, the coach client_name;
 * its money in whole cents (`price_cents`, `amount_paid_cents`, `amount_refunded_cents`) and
 * `payment_status` (issue 33). */
export type Booking = Complete<Schemas['Booking']>;

/** GET /api/bookings: the client's own bookings, or the bookings with the signed-in coach. */
export const getBookings = () => api.get<Booking[]>(BOOKINGS_KEY);

/** How often the list is read again: statuses move on the server's clock (expired, completed). */
export const BOOKINGS_REFRESH_MS = 60_000;

/** The caller's whole bookings list; `enabled` false fetches nothing (yet). */
export function useBookings(enabled = true) {
  // SPEC §8: a failed bookings fetch is only logged.
  return useSWR<Booking[]>(enabled ? BOOKINGS_KEY : null, getBookings, {
    refreshInterval: BOOKINGS_REFRESH_MS,
    onError: (error) => console.error('Failed to load bookings', error),
  });
}

/** Bookings per page in a list that pages (the coach's, which grows with every client). */
export const BOOKINGS_PAGE = 50;

/** Reads every booking list again: the whole one and the paged ones on screen (from their first
 * page). What a booking's change calls. */
export const refreshBookings = () => Promise.all([mutate(BOOKINGS_KEY), refreshPaged(BOOKINGS_KEY)]);

/**
 * GET /api/bookings?limit=&cursor=: the caller's bookings by date, a page at a time; `loadMore`
 * reads the next page (from the `Link` header). The loaded pages are read again every
 * BOOKINGS_REFRESH_MS, as the whole list is.
 */
export function useBookingPages() {
  const list = usePagedList<Booking>(`${BOOKINGS_KEY}?limit=${BOOKINGS_PAGE}`, (b) => b.booking_id, {
    refreshInterval: BOOKINGS_REFRESH_MS,
    // SPEC §8: a failed bookings fetch is only logged.
    onError: (error) => console.error('Failed to load bookings', error),
  });
  return { ...list, bookings: list.rows };
}
