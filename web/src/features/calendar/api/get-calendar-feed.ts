import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';

/**
 * The address of a person's calendar feed: `{url}`, shown only when the feed is made or reset
 * (only a hash of it is kept); `url` is null when a feed exists already.
 */
export type CalendarFeed = Complete<Schemas['CalendarFeed']>;

export const CALENDAR_FEED_KEY = '/calendar/feed';

/** GET /api/calendar/feed: the signed-in client's, coach's or gym's feed address when made by this ask, else a null url. */
export const getCalendarFeed = () => api.get<CalendarFeed>(CALENDAR_FEED_KEY);

/** The feed's address, read only once `enabled` (opening the dialog): nobody gets a feed unasked. */
export function useCalendarFeed(enabled: boolean) {
  // An address shown once stays shown while the app runs: asking again would answer a null url.
  return useSWR<CalendarFeed>(enabled ? CALENDAR_FEED_KEY : null, getCalendarFeed, {
    revalidateOnFocus: false,
    revalidateIfStale: false,
  });
}

/** The same address for calendar apps that open `webcal:` links (Apple Calendar, Outlook). */
export const webcalUrl = (url: string) => url.replace(/^https?:\/\//, 'webcal://');
