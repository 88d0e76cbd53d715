/**
 * Times where the place is. A session is written as its place's wall clock (booking_date,
 * start_time, end_time in the place's IANA `time_zone`) and as UTC instants (starts_at, ends_at).
 * The screens show the place's wall clock, with the zone's abbreviation when the reader's browser
 * keeps another zone ("09:00 – 10:00 CST"), so a coach in Austin and a client in Denver read the
 * same session the same way. Everything here goes through Intl (the browser's IANA database);
 * no offset is written by hand.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The browser's IANA zone ("America/Denver"); "UTC" when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The zone's canonical IANA name (aliases resolved), or null when the name is not a zone. */
export function canonicalZone(zone: string | null | undefined): string | null {
  if (!zone) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** True when `zone` names an IANA time zone the browser knows. */
export const isTimeZone = (zone: string | null | undefined) => canonicalZone(zone) !== null;

/** Every IANA zone the browser lists (for a zone picker); at least `extra` when it lists none. */
export function timeZoneNames(...extra: string[]): string[] {
  const listed =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = new Set<string>([...listed, ...extra.filter(isTimeZone)]);
  return [...names].sort((a, b) => a.localeCompare(b));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached en-US formatter (building one is slow, and calendars ask hundreds of times). */
function formatter(zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...options });
    formatters.set(key, found);
  }
  return found;
}

const WALL = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
} as const satisfies Intl.DateTimeFormatOptions;

function parts(zone: string, at: Date, options: Intl.DateTimeFormatOptions) {
  const found: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatter(zone, options).formatToParts(at)) found[part.type] = part.value;
  return found;
}

/** The zone's offset from UTC at an instant, in minutes (America/Chicago in January: -360). */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const p = parts(zone, at, WALL);
  const wall = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  const whole = Math.floor(at.getTime() / 1000) * 1000;
  return Math.round((wall - whole) / MINUTE);
}

/** The place's wall-clock date (YYYY-MM-DD) at an instant: "today where the place is". */
export function zonedDate(zone: string, at: Date): string {
  const p = parts(zone, at, WALL);
  return `${p.year}-${p.month}-${p.day}`;
}

/**
 * The instant a place's wall-clock date (YYYY-MM-DD) and time (HH:MM) stand for, by the rule the
 * services use (platform::instants, RFC 5545 and Temporal's "compatible"): a time inside a
 * spring-forward gap is read with the offset in force before the jump (02:30 becomes 03:30
 * daylight time); a time inside a fall-back repeat means its first, earlier, occurrence.
 * Null when the date or time is malformed.
 */
export function zonedInstant(date: string, time: string, zone: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})/.exec(time);
  if (!d || !t) return null;
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  // Offsets a day either side: transitions are months apart, so these are the two that can apply.
  const before = zoneOffsetMinutes(zone, new Date(wall - DAY));
  const after = zoneOffsetMinutes(zone, new Date(wall + DAY));
  const fits = (offset: number) => {
    const at = wall - offset * MINUTE;
    return zoneOffsetMinutes(zone, new Date(at)) === offset ? at : null;
  };
  const candidates = [fits(before), fits(after)].filter((at): at is number => at !== null);
  // Both fit: a repeat, take the earlier. None fits: a gap, take the offset before the jump.
  return new Date(candidates.length ? Math.min(...candidates) : wall - before * MINUTE);
}

/** "09:00" on the place's wall clock. */
export function formatZonedTime(at: Date, zone: string): string {
  const p = parts(zone, at, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${p.hour}:${p.minute}`;
}

/** The zone's short name at an instant as en-US writes it: "CST", "CDT", "GMT+1". */
export function zoneAbbreviation(at: Date, zone: string): string {
  return parts(zone, at, { timeZoneName: 'short' }).timeZoneName ?? zone;
}

/** True when the reader's zone is not the place's (so a bare "09:00" would mislead). */
export function isOtherZone(zone: string, viewerZone: string = browserTimeZone()): boolean {
  const place = canonicalZone(zone);
  return place !== null && place !== canonicalZone(viewerZone);
}

const parseInstant = (value: string | null | undefined) => {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
};

/** What a session's time range needs: its instants and its place's zone. */
export interface ZonedSpan {
  starts_at?: string | null;
  ends_at?: string | null;
  time_zone?: string | null;
  start_time: string;
  end_time: string;
}

/**
 * "09:00 – 10:00" in the place's zone, then " CST" when the reader's browser keeps another zone.
 * Falls back to the written wall-clock times when the instants or the zone are missing.
 */
export function formatTimeRange(span: ZonedSpan, viewerZone: string = browserTimeZone()): string {
  const start = parseInstant(span.starts_at);
  const end = parseInstant(span.ends_at);
  const zone = canonicalZone(span.time_zone);
  if (!start || !end || !zone) return `${span.start_time} – ${span.end_time}`;
  const range = `${formatZonedTime(start, zone)} – ${formatZonedTime(end, zone)}`;
  return isOtherZone(zone, viewerZone) ? `${range} ${zoneAbbreviation(start, zone)}` : range;
}

/** " CST" when the reader's browser keeps another zone than `zone` (named as at `at`), else "". */
export function zoneSuffix(zone: string | null | undefined, at: Date = new Date(), viewerZone?: string): string {
  const place = canonicalZone(zone);
  if (!place || !isOtherZone(place, viewerZone)) return '';
  return ` ${zoneAbbreviation(at, place)}`;
}
