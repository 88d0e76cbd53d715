import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';

/** The address of a person's calendar feed: `{url}`. */
export type CalendarFeed = Complete<Schemas['CalendarFeed']>;

export const CALENDAR_FEED_KEY = '/calendar/feed';

/** GET /api/calendar/feed: the signed-in client's, coach's or gym's feed address (made on the first ask). */
export const getCalendarFeed = () => api.get<CalendarFeed>(CALENDAR_FEED_KEY);

/** The feed's address, read only once `enabled` (opening the dialog): nobody gets a feed unasked. */
export function useCalendarFeed(enabled: boolean) {
  return useSWR<CalendarFeed>(enabled ? CALENDAR_FEED_KEY : null, getCalendarFeed, {
    revalidateOnFocus: false,
  });
}

/** The same address for calendar apps that open `webcal:` links (Apple Calendar, Outlook). */
export const webcalUrl = (url: string) => url.replace(/^https?:\/\//, 'webcal://');
