/**
 * The coach's bookable calendar (GET /availability/coach/{id}/calendar) as the coach's page and
 * the booking and reschedule dialogs read it: which dates can be picked, and why the others
 * cannot, in words.
 */
import { formatLocalDate, startOfLocalDay } from '@/lib/dates';
import { CALENDAR_DAYS, UNBOOKABLE_LABEL, type CalendarDay } from '../api/get-coach-calendar';
import type { DateProblem } from './slot-dates';

const DAY = 24 * 60 * 60_000;

/** From the browser's yesterday (the place's today may be behind it) for the longest range the
 * server answers. */
export function calendarRange(now: Date): { from: string; to: string } {
  const from = new Date(startOfLocalDay(now).getTime() - DAY);
  const to = new Date(from.getTime() + (CALENDAR_DAYS - 1) * DAY + 2 * 60 * 60_000);
  return { from: formatLocalDate(from), to: formatLocalDate(startOfLocalDay(to)) };
}

/** Each occurrence of `slotId` in the calendar, by date (YYYY-MM-DD). */
export function slotOccurrences(days: CalendarDay[] | undefined, slotId: string): Map<string, CalendarDay> {
  const out = new Map<string, CalendarDay>();
  for (const day of days ?? []) if (day.slot_id === slotId) out.set(day.date, day);
  return out;
}

/**
 * The dates (YYYY-MM-DD) that have occurrences of the coach's slots but none bookable, each with
 * why in words (the first occurrence's reason). Past dates are left out: a picker does not offer
 * them at all. `skip` leaves out occurrences that do not count (the booking being moved).
 */
export function refusalByDate(
  days: CalendarDay[] | undefined,
  skip?: (day: CalendarDay) => boolean,
): Map<string, string> {
  const reasons = new Map<string, string>();
  const open = new Set<string>();
  for (const day of days ?? []) {
    if (skip?.(day)) continue;
    if (day.bookable) open.add(day.date);
    else if (day.reason && day.reason !== 'past' && !reasons.has(day.date)) {
      reasons.set(day.date, UNBOOKABLE_LABEL[day.reason]);
    }
  }
  for (const date of open) reasons.delete(date);
  return reasons;
}

/**
 * How a picker shows a day: `open` to pick; `refused` when the day is a real occurrence that
 * cannot be booked, focusable and saying why; `closed` when there is nothing to say (not an
 * occurrence, past, or its calendar still loading).
 */
export type DayStatus = { kind: 'open' } | { kind: 'closed' } | { kind: 'refused'; reason: string };

export const OPEN: DayStatus = { kind: 'open' };
export const CLOSED: DayStatus = { kind: 'closed' };
export const refused = (reason: string): DayStatus => ({ kind: 'refused', reason });

/** Where a month's calendar call stands. */
export type CalendarState = 'loading' | 'loaded' | 'failed';

export const calendarState = ({ data, error }: { data?: unknown; error?: unknown }): CalendarState =>
  data !== undefined ? 'loaded' : error !== undefined ? 'failed' : 'loading';

const PROBLEM_REASON = { 'too-soon': 'too_soon', 'too-far': 'too_far' } as const;

/**
 * A date of one slot, from the slot's own rules (`problem`, from dateProblem) and the server's
 * calendar (`occurrence`, the slot's row on that date). The calendar has the last word: only what
 * it calls bookable is open. A date whose calendar is still loading is not open yet; one whose
 * calendar cannot be read falls back to the slot's rules (the server checks again when it books).
 */
export function slotDayStatus(
  problem: DateProblem | null,
  occurrence: CalendarDay | undefined,
  calendar: CalendarState,
): DayStatus {
  if (problem === 'wrong-day' || problem === 'past' || calendar === 'loading') return CLOSED;
  if (occurrence?.reason === 'past') return CLOSED;
  if (occurrence && !occurrence.bookable && occurrence.reason) return refused(UNBOOKABLE_LABEL[occurrence.reason]);
  if (problem) return refused(UNBOOKABLE_LABEL[PROBLEM_REASON[problem]]);
  if (calendar === 'failed') return OPEN;
  return occurrence?.bookable ? OPEN : CLOSED;
}

/** The bookable occurrences of any of the coach's slots, by date (YYYY-MM-DD). */
export function bookableByDate(days: CalendarDay[] | undefined): Map<string, CalendarDay[]> {
  const out = new Map<string, CalendarDay[]>();
  for (const day of days ?? []) {
    if (!day.bookable) continue;
    out.set(day.date, [...(out.get(day.date) ?? []), day]);
  }
  return out;
}

/** Each slot's first `count` bookable dates (YYYY-MM-DD), by slot id. */
export function nextBookableDates(days: CalendarDay[], count: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const day of days) {
    const dates = out.get(day.slot_id) ?? [];
    if (day.bookable && dates.length < count) dates.push(day.date);
    out.set(day.slot_id, dates);
  }
  return out;
}
