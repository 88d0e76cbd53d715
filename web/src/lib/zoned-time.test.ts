import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  browserTimeZone,
  canonicalZone,
  formatTimeRange,
  isOtherZone,
  timeZoneNames,
  zonedDate,
  zoneSuffix,
  zonedInstant,
  zoneOffsetMinutes,
} from './zoned-time';

const CHICAGO = 'America/Chicago';

/** A 09:00–10:00 session in Austin on a winter day (CST, UTC-6). */
const winter = {
  time_zone: CHICAGO,
  starts_at: '2026-01-15T15:00:00Z',
  ends_at: '2026-01-15T16:00:00Z',
  start_time: '09:00',
  end_time: '10:00',
};

describe('a session time', () => {
  it('reads as the place wall clock, bare, for a reader in the same zone', () => {
    expect(formatTimeRange(winter, CHICAGO)).toBe('09:00 – 10:00');
  });

  it("carries the place zone's abbreviation for a reader in another zone", () => {
    expect(formatTimeRange(winter, 'America/Denver')).toBe('09:00 – 10:00 CST');
    expect(formatTimeRange(winter, 'Europe/Paris')).toBe('09:00 – 10:00 CST');
  });

  it('names daylight time in summer', () => {
    const summer = { ...winter, starts_at: '2026-07-15T14:00:00Z', ends_at: '2026-07-15T15:00:00Z' };
    expect(formatTimeRange(summer, 'America/Los_Angeles')).toBe('09:00 – 10:00 CDT');
  });

  it('treats an alias of the same zone as the same zone', () => {
    expect(canonicalZone('US/Central')).not.toBeNull();
    expect(isOtherZone(CHICAGO, CHICAGO)).toBe(false);
    expect(isOtherZone(CHICAGO, 'America/New_York')).toBe(true);
  });

  it('gives a bare slot time the zone suffix only for a reader elsewhere', () => {
    const january = new Date('2026-01-15T15:00:00Z');
    expect(zoneSuffix(CHICAGO, january, CHICAGO)).toBe('');
    expect(zoneSuffix(CHICAGO, january, 'Europe/Paris')).toBe(' CST');
    expect(zoneSuffix(undefined, january, 'Europe/Paris')).toBe('');
  });

  it('shows the written times when the instants or the zone are missing', () => {
    expect(formatTimeRange({ ...winter, starts_at: null }, 'Europe/Paris')).toBe('09:00 – 10:00');
    expect(formatTimeRange({ ...winter, time_zone: 'Not/AZone' }, 'Europe/Paris')).toBe('09:00 – 10:00');
  });

  describe('in a browser set to another zone', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("uses the browser's own zone by default", () => {
      vi.stubEnv('TZ', 'Asia/Tokyo');
      expect(browserTimeZone()).toBe('Asia/Tokyo');
      expect(formatTimeRange(winter)).toBe('09:00 – 10:00 CST');
      vi.stubEnv('TZ', CHICAGO);
      expect(formatTimeRange(winter)).toBe('09:00 – 10:00');
    });
  });
});

describe("a place's wall clock to an instant", () => {
  it('uses standard time in winter and daylight time in summer', () => {
    expect(zonedInstant('2026-01-15', '09:00', CHICAGO)?.toISOString()).toBe('2026-01-15T15:00:00.000Z');
    expect(zonedInstant('2026-07-15', '09:00', CHICAGO)?.toISOString()).toBe('2026-07-15T14:00:00.000Z');
    expect(zoneOffsetMinutes(CHICAGO, new Date('2026-01-15T15:00:00Z'))).toBe(-360);
  });

  it('keeps 09:00 at 09:00 on the days clocks change', () => {
    // Chicago springs forward on 8 March 2026 and falls back on 1 November 2026.
    expect(zonedInstant('2026-03-08', '09:00', CHICAGO)?.toISOString()).toBe('2026-03-08T14:00:00.000Z');
    expect(zonedInstant('2026-11-01', '09:00', CHICAGO)?.toISOString()).toBe('2026-11-01T15:00:00.000Z');
  });

  it('reads a time inside the spring-forward gap with the offset before the jump (02:30 is 03:30 CDT)', () => {
    const at = zonedInstant('2026-03-08', '02:30', CHICAGO);
    expect(at?.toISOString()).toBe('2026-03-08T08:30:00.000Z');
    expect(formatTimeRange({ ...winter, starts_at: at!.toISOString(), ends_at: at!.toISOString() }, CHICAGO)).toBe(
      '03:30 – 03:30',
    );
  });

  it('reads a time inside the fall-back repeat as its first occurrence (daylight time)', () => {
    expect(zonedInstant('2026-11-01', '01:30', CHICAGO)?.toISOString()).toBe('2026-11-01T06:30:00.000Z');
  });

  it('works in zones east of UTC and without daylight time', () => {
    expect(zonedInstant('2026-03-29', '02:30', 'Europe/Paris')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(zonedInstant('2026-06-01', '09:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-06-01T03:30:00.000Z');
    expect(zonedInstant('2026-06-01', '09:00', 'UTC')?.toISOString()).toBe('2026-06-01T09:00:00.000Z');
  });

  it('refuses a malformed date or time', () => {
    expect(zonedInstant('15/01/2026', '09:00', CHICAGO)).toBeNull();
    expect(zonedInstant('2026-01-15', '9am', CHICAGO)).toBeNull();
  });

  it("knows the place's date at an instant", () => {
    // 03:00 UTC on the 16th is still the evening of the 15th in Chicago.
    expect(zonedDate(CHICAGO, new Date('2026-01-16T03:00:00Z'))).toBe('2026-01-15');
    expect(zonedDate('Asia/Tokyo', new Date('2026-01-15T20:00:00Z'))).toBe('2026-01-16');
  });

  it('lists the IANA zones for a picker', () => {
    const names = timeZoneNames();
    expect(names).toContain(CHICAGO);
    expect(names).toContain('Europe/Paris');
  });
});
