/** Words for courts and court time, shared by the gym's and the coach's cards. */
import { formatTimeRange, type ZonedSpan } from '@/lib/zoned-time';
import type { CourtType } from '../api/types';

const COURT_TYPE_LABEL: Record<CourtType, string> = {
  basketball: 'Basketball',
  volleyball: 'Volleyball',
  'multi-purpose': 'Multi-purpose',
};

export const courtTypeLabel = (type: string) => COURT_TYPE_LABEL[type as CourtType] ?? type;

/** "09:00 – 10:30" on the place's wall clock, "09:00 – 10:30 CST" for a reader in another zone. */
export const timeRange = (item: ZonedSpan) => formatTimeRange(item);

/** Orders court time by date, then start. */
export const byDateAndTime = <T extends { date: string; start_time: string }>(a: T, b: T) =>
  a.date.localeCompare(b.date) || a.start_time.localeCompare(b.start_time);

/** A gym's locations as the options of a select, by name. */
export const locationOptions = (locations: readonly { location_id: string; name: string }[]) =>
  locations.map((location) => ({ value: location.location_id, label: location.name }));
