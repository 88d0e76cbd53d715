/** Where and when a court request is, as the gym's and the coach's lists both show it. */
import { CalendarDays, Clock } from 'lucide-react';
import { formatDisplayDate } from '@/lib/dates';
import type { CourtReservation } from '../api/types';
import { timeRange } from './court-labels';

export function CourtPlaceAndTime({ reservation }: { reservation: CourtReservation }) {
  return (
    <>
      <p className="text-navy-700">
        {reservation.location_name} · {reservation.court_name}
      </p>
      <p className="flex flex-wrap gap-x-4 text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <CalendarDays className="size-4" aria-hidden="true" />
          {formatDisplayDate(reservation.date)}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <Clock className="size-4" aria-hidden="true" />
          {timeRange(reservation)}
        </span>
      </p>
    </>
  );
}
