/**
 * What each side may do with a booking, and how its status reads. The server decides (and
 * answers 409 with a detail when a button was offered too late); the screens offer only what
 * it would accept at the moment they render.
 */
import type { BadgeProps } from '@/components/ui/badge';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The parts of a booking these rules read. */
export interface TimedBooking {
  status: string;
  starts_at?: string | null;
  ends_at?: string | null;
  /** Until when a client's cancel is free: the window the booking was made under. */
  free_cancellation_until?: string | null;
}

const instant = (value: string | null | undefined) => {
  if (!value) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : at;
};

/** True while the session has not started (or when the booking does not say when it starts). */
export function beforeStart(booking: TimedBooking, now: Date = new Date()): boolean {
  const start = instant(booking.starts_at);
  return start === null || now.getTime() < start;
}

/** The client cancels a pending or confirmed booking until it starts. */
export const clientCanCancel = (booking: TimedBooking, now: Date = new Date()) =>
  (booking.status === 'pending' || booking.status === 'confirmed') && beforeStart(booking, now);

/**
 * A session worth adding to the client's calendar: still on, requested (tentative there) or
 * confirmed. A coach adds the confirmed ones only, as their feed holds them.
 */
export const inCalendar = (booking: TimedBooking) => booking.status === 'pending' || booking.status === 'confirmed';

/** The coach cancels a confirmed booking until it starts. */
export const coachCanCancel = (booking: TimedBooking, now: Date = new Date()) =>
  booking.status === 'confirmed' && beforeStart(booking, now);

/** How long after its end a completed session may still be marked no-show. */
export const NO_SHOW_DAYS = 7;

/** The coach marks a completed session no-show from its end until 7 days after. */
export function coachCanMarkNoShow(booking: TimedBooking, now: Date = new Date()): boolean {
  if (booking.status !== 'completed') return false;
  const end = instant(booking.ends_at);
  if (end === null) return false;
  return now.getTime() >= end && now.getTime() <= end + NO_SHOW_DAYS * DAY;
}

/**
 * True when a client's cancel now would be late: the booking is confirmed and its free
 * cancellation has ended (`free_cancellation_until`, fixed by the coach's window when it was
 * made); the server then records `late_cancellation`.
 */
export function cancelWouldBeLate(booking: TimedBooking, now: Date = new Date()): boolean {
  if (booking.status !== 'confirmed') return false;
  const freeUntil = instant(booking.free_cancellation_until);
  return freeUntil !== null && now.getTime() > freeUntil;
}

/** How long before its start a booking's free cancellation ends, in minutes (0 when unknown). */
export function cancellationWindowMinutes(booking: TimedBooking): number {
  const start = instant(booking.starts_at);
  const freeUntil = instant(booking.free_cancellation_until);
  return start === null || freeUntil === null ? 0 : Math.max(0, Math.round((start - freeUntil) / MINUTE));
}

const LABELS: Record<string, string> = { no_show: 'no-show' };

/** A status as the badge writes it: "confirmed", "expired", "no-show". */
export const statusLabel = (status: string) => LABELS[status] ?? status.replace(/_/g, ' ');

/**
 * One colour per outcome, so a glance tells them apart: waiting yellow, confirmed green, completed
 * blue, no-show purple, expired grey, denied and cancelled red.
 */
export function statusVariant(status: string): NonNullable<BadgeProps['variant']> {
  switch (status) {
    case 'pending':
      return 'warning';
    case 'confirmed':
      return 'success';
    case 'completed':
      return 'info';
    case 'no_show':
      return 'purple';
    case 'expired':
      return 'secondary';
    default:
      return 'destructive';
  }
}

/** "Cancelled by the coach: Court closed for repairs", or null when not cancelled by anyone known. */
export function cancellationNote(booking: {
  status: string;
  cancelled_by?: string | null;
  cancellation_reason?: string | null;
}): string | null {
  if (booking.status !== 'cancelled') return null;
  const by =
    booking.cancelled_by === 'coach'
      ? 'Cancelled by the coach'
      : booking.cancelled_by === 'client'
        ? 'Cancelled by the client'
        : null;
  const reason = booking.cancellation_reason?.trim();
  if (by && reason) return `${by}: ${reason}`;
  return by ?? (reason ? `Reason: ${reason}` : null);
}

/** The parts of a booking the review rules read. */
export interface ReviewedBooking {
  status: string;
  review?: { hidden: boolean; editable_until: string } | null;
}

/** "Leave a review": the session took place (completed) and the client has not reviewed it yet. */
export const canLeaveReview = (booking: ReviewedBooking) => booking.status === 'completed' && !booking.review;

/** "Edit review": the client's review, not hidden, inside its edit window (the server's date). */
export function canEditReview(booking: ReviewedBooking, now: Date = new Date()): boolean {
  const review = booking.review;
  if (!review || review.hidden) return false;
  const until = instant(review.editable_until);
  return until !== null && now.getTime() <= until;
}
