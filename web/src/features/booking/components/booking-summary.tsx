import { CalendarDays, Clock, MapPin } from 'lucide-react';
import { formatDisplayDate } from '@/lib/dates';
import type { Booking } from '../api/get-bookings';

/** The when and where of a booking: its date, "start - end" and the location's name. */
export function BookingWhenWhere({ booking }: { booking: Booking }) {
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
      <span className="inline-flex items-center gap-1.5">
        <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
        <time dateTime={booking.booking_date} data-testid="booking-date">
          {formatDisplayDate(booking.booking_date)}
        </time>
      </span>
      <span className="inline-flex items-center gap-1.5">
        <Clock className="size-4 shrink-0" aria-hidden="true" />
        {booking.start_time} - {booking.end_time}
      </span>
      <span className="inline-flex min-w-0 items-center gap-1.5">
        <MapPin className="size-4 shrink-0" aria-hidden="true" />
        <span className="truncate">{booking.location_name || 'Location TBD'}</span>
      </span>
    </div>
  );
}
