import { AlertTriangle, CalendarDays, Clock, MapPin, Receipt } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { paths } from '@/config/paths';
import { formatDisplayDate } from '@/lib/dates';
import { formatPrice, paymentStatusText, paymentStatusVariant, wasCharged } from '@/lib/money';
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

/**
 * A booking's money in words: its price ("$75.00", or "Free") and what happened to it ("Held",
 * "Paid $75.00", "Fee charged $37.50", "Released", "Refunded $20.00", "Card declined — update your
 * card"; the last a link to the Payment methods card when `fixCardHref` is given).
 */
export function BookingPayment({ booking, fixCardHref }: { booking: Booking; fixCardHref?: string }) {
  const free = booking.payment_status === 'none' || booking.price_cents === 0;
  const words = paymentStatusText(booking);
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="booking-payment">
      <span className="text-sm font-semibold text-navy-900" data-testid="booking-price">
        {formatPrice(booking.price_cents, booking.currency)}
      </span>
      {free ? null : booking.payment_status === 'failed' && fixCardHref ? (
        <a href={fixCardHref} className="rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <Badge variant="destructive" data-testid="payment-status" className="underline underline-offset-2">
            {words}
          </Badge>
        </a>
      ) : (
        <Badge variant={paymentStatusVariant(booking.payment_status)} data-testid="payment-status">
          {words}
        </Badge>
      )}
    </span>
  );
}

/** "Receipt", where something was charged (GET /api/bookings/{id}/receipt answers then);
 * `withWhom` names the other side in its accessible name. */
export function ReceiptLink({ booking, withWhom }: { booking: Booking; withWhom: string }) {
  if (!wasCharged(booking)) return null;
  return (
    <Link
      to={paths.receipt.getHref(booking.booking_id)}
      className="inline-flex h-11 items-center gap-1.5 rounded-md px-2 text-sm font-semibold text-court-700 underline-offset-4 hover:underline sm:h-9"
      aria-label={`Receipt: ${withWhom}, ${formatDisplayDate(booking.booking_date)}`}
    >
      <Receipt className="size-4" aria-hidden="true" />
      Receipt
    </Link>
  );
}
