/**
 * The months a date picker turns through. The booking and reschedule dialogs fetch the coach's
 * calendar one shown month at a time (the server answers at most 62 days a call).
 */
import { formatLocalDate } from '@/lib/dates';

/** Local midnight of the first day of `date`'s month. */
export const startOfMonth = (date: Date) => new Date(date.getFullYear(), date.getMonth(), 1);

/** The first day of the month `count` months after `month`'s. */
export const addMonths = (month: Date, count: number) => new Date(month.getFullYear(), month.getMonth() + count, 1);

/** True when `date` falls in `month`'s month. */
export const sameMonth = (date: Date, month: Date) =>
  date.getFullYear() === month.getFullYear() && date.getMonth() === month.getMonth();

/**
 * The calendar call for the month a picker shows: its first to its last day (28 to 31 days, inside
 * the server's 62). The picker shows no days of the months beside it, and its dates are the
 * place's dates (booking_date), so nothing around the month is needed.
 */
export function monthRange(month: Date): { from: string; to: string } {
  const first = startOfMonth(month);
  return { from: formatLocalDate(first), to: formatLocalDate(new Date(first.getFullYear(), first.getMonth() + 1, 0)) };
}
