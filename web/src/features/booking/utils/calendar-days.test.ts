import { describe, expect, it } from 'vitest';
import { calendarDay } from '@/testing/fixtures';
import type { CalendarDay } from '../api/get-coach-calendar';
import { calendarState, CLOSED, OPEN, refusalByDate, refused, slotDayStatus } from './calendar-days';
import { addMonths, monthRange, sameMonth } from './calendar-month';

const row = calendarDay;

describe('a date of one slot in the picker', () => {
  it('is open only when the calendar calls it bookable', () => {
    expect(slotDayStatus(null, row('2025-03-14'), 'loaded')).toEqual(OPEN);
    // An occurrence the calendar does not list is not offered either.
    expect(slotDayStatus(null, undefined, 'loaded')).toEqual(CLOSED);
  });

  it("is refused with the calendar's reason, in words", () => {
    expect(slotDayStatus(null, row('2025-03-14', 'booked'), 'loaded')).toEqual(refused('Fully booked'));
    expect(slotDayStatus(null, row('2025-03-14', 'time_off'), 'loaded')).toEqual(refused('Coach away'));
    expect(slotDayStatus(null, row('2025-03-14', 'too_soon'), 'loaded')).toEqual(refused('Too soon'));
    expect(slotDayStatus(null, row('2025-03-14', 'too_far'), 'loaded')).toEqual(refused('Too far ahead'));
  });

  it('is refused when the policy forbids it, even where the calendar was read earlier and said yes', () => {
    expect(slotDayStatus('too-soon', row('2025-03-14'), 'loaded')).toEqual(refused('Too soon'));
    expect(slotDayStatus('too-far', undefined, 'loaded')).toEqual(refused('Too far ahead'));
  });

  it('is never open while its month is loading', () => {
    expect(slotDayStatus(null, undefined, 'loading')).toEqual(CLOSED);
    expect(slotDayStatus('too-soon', undefined, 'loading')).toEqual(CLOSED);
  });

  it("falls back to the slot's rule when the calendar cannot be read", () => {
    expect(slotDayStatus(null, undefined, 'failed')).toEqual(OPEN);
    expect(slotDayStatus('too-soon', undefined, 'failed')).toEqual(refused('Too soon'));
  });

  it('is closed, with nothing to say, on another weekday or in the past', () => {
    expect(slotDayStatus('wrong-day', undefined, 'loaded')).toEqual(CLOSED);
    expect(slotDayStatus('past', row('2025-03-07', 'past'), 'loaded')).toEqual(CLOSED);
    expect(slotDayStatus(null, row('2025-03-07', 'past'), 'loaded')).toEqual(CLOSED);
  });

  it('reads where a call stands from its data and error', () => {
    expect(calendarState({})).toBe('loading');
    expect(calendarState({ data: [] })).toBe('loaded');
    expect(calendarState({ error: new Error('502') })).toBe('failed');
  });
});

describe("a date of any of the coach's slots", () => {
  it('is refused when none of its occurrences is bookable, with the first one’s reason', () => {
    const refusals = refusalByDate([
      row('2025-03-14', 'booked', 'morning'),
      row('2025-03-14', 'time_off', 'evening'),
      row('2025-03-15', 'booked', 'morning'),
      row('2025-03-15', null, 'evening'),
      row('2025-03-07', 'past'),
    ]);
    expect([...refusals]).toEqual([['2025-03-14', 'Fully booked']]);
  });

  it('leaves out the occurrences that do not count (the booking being moved)', () => {
    const own = (day: CalendarDay) => day.slot_id === 'weekly' && day.date === '2025-03-14';
    expect([...refusalByDate([row('2025-03-14'), row('2025-03-14', 'booked', 'other')], own)]).toEqual([
      ['2025-03-14', 'Fully booked'],
    ]);
  });
});

describe('the month a picker shows', () => {
  it('is read from its first to its last day, inside the 62 days a call may cover', () => {
    expect(monthRange(new Date(2025, 1, 17))).toEqual({ from: '2025-02-01', to: '2025-02-28' });
    expect(monthRange(new Date(2024, 1, 1))).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthRange(new Date(2025, 11, 31))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('turns across a year', () => {
    expect(addMonths(new Date(2025, 11, 1), 1)).toEqual(new Date(2026, 0, 1));
    expect(sameMonth(new Date(2025, 11, 31), new Date(2025, 11, 1))).toBe(true);
    expect(sameMonth(new Date(2026, 0, 1), new Date(2025, 11, 1))).toBe(false);
  });
});
