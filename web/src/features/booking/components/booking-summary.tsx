import { AlertTriangle, CalendarDays, Clock, MapPin } from 'lucide-react';
import type * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { formatDisplayDate } from '@/lib/dates';
import { LINKED_ROW_CLASS, type LinkedRowProps } from '@/lib/linked-row';
import { cn } from '@/lib/utils';
import { formatTimeRange } from '@/lib/zoned-time';
import type { Booking } from '../api/get-bookings';
import { formatDuration } from '../utils/booking-policy';
import { cancellationNote, cancellationWindowMinutes, statusLabel, statusVariant } from '../utils/booking-rules';

/**
 * The when and where of a booking: its date and "start – end" on the place's wall clock (with the
 * zone's abbreviation for a reader elsewhere), and the location's name.
 */
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
        <span data-testid="booking-time">{formatTimeRange(booking)}</span>
      </span>
      <span className="inline-flex min-w-0 items-center gap-1.5">
        <MapPin className="size-4 shrink-0" aria-hidden="true" />
        <span className="truncate">{booking.location_name || 'Location TBD'}</span>
      </span>
    </div>
  );
}

/** The status in its own colour ("no-show" purple, "expired" grey…). */
export function BookingStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={statusVariant(status)} data-testid="booking-status">
      {statusLabel(status)}
    </Badge>
  );
}

/** "Late cancellation" where the cancel came inside the coach's window; both sides see it. */
export function LateCancellationBadge({ booking }: { booking: Booking }) {
  if (!booking.late_cancellation) return null;
  return (
    <Badge variant="warning" data-testid="late-cancellation">
      Late cancellation
    </Badge>
  );
}

/** Who cancelled and why, under a cancelled booking. */
export function CancellationNote({ booking }: { booking: Booking }) {
  const note = cancellationNote(booking);
  if (!note) return null;
  return (
    <p className="text-sm text-muted-foreground" data-testid="cancellation-note">
      {note}
    </p>
  );
}

/**
 * Before a client's act that would be recorded as a late cancellation (a plain cancel, or a move,
 * which cancels the booking it moves): "This is a late cancellation: free cancellation ends 24
 * hours before the session. Maya Thompson will see it marked late." Shown where
 * cancelWouldBeLate holds.
 */
export function LateCancellationWarning({ booking, lead }: { booking: Booking; lead: string }) {
  return (
    <p
      role="alert"
      data-testid="late-cancellation-warning"
      className="flex gap-2 rounded-md border border-yellow-300 bg-yellow-50 px-3 py-2 text-sm text-yellow-900"
    >
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        {lead}: free cancellation ends {formatDuration(cancellationWindowMinutes(booking))} before the session.{' '}
        {booking.coach_name} will see it marked late.
      </span>
    </p>
  );
}

/** A booking's row in the coach's and the client's lists (`linked`: a notification's link finds
 * it), its status on it. */
export function BookingRow({
  booking,
  linked,
  children,
}: {
  booking: Booking;
  linked: LinkedRowProps;
  children: React.ReactNode;
}) {
  return (
    <li
      {...linked}
      data-testid="booking"
      data-status={booking.status}
      className={cn(
        'flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between',
        LINKED_ROW_CLASS,
      )}
    >
      {children}
    </li>
  );
}
