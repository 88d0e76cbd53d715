/**
 * A coach's booking policy in words people use. The API speaks minutes and days
 * (`min_notice_minutes`, `max_advance_days`, `response_window_minutes`,
 * `cancellation_window_minutes`); people read "2 hours", "24 hours", "3 days".
 */

import type { Schemas } from '@/lib/api-types';

/** The four limits, as GET /coach/policy answers them and PUT /coach/policy takes them. */
export type PolicyLimits = Schemas['BookingPolicy'];

/** What a coach gets until they set their own (issue 16). */
export const DEFAULT_POLICY: PolicyLimits = {
  min_notice_minutes: 0,
  max_advance_days: 365,
  response_window_minutes: 2880,
  cancellation_window_minutes: 1440,
};

export type DurationUnit = 'minutes' | 'hours' | 'days';

export const DURATION_UNITS: readonly DurationUnit[] = ['minutes', 'hours', 'days'];

const MINUTES_IN: Record<DurationUnit, number> = { minutes: 1, hours: 60, days: 1440 };

/** A duration as an amount of one unit. */
export interface FriendlyDuration {
  amount: number;
  unit: DurationUnit;
}

/**
 * The unit a person would say: days from two whole days on, hours for whole hours up to then
 * (so a day's window reads "24 hours"), minutes otherwise; nothing reads as 0 days.
 */
export function friendlyDuration(minutes: number): FriendlyDuration {
  if (minutes >= 2 * 1440 && minutes % 1440 === 0) return { amount: minutes / 1440, unit: 'days' };
  if (minutes === 0 || minutes % 60 === 0) return { amount: minutes / 60, unit: 'hours' };
  return { amount: minutes, unit: 'minutes' };
}

/** "1 hour", "24 hours", "3 days", "45 minutes". */
export function formatDuration(minutes: number): string {
  const { amount, unit } = friendlyDuration(minutes);
  return `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`;
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** The policy as the lines a client reads before booking. */
export function policyLines(policy: PolicyLimits): string[] {
  const lines: string[] = [];
  if (policy.min_notice_minutes > 0) lines.push(`Book at least ${formatDuration(policy.min_notice_minutes)} ahead`);
  lines.push(`Book up to ${days(policy.max_advance_days)} ahead`);
  lines.push(`The coach answers within ${formatDuration(policy.response_window_minutes)}`);
  lines.push(
    policy.cancellation_window_minutes > 0
      ? `Free cancellation until ${formatDuration(policy.cancellation_window_minutes)} before`
      : 'Free cancellation until the session starts',
  );
  return lines;
}

/** One duration field of the policy form, as typed. */
export interface DurationField {
  amount: string;
  unit: DurationUnit;
}

/** What the policy form holds. */
export interface PolicyForm {
  notice: DurationField;
  advance_days: string;
  response: DurationField;
  cancellation: DurationField;
}

const field = (minutes: number): DurationField => {
  const { amount, unit } = friendlyDuration(minutes);
  return { amount: String(amount), unit };
};

export function toPolicyForm(policy: PolicyLimits): PolicyForm {
  return {
    notice: field(policy.min_notice_minutes),
    advance_days: String(policy.max_advance_days),
    response: field(policy.response_window_minutes),
    cancellation: field(policy.cancellation_window_minutes),
  };
}

export type PolicyFormErrors = Partial<Record<keyof PolicyForm, string>>;

/** The ranges the server accepts (issue 16), with the words for their bounds. */
const RANGES = {
  notice: { min: 0, max: 43_200, label: 'Minimum notice' },
  response: { min: 1, max: 20_160, label: 'Answer within' },
  cancellation: { min: 0, max: 20_160, label: 'Free cancellation' },
} as const;
const ADVANCE = { min: 1, max: 730 } as const;

const bound = (minutes: number) => (minutes === 0 ? '0' : formatDuration(minutes));

function toMinutes(name: keyof typeof RANGES, value: DurationField): number | string {
  const { min, max, label } = RANGES[name];
  const text = value.amount.trim();
  const amount = Number(text);
  if (!text || !Number.isFinite(amount) || amount < 0) return `${label}: enter a number`;
  const minutes = amount * MINUTES_IN[value.unit];
  if (!Number.isInteger(minutes)) return `${label}: use whole minutes`;
  if (minutes < min || minutes > max) return `${label} must be between ${bound(min)} and ${bound(max)}`;
  return minutes;
}

/** The form as the PUT body, or the message for each field that is out of range. */
export function fromPolicyForm(
  form: PolicyForm,
): { policy: PolicyLimits; errors?: undefined } | { policy?: undefined; errors: PolicyFormErrors } {
  const errors: PolicyFormErrors = {};
  const notice = toMinutes('notice', form.notice);
  const response = toMinutes('response', form.response);
  const cancellation = toMinutes('cancellation', form.cancellation);
  if (typeof notice === 'string') errors.notice = notice;
  if (typeof response === 'string') errors.response = response;
  if (typeof cancellation === 'string') errors.cancellation = cancellation;
  const advanceText = form.advance_days.trim();
  const advance = Number(advanceText);
  if (!advanceText || !Number.isInteger(advance) || advance < ADVANCE.min || advance > ADVANCE.max) {
    errors.advance_days = `How far ahead must be a whole number of days between ${ADVANCE.min} and ${ADVANCE.max}`;
  }
  if (Object.keys(errors).length) return { errors };
  return {
    policy: {
      min_notice_minutes: notice as number,
      max_advance_days: advance,
      response_window_minutes: response as number,
      cancellation_window_minutes: cancellation as number,
    },
  };
}
