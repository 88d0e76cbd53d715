import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  formatDuration,
  fromPolicyForm,
  policyLines,
  toPolicyForm,
  type PolicyForm,
} from './booking-policy';

describe('a policy duration', () => {
  it('reads in the unit a person would say', () => {
    expect(formatDuration(0)).toBe('0 hours');
    expect(formatDuration(1)).toBe('1 minute');
    expect(formatDuration(45)).toBe('45 minutes');
    expect(formatDuration(90)).toBe('90 minutes');
    expect(formatDuration(60)).toBe('1 hour');
    expect(formatDuration(120)).toBe('2 hours');
    expect(formatDuration(1440)).toBe('24 hours');
    expect(formatDuration(2160)).toBe('36 hours');
    expect(formatDuration(2880)).toBe('2 days');
    expect(formatDuration(43_200)).toBe('30 days');
  });
});

describe("the policy lines a client reads", () => {
  it('say the defaults plainly, with no notice line when any notice will do', () => {
    expect(policyLines(DEFAULT_POLICY)).toEqual([
      'Book up to 365 days ahead',
      'The coach answers within 2 days',
      'Free cancellation until 24 hours before',
    ]);
  });

  it('name the notice and a zero cancellation window', () => {
    expect(
      policyLines({
        min_notice_minutes: 120,
        max_advance_days: 1,
        response_window_minutes: 30,
        cancellation_window_minutes: 0,
      }),
    ).toEqual([
      'Book at least 2 hours ahead',
      'Book up to 1 day ahead',
      'The coach answers within 30 minutes',
      'Free cancellation until the session starts',
    ]);
  });
});

describe('the policy form', () => {
  const form = (overrides: Partial<PolicyForm> = {}): PolicyForm => ({ ...toPolicyForm(DEFAULT_POLICY), ...overrides });

  it('starts from the policy in friendly units', () => {
    expect(toPolicyForm(DEFAULT_POLICY)).toEqual({
      notice: { amount: '0', unit: 'hours' },
      advance_days: '365',
      response: { amount: '2', unit: 'days' },
      cancellation: { amount: '24', unit: 'hours' },
      late_fee: '50',
      no_show_fee: '100',
    });
  });

  it('starts a policy that predates the fees from their defaults', () => {
    const { late_cancellation_fee_percent: _late, no_show_fee_percent: _noShow, ...older } = DEFAULT_POLICY;
    expect(toPolicyForm(older)).toMatchObject({ late_fee: '50', no_show_fee: '100' });
  });

  it('sends minutes and days', () => {
    expect(
      fromPolicyForm(
        form({
          notice: { amount: '2', unit: 'hours' },
          advance_days: '60',
          response: { amount: '90', unit: 'minutes' },
          cancellation: { amount: '1.5', unit: 'days' },
        }),
      ),
    ).toEqual({
      policy: {
        min_notice_minutes: 120,
        max_advance_days: 60,
        response_window_minutes: 90,
        cancellation_window_minutes: 2160,
        late_cancellation_fee_percent: 50,
        no_show_fee_percent: 100,
      },
    });
  });

  it('round-trips the policy it started from', () => {
    const policy = {
      min_notice_minutes: 45,
      max_advance_days: 730,
      response_window_minutes: 20_160,
      cancellation_window_minutes: 0,
      late_cancellation_fee_percent: 0,
      no_show_fee_percent: 35,
    };
    expect(fromPolicyForm(toPolicyForm(policy))).toEqual({ policy });
  });

  it('names every field that is out of the range the server accepts', () => {
    const result = fromPolicyForm(
      form({
        notice: { amount: '31', unit: 'days' },
        advance_days: '0',
        response: { amount: '0', unit: 'hours' },
        cancellation: { amount: '15', unit: 'days' },
        late_fee: '101',
        no_show_fee: '12.5',
      }),
    );
    expect(result.errors).toEqual({
      notice: 'Minimum notice must be between 0 and 30 days',
      advance_days: 'How far ahead must be a whole number of days between 1 and 730',
      response: 'Answer within must be between 1 minute and 14 days',
      cancellation: 'Free cancellation must be between 0 and 14 days',
      late_fee: 'Late cancellation fee must be a whole percentage between 0 and 100',
      no_show_fee: 'No-show fee must be a whole percentage between 0 and 100',
    });
  });

  it('refuses empty, negative and fractional-minute amounts', () => {
    const result = fromPolicyForm(
      form({
        notice: { amount: '', unit: 'hours' },
        advance_days: '2.5',
        response: { amount: '-1', unit: 'hours' },
        cancellation: { amount: '0.5', unit: 'minutes' },
      }),
    );
    expect(result.errors).toEqual({
      notice: 'Minimum notice: enter a number',
      advance_days: 'How far ahead must be a whole number of days between 1 and 730',
      response: 'Answer within: enter a number',
      cancellation: 'Free cancellation: use whole minutes',
    });
  });
});
