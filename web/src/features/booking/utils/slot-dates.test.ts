import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatLocalDate } from '@/lib/dates';
import { DEFAULT_POLICY } from './booking-policy';
import {
  dateProblem,
  defaultBookingDate,
  firstBookableDate,
  isBookableDate,
  lastBookableDay,
  slotFitsDate,
  toBookingDate,
} from './slot-dates';

const recurringTuesday = { slot_type: 'recurring', day_of_week: 'Tuesday', specific_date: null };
const oneTime = { slot_type: 'one-time', day_of_week: null, specific_date: '2025-03-14' };

describe('booking dates', () => {
  // Node re-reads TZ when process.env.TZ changes (in a forked worker; see vite.config.ts).
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  describe.each(['America/Los_Angeles', 'Pacific/Auckland', 'UTC'])('in %s', (tz) => {
    beforeEach(() => {
      vi.stubEnv('TZ', tz);
    });

    it('sends the local day picked late in the evening, not the UTC day', () => {
      const lateEvening = new Date(2025, 2, 14, 23, 30); // 14 March, 23:30 local
      expect(toBookingDate(lateEvening)).toBe('2025-03-14');
    });

    it('sends the local day picked just after midnight, not the UTC day', () => {
      const justAfterMidnight = new Date(2025, 2, 14, 0, 15); // 14 March, 00:15 local
      expect(toBookingDate(justAfterMidnight)).toBe('2025-03-14');
    });

    it('keeps the day across a daylight-saving change', () => {
      // US clocks jump on 9 March 2025; New Zealand's fall back on 6 April 2025.
      expect(toBookingDate(new Date(2025, 2, 9))).toBe('2025-03-09');
      expect(toBookingDate(new Date(2025, 3, 6))).toBe('2025-04-06');
    });

    it('offers a recurring slot only on its weekday', () => {
      expect(slotFitsDate(recurringTuesday, new Date(2025, 2, 11))).toBe(true); // Tue
      expect(slotFitsDate(recurringTuesday, new Date(2025, 2, 12))).toBe(false); // Wed
    });

    it('offers a one-time slot only on its date', () => {
      expect(slotFitsDate(oneTime, new Date(2025, 2, 14, 23, 59))).toBe(true);
      expect(slotFitsDate(oneTime, new Date(2025, 2, 15, 0, 1))).toBe(false);
    });
  });

  it('shows where toISOString would have gone wrong (Auckland is ahead of UTC)', () => {
    vi.stubEnv('TZ', 'Pacific/Auckland');
    const morning = new Date(2025, 2, 14, 9, 0);
    expect(morning.toISOString().slice(0, 10)).toBe('2025-03-13');
    expect(toBookingDate(morning)).toBe('2025-03-14');
  });

  it('shows where toISOString would have gone wrong (Los Angeles is behind UTC)', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    const evening = new Date(2025, 2, 14, 20, 0);
    expect(evening.toISOString().slice(0, 10)).toBe('2025-03-15');
    expect(toBookingDate(evening)).toBe('2025-03-14');
  });

  it('refuses past dates even when they fit', () => {
    const today = new Date(2025, 2, 12); // Wednesday
    expect(isBookableDate(recurringTuesday, new Date(2025, 2, 11), today)).toBe(false);
    expect(isBookableDate(recurringTuesday, new Date(2025, 2, 18), today)).toBe(true);
  });

  it('starts on today when today fits, else the next fitting day', () => {
    const tuesday = new Date(2025, 2, 11, 15, 0);
    expect(formatLocalDate(defaultBookingDate(recurringTuesday, tuesday)!)).toBe('2025-03-11');
    const wednesday = new Date(2025, 2, 12);
    expect(formatLocalDate(defaultBookingDate(recurringTuesday, wednesday)!)).toBe('2025-03-18');
    expect(formatLocalDate(defaultBookingDate(oneTime, wednesday)!)).toBe('2025-03-14');
    expect(defaultBookingDate(oneTime, new Date(2025, 2, 15))).toBeUndefined();
  });
});

describe("a slot's dates under the coach's policy", () => {
  const friday = { slot_type: 'recurring', day_of_week: 'Friday', specific_date: null, start_time: '09:00' };
  const chicago = (policy: Partial<typeof DEFAULT_POLICY> = {}) => ({
    zone: 'America/Chicago',
    policy: { ...DEFAULT_POLICY, ...policy },
  });
  // Thursday 15 January 2026, 12:00 in Chicago (18:00 UTC).
  const now = new Date('2026-01-15T18:00:00Z');

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('refuses a date whose start has passed on the place clock, wherever the browser is', () => {
    vi.stubEnv('TZ', 'Asia/Tokyo'); // already Friday 16th 03:00 there
    const thursday = { ...friday, day_of_week: 'Thursday' };
    expect(dateProblem(thursday, new Date(2026, 0, 15), now, chicago())).toBe('past');
    expect(dateProblem(friday, new Date(2026, 0, 16), now, chicago())).toBeNull();
    expect(dateProblem(friday, new Date(2026, 0, 17), now, chicago())).toBe('wrong-day');
  });

  it('refuses a start sooner than the minimum notice', () => {
    vi.stubEnv('TZ', 'America/Chicago');
    // Friday 09:00 is 21 hours ahead.
    expect(dateProblem(friday, new Date(2026, 0, 16), now, chicago({ min_notice_minutes: 21 * 60 }))).toBeNull();
    expect(dateProblem(friday, new Date(2026, 0, 16), now, chicago({ min_notice_minutes: 21 * 60 + 1 }))).toBe(
      'too-soon',
    );
    expect(firstBookableDate(friday, now, chicago({ min_notice_minutes: 1440 }))).toEqual(new Date(2026, 0, 23));
  });

  it('refuses a start beyond max_advance_days', () => {
    vi.stubEnv('TZ', 'America/Chicago');
    const limits = chicago({ max_advance_days: 8 });
    // Friday the 23rd 09:00 is 7 days 21 hours ahead; the 30th is beyond 8 days.
    expect(dateProblem(friday, new Date(2026, 0, 23), now, limits)).toBeNull();
    expect(dateProblem(friday, new Date(2026, 0, 30), now, limits)).toBe('too-far');
    expect(lastBookableDay(now, limits.policy)).toEqual(new Date(2026, 0, 24));
  });

  it('finds no date when the policy leaves none', () => {
    vi.stubEnv('TZ', 'America/Chicago');
    const once = { slot_type: 'one-time', day_of_week: null, specific_date: '2026-01-16', start_time: '09:00' };
    expect(firstBookableDate(once, now, chicago())).toEqual(new Date(2026, 0, 16));
    expect(firstBookableDate(once, now, chicago({ min_notice_minutes: 1440 }))).toBeUndefined();
  });
});
