/**
 * The coach's bookable calendar (GET /availability/coach/{id}/calendar) as the booking and
 * reschedule dialogs read it: which dates of a slot are not bookable, and why, in words.
 */
import { formatLocalDate, startOfLocalDay } from '@/lib/dates';
import { CALENDAR_DAYS, UNBOOKABLE_LABEL, type CalendarDay } from '../api/get-coach-calendar';

const DAY = 24 * 60 * 60_000;

/** From the browser's yesterday (the place's today may be behind it) for the longest range the
 * server answers. */
export function calendarRange(now: Date): { from: string; to: string } {
  const from = new Date(startOfLocalDay(now).getTime() - DAY);
  const to = new Date(from.getTime() + (CALENDAR_DAYS - 1) * DAY + 2 * 60 * 60_000);
  return { from: formatLocalDate(from), to: formatLocalDate(startOfLocalDay(to)) };
}

/** The dates (YYYY-MM-DD) of `slotId` the calendar says cannot be booked, each with why
 * ("Fully booked", "Coach away", "Too soon"), in date order. */
export function unbookableDates(days: CalendarDay[] | undefined, slotId: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const day of days ?? []) {
    if (day.slot_id !== slotId || day.bookable || !day.reason) continue;
    out.set(day.date, UNBOOKABLE_LABEL[day.reason]);
  }
  return out;
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
