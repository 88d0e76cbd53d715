import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { CALENDAR_FEED_KEY, type CalendarFeed } from './get-calendar-feed';

/** POST /api/calendar/feed: a new address; the old one stops working at once. */
export async function resetCalendarFeed() {
  const feed = await api.post<CalendarFeed>(CALENDAR_FEED_KEY);
  await mutate(CALENDAR_FEED_KEY, feed, { revalidate: false });
  return feed;
}
