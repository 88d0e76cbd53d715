/**
 * A coach's booking policy in words people use. The API speaks minutes and days
 * (`min_notice_minutes`, `max_advance_days`, `response_window_minutes`,
 * `cancellation_window_minutes`); people read "2 hours", "24 hours", "3 days".
 */

import type { Schemas } from '@/lib/api-types';

/** The four limits and issue 33's two fees (percentages of the price, 0-100: a late
 * cancellation's and a no-show's), as GET /coach/policy answers them and PUT /coach/policy takes
 * them. */
export type PolicyLimits = Schemas['BookingPolicy'];

/** The two fees, where an answer might predate them. */
export type PolicyFees = Partial<Pick<PolicyLimits, 'late_cancellation_fee_percent' | 'no_show_fee_percent'>>;

/** The four limits alone (what the calendar and the client's lines go by). */
export type PolicyWindows = Omit<PolicyLimits, keyof PolicyFees>;

/** The fees a coach has until they set their own (issue 33). */
export const DEFAULT_LATE_FEE_PERCENT = 50;
export const DEFAULT_NO_SHOW_FEE_PERCENT = 100;

/** What a coach gets until they set their own (issues 16 and 33). */
export const DEFAULT_POLICY: PolicyLimits = {
  min_notice_minutes: 0,
  max_advance_days: 365,
  response_window_minutes: 2880,
  cancellation_window_minutes: 1440,
  late_cancellation_fee_percent: DEFAULT_LATE_FEE_PERCENT,
  no_show_fee_percent: DEFAULT_NO_SHOW_FEE_PERCENT,
};

/** The late-cancellation fee's percentage (the default when an older answer leaves it out). */
export const lateFeePercent = (policy: PolicyFees) => policy.late_cancellation_fee_percent ?? DEFAULT_LATE_FEE_PERCENT;
/** The no-show fee's percentage (the default when an older answer leaves it out). */
export const noShowFeePercent = (policy: PolicyFees) => policy.no_show_fee_percent ?? DEFAULT_NO_SHOW_FEE_PERCENT;

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
export function policyLines(policy: PolicyWindows): string[] {
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
  /** Percent of the price, 0-100. */
  late_fee: string;
  no_show_fee: string;
}

const field = (minutes: number): DurationField => {
  const { amount, unit } = friendlyDuration(minutes);
  return { amount: String(amount), unit };
};

export function toPolicyForm(policy: PolicyWindows & PolicyFees): PolicyForm {
  return {
    notice: field(policy.min_notice_minutes),
    advance_days: String(policy.max_advance_days),
    response: field(policy.response_window_minutes),
    cancellation: field(policy.cancellation_window_minutes),
    late_fee: String(lateFeePercent(policy)),
    no_show_fee: String(noShowFeePercent(policy)),
  };
}

/** A fee's percentage as typed: a whole number 0-100, else the message. */
function toPercent(label: string, text: string): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!trimmed || !Number.isInteger(value) || value < 0 || value > 100) {
    return `${label} must be a whole percentage between 0 and 100`;
  }
  return value;
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
  const lateFee = toPercent('Late cancellation fee', form.late_fee);
  const noShowFee = toPercent('No-show fee', form.no_show_fee);
  if (typeof lateFee === 'string') errors.late_fee = lateFee;
  if (typeof noShowFee === 'string') errors.no_show_fee = noShowFee;
  if (Object.keys(errors).length) return { errors };
  return {
    policy: {
      min_notice_minutes: notice as number,
      max_advance_days: advance,
      response_window_minutes: response as number,
      cancellation_window_minutes: cancellation as number,
      late_cancellation_fee_percent: lateFee as number,
      no_show_fee_percent: noShowFee as number,
    },
  };
}
