/**
 * The month a booking or reschedule picker shows, and the coach's calendar for it (one call per
 * month, each month its own SWR key). Before the picker opens, it looks forward month by month
 * for the first date worth starting on, as the server's calendar says.
 */
import * as React from 'react';
import { useCoachCalendarMonth, type CalendarDay } from '../api/get-coach-calendar';
import { addMonths, startOfMonth } from '../utils/calendar-month';

type Search =
  | { state: 'searching' }
  /** `find` named a date in the month shown. */
  | { state: 'found'; date: string }
  /** No month up to `last` had one, or the search was not asked for or was cut short. */
  | { state: 'none' }
  /** The calendar could not be read: the caller falls back to what it knows. */
  | { state: 'failed' };

interface PickerMonthOptions {
  coachId: string;
  /** Any day of the month to start on. */
  start: Date;
  /** Any day of the last month worth looking at. */
  last: Date;
  /**
   * The date (YYYY-MM-DD) of a month's calendar to start on, or undefined to look at the next
   * month; null to look for nothing and show `start`'s month. Keep it stable (useCallback).
   */
  find: ((days: CalendarDay[]) => string | undefined) | null;
}

export function usePickerMonth({ coachId, start, last, find }: PickerMonthOptions) {
  const [month, setMonth] = React.useState(() => startOfMonth(start));
  const [search, setSearch] = React.useState<Search>(find ? { state: 'searching' } : { state: 'none' });
  const calendar = useCoachCalendarMonth(coachId, month);
  const { data, error } = calendar;
  const lastMonth = startOfMonth(last).getTime();

  React.useEffect(() => {
    if (search.state !== 'searching' || !find) return;
    if (error !== undefined) {
      setSearch({ state: 'failed' });
      return;
    }
    if (data === undefined) return;
    const date = find(data);
    if (date) setSearch({ state: 'found', date });
    else if (month.getTime() < lastMonth) setMonth(addMonths(month, 1));
    else setSearch({ state: 'none' });
  }, [search.state, find, data, error, month, lastMonth]);

  // The person turns the picker: their month now, whatever the search was doing.
  const onMonthChange = React.useCallback((next: Date) => {
    setMonth(startOfMonth(next));
    setSearch((current) => (current.state === 'searching' ? { state: 'none' } : current));
  }, []);

  return {
    /** The first day of the month shown. */
    month,
    onMonthChange,
    /** The coach's calendar for the month shown. */
    calendar,
    searching: search.state === 'searching',
    /** The date the search found, if it did. */
    found: search.state === 'found' ? search.date : undefined,
    /** The search stopped on a calendar that could not be read. */
    failed: search.state === 'failed',
  };
}
