import useSWR from 'swr';
import { api } from '@/lib/api-client';
import { BOOKINGS_KEY } from './create-booking';

export { BOOKINGS_KEY };

/** pending | confirmed | denied | cancelled (other values may come; they show as text). */
export type BookingStatus = 'pending' | 'confirmed' | 'denied' | 'cancelled' | (string & {});

/** A booking as GET /api/bookings lists it: the client sees coach_name, the coach client_name. */
export interface Booking {
  booking_id: string;
  coach_id: string;
  coach_name: string;
  client_id: string;
  client_name: string;
  /** YYYY-MM-DD, the calendar date booked. */
  booking_date: string;
  start_time: string;
  end_time: string;
  location_name: string;
  status: BookingStatus;
  payment_status: string;
  created_at: string;
}

/** GET /api/bookings: the client's own bookings, or the bookings with the signed-in coach. */
export const getBookings = () => api.get<Booking[]>(BOOKINGS_KEY);

export function useBookings() {
  // SPEC §8: a failed bookings fetch is only logged.
  return useSWR<Booking[]>(BOOKINGS_KEY, getBookings, {
    onError: (error) => console.error('Failed to load bookings', error),
  });
}
