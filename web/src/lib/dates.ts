/**
 * Calendar dates as people mean them: the local day they picked, written YYYY-MM-DD from the
 * local year, month and day. Never `toISOString()`, which shifts to UTC and can move the day.
 */

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

export type Weekday = (typeof WEEKDAYS)[number];

const pad = (n: number) => String(n).padStart(2, '0');

/** The local calendar date of `date` as YYYY-MM-DD. */
export function formatLocalDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Parses YYYY-MM-DD as local midnight of that day (not UTC midnight), or null if malformed. */
export function parseLocalDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [, y, m, d] = match;
  const date = new Date(Number(y), Number(m) - 1, Number(d));
  if (date.getMonth() !== Number(m) - 1) return null;
  return date;
}

/** Local midnight of the day `date` falls on. */
export function startOfLocalDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/** The weekday name (Monday..Sunday) of a local date. */
export function weekdayOf(date: Date): Weekday {
  // getDay(): 0 = Sunday; WEEKDAYS starts on Monday.
  return WEEKDAYS[(date.getDay() + 6) % 7];
}

/** Local midnight of the Monday that starts the week containing `date`. */
export function startOfWeek(date: Date): Date {
  const day = startOfLocalDay(date);
  day.setDate(day.getDate() - ((day.getDay() + 6) % 7));
  return day;
}

/** The seven local dates Monday..Sunday of the week containing `date`. */
export function weekDates(date: Date): Date[] {
  const monday = startOfWeek(date);
  return WEEKDAYS.map((_, i) => new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i));
}

/** "2025-03-07" → "Fri, Mar 7, 2025" in the reader's locale conventions (en-US wording). */
export function formatDisplayDate(value: string): string {
  const date = parseLocalDate(value);
  if (!date) return value;
  return date.toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}
