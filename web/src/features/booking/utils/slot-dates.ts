/**
 * Which calendar dates a slot can be booked on. The server refuses a date that does not fit the
 * slot (its weekday for a recurring slot, its date for a one-time slot) or is in the past, so the
 * calendar disables those days instead of letting a booking fail.
 */
import { formatLocalDate, parseLocalDate, startOfLocalDay, weekdayOf } from '@/lib/dates';
import { zonedInstant } from '@/lib/zoned-time';
import type { PolicyLimits } from './booking-policy';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The parts of a slot that decide its dates. */
export interface BookableSlot {
  slot_type: string;
  day_of_week: string | null;
  specific_date: string | null;
}

const isRecurring = (slot: BookableSlot) => slot.slot_type === 'recurring';

/** True when `date` (a local day) fits the slot, ignoring whether it is in the past. */
export function slotFitsDate(slot: BookableSlot, date: Date): boolean {
  if (isRecurring(slot)) {
    return weekdayOf(date).toLowerCase() === (slot.day_of_week ?? '').trim().toLowerCase();
  }
  return formatLocalDate(date) === slot.specific_date;
}

/** True when the calendar should offer `date` for this slot, given today (local days only). */
export function isBookableDate(slot: BookableSlot, date: Date, today: Date = new Date()): boolean {
  return startOfLocalDay(date) >= startOfLocalDay(today) && slotFitsDate(slot, date);
}

/** What decides a slot's bookable instants: its place's zone and the coach's policy. */
export interface BookingLimits {
  zone: string;
  policy: PolicyLimits;
}

/** Why a calendar date cannot be booked for a slot, or null when it can. */
export type DateProblem = 'wrong-day' | 'past' | 'too-soon' | 'too-far';

/**
 * Whether a calendar date (read as the place's date, as booking_date is) can be booked for the
 * slot at `now`: the slot's start on that date, on the place's wall clock, must be ahead, at least
 * the coach's minimum notice away and at most max_advance_days away, as the server checks it.
 */
export function dateProblem(
  slot: BookableSlot & { start_time: string },
  date: Date,
  now: Date,
  { zone, policy }: BookingLimits,
): DateProblem | null {
  if (!slotFitsDate(slot, date)) return 'wrong-day';
  const start = zonedInstant(formatLocalDate(date), slot.start_time, zone);
  if (!start) return 'wrong-day';
  const ahead = start.getTime() - now.getTime();
  if (ahead <= 0) return 'past';
  if (ahead < policy.min_notice_minutes * MINUTE) return 'too-soon';
  if (ahead > policy.max_advance_days * DAY) return 'too-far';
  return null;
}

/** The last calendar day the policy can reach from `now` (for the calendar's last month). */
export const lastBookableDay = (now: Date, policy: PolicyLimits) =>
  startOfLocalDay(new Date(now.getTime() + policy.max_advance_days * DAY + DAY));

/**
 * The first date the slot can be booked on at `now` within the coach's policy, or undefined when
 * there is none. The place's "today" may be the browser's yesterday or tomorrow, so the search
 * starts a day early.
 */
export function firstBookableDate(
  slot: BookableSlot & { start_time: string },
  now: Date,
  limits: BookingLimits,
): Date | undefined {
  const start = startOfLocalDay(now);
  const span = limits.policy.max_advance_days + 3;
  for (let i = -1; i < span; i += 1) {
    const candidate = new Date(start.getFullYear(), start.getMonth(), start.getDate() + i);
    if (!slotFitsDate(slot, candidate)) continue;
    if (dateProblem(slot, candidate, now, limits) === null) return candidate;
  }
  return undefined;
}

/**
 * The date the dialog starts on: today when today fits; otherwise the slot's next date (the next
 * matching weekday, or the one-time date if it is still ahead); undefined when there is none.
 */
export function defaultBookingDate(slot: BookableSlot, today: Date = new Date()): Date | undefined {
  const start = startOfLocalDay(today);
  if (isRecurring(slot)) {
    for (let i = 0; i < 7; i += 1) {
      const candidate = new Date(start.getFullYear(), start.getMonth(), start.getDate() + i);
      if (slotFitsDate(slot, candidate)) return candidate;
    }
    return undefined;
  }
  const date = parseLocalDate(slot.specific_date);
  return date && date >= start ? date : undefined;
}

/** The request's booking_date: the local calendar date picked, never shifted to UTC. */
export const toBookingDate = formatLocalDate;
