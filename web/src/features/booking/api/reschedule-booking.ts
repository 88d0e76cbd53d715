import { api } from '@/lib/api-client';
import { refreshBookings, type Booking } from './get-bookings';

/** POST /api/bookings/{id}/reschedule: the client's booking moved to another slot of the same
 * coach and a date; answers the new (pending) booking. */
export async function rescheduleBooking(bookingId: string, slotId: string, bookingDate: string) {
  const moved = await api.post<Booking>(`/bookings/${encodeURIComponent(bookingId)}/reschedule`, {
    slot_id: slotId,
    booking_date: bookingDate,
  });
  await refreshBookings();
  return moved;
}
