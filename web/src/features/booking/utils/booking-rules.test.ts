import { describe, expect, it } from 'vitest';
import {
  cancellationNote,
  cancellationWindowMinutes,
  cancelWouldBeLate,
  clientCanCancel,
  coachCanCancel,
  coachCanMarkNoShow,
  statusLabel,
  statusVariant,
} from './booking-rules';

const now = new Date('2026-01-15T12:00:00Z');
const booking = (status: string, startsAt: string, endsAt = startsAt) => ({ status, starts_at: startsAt, ends_at: endsAt });

describe('what a client may do', () => {
  it('cancels a pending or confirmed booking until it starts', () => {
    expect(clientCanCancel(booking('pending', '2026-01-15T12:01:00Z'), now)).toBe(true);
    expect(clientCanCancel(booking('confirmed', '2026-01-16T12:00:00Z'), now)).toBe(true);
    expect(clientCanCancel(booking('confirmed', '2026-01-15T12:00:00Z'), now)).toBe(false);
    for (const status of ['denied', 'cancelled', 'expired', 'completed', 'no_show']) {
      expect(clientCanCancel(booking(status, '2026-01-16T12:00:00Z'), now)).toBe(false);
    }
  });

  it('is warned that a cancel of a confirmed booking after its free cancellation ended is late', () => {
    const timed = (status: string, freeUntil: string | null) => ({
      status,
      starts_at: '2026-01-16T12:00:00Z',
      free_cancellation_until: freeUntil,
    });
    expect(cancelWouldBeLate(timed('confirmed', '2026-01-15T11:59:00Z'), now)).toBe(true);
    expect(cancelWouldBeLate(timed('confirmed', '2026-01-15T12:00:00Z'), now)).toBe(false);
    expect(cancelWouldBeLate(timed('pending', '2026-01-15T11:00:00Z'), now)).toBe(false);
    expect(cancelWouldBeLate(timed('confirmed', null), now)).toBe(false);
  });

  it('reads the window a booking was made under from its instants', () => {
    const timed = { status: 'confirmed', starts_at: '2026-01-16T12:00:00Z', free_cancellation_until: '2026-01-15T12:00:00Z' };
    expect(cancellationWindowMinutes(timed)).toBe(1440);
    expect(cancellationWindowMinutes({ ...timed, free_cancellation_until: timed.starts_at })).toBe(0);
    expect(cancellationWindowMinutes({ status: 'confirmed' })).toBe(0);
  });
});

describe('what a coach may do', () => {
  it('cancels a confirmed session until it starts', () => {
    expect(coachCanCancel(booking('confirmed', '2026-01-15T12:00:01Z'), now)).toBe(true);
    expect(coachCanCancel(booking('confirmed', '2026-01-15T11:59:59Z'), now)).toBe(false);
    expect(coachCanCancel(booking('pending', '2026-01-16T12:00:00Z'), now)).toBe(false);
  });

  it('marks a completed session no-show from its end until 7 days after', () => {
    const ended = (endsAt: string) => booking('completed', '2026-01-01T00:00:00Z', endsAt);
    expect(coachCanMarkNoShow(ended('2026-01-15T12:00:00Z'), now)).toBe(true);
    expect(coachCanMarkNoShow(ended('2026-01-08T12:00:00Z'), now)).toBe(true);
    expect(coachCanMarkNoShow(ended('2026-01-08T11:59:00Z'), now)).toBe(false);
    expect(coachCanMarkNoShow(ended('2026-01-15T12:01:00Z'), now)).toBe(false);
    expect(coachCanMarkNoShow(booking('confirmed', '2026-01-15T10:00:00Z', '2026-01-15T11:00:00Z'), now)).toBe(false);
  });
});

describe('a status', () => {
  it('reads as a word and has a colour of its own', () => {
    expect(statusLabel('no_show')).toBe('no-show');
    expect(statusLabel('expired')).toBe('expired');
    const variants = ['pending', 'confirmed', 'completed', 'no_show', 'expired', 'cancelled'].map(statusVariant);
    expect(new Set(variants).size).toBe(variants.length);
    expect(statusVariant('denied')).toBe('destructive');
  });

  it('says who cancelled and why', () => {
    expect(cancellationNote({ status: 'cancelled', cancelled_by: 'coach', cancellation_reason: 'Gym closed' })).toBe(
      'Cancelled by the coach: Gym closed',
    );
    expect(cancellationNote({ status: 'cancelled', cancelled_by: 'client', cancellation_reason: null })).toBe(
      'Cancelled by the client',
    );
    expect(cancellationNote({ status: 'confirmed', cancelled_by: null, cancellation_reason: null })).toBeNull();
  });
});
