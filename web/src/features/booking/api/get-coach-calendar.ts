import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { monthRange } from '../utils/calendar-month';

/** One occurrence of a coach's slot on a date, bookable or with the reason it is not. */
export type CalendarDay = Complete<Schemas['CalendarDay']>;

/** booked | time_off | too_soon | too_far | past. */
export type Unbookable = Schemas['Unbookable'];

/** A calendar covers at most this many days (the server refuses more). */
export const CALENDAR_DAYS = 62;

/** GET /api/availability/coach/{coach_id}/calendar?from&to (dates YYYY-MM-DD, at most 62 days). */
export const coachCalendarKey = (coachId: string, from: string, to: string) =>
  `/availability/coach/${encodeURIComponent(coachId)}/calendar?from=${from}&to=${to}`;

export const getCoachCalendar = (coachId: string, from: string, to: string) =>
  api.get<CalendarDay[]>(coachCalendarKey(coachId, from, to));

/** The coach's bookable calendar from `from` to `to`, fetched while `coachId` is set. */
export function useCoachCalendar(coachId: string | null | undefined, from: string, to: string) {
  return useSWR<CalendarDay[]>(coachId ? coachCalendarKey(coachId, from, to) : null, () =>
    getCoachCalendar(coachId as string, from, to),
  );
}

/**
 * The coach's calendar for the month a picker shows (`month` is any day of it), fetched while
 * both are set. Each month is its own key, so months already seen come back from the cache.
 */
export function useCoachCalendarMonth(coachId: string | null | undefined, month: Date | undefined) {
  const range = month ? monthRange(month) : { from: '', to: '' };
  return useCoachCalendar(month ? coachId : null, range.from, range.to);
}

/** What a person reads for a date that cannot be booked. */
export const UNBOOKABLE_LABEL: Record<Unbookable, string> = {
  booked: 'Fully booked',
  time_off: 'Coach away',
  too_soon: 'Too soon',
  too_far: 'Too far ahead',
  past: 'In the past',
};
