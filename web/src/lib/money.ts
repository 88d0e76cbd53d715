/**
 * Money on screen (issue 33). The API speaks whole cents in USD (`price_cents`,
 * `amount_paid_cents`…) and a booking's `payment_status` in a closed vocabulary; people read
 * "$75.00", "Held", "Fee charged $37.50".
 */
import { enumValues, type Schemas } from './api-types';

/** A booking's payment_status, the document's closed vocabulary. */
export type PaymentStatus = Schemas['PaymentStatus'];

/** Every status, in the order the document lists them (the admin's filter). */
export const PAYMENT_STATUSES: readonly PaymentStatus[] = enumValues<PaymentStatus>({
  none: true,
  pending: true,
  authorized: true,
  paid: true,
  partially_paid: true,
  released: true,
  refunded: true,
  partially_refunded: true,
  failed: true,
});

/** 7500 → "$75.00", -2000 → "−$20.00" (whole cents, no floats until the last step). */
export function formatCents(cents: number, currency = 'usd'): string {
  const sign = cents < 0 ? '−' : '';
  const abs = Math.abs(Math.trunc(cents));
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  const rest = String(abs % 100).padStart(2, '0');
  const symbol = currency.toLowerCase() === 'usd' ? '$' : `${currency.toUpperCase()} `;
  return `${sign}${symbol}${dollars}.${rest}`;
}

/** "$75.00"; "Free" when 0. */
export const formatPrice = (cents: number, currency = 'usd') => (cents === 0 ? 'Free' : formatCents(cents, currency));

/**
 * Dollars as typed ("37.5", "$20", "1,000.25") → whole cents, or null when it is not an amount
 * with at most two decimals. Read from the text, never through a float.
 */
export function parseDollars(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : null;
}

/** round(a × b / c) half away from zero on integers (the services' rule for fees). */
export function roundDiv(numerator: number, denominator: number): number {
  const q = Math.floor(Math.abs(numerator) / Math.abs(denominator));
  const r = Math.abs(numerator) % Math.abs(denominator);
  const rounded = 2 * r >= Math.abs(denominator) ? q + 1 : q;
  return Math.sign(numerator) * Math.sign(denominator) < 0 ? -rounded : rounded;
}

/** A percentage of a price in whole cents: round(price × percent / 100), half away from zero. */
export const percentOf = (cents: number, percent: number) => roundDiv(cents * percent, 100);

/** What a booking's money reads as, for the words below. */
export interface BookingMoney {
  payment_status: string;
  price_cents: number;
  currency: string;
  amount_paid_cents: number;
  amount_refunded_cents: number;
}

/**
 * The payment status in words: "Held", "Paid $75.00", "Fee charged $37.50", "Released",
 * "Refunded $20.00", "Card declined — update your card".
 */
export function paymentStatusText(money: BookingMoney): string {
  const { currency } = money;
  switch (money.payment_status) {
    case 'none':
      return 'Free';
    case 'pending':
      return 'Not held yet';
    case 'authorized':
      return 'Held';
    case 'paid':
      return `Paid ${formatCents(money.amount_paid_cents, currency)}`;
    case 'partially_paid':
      return `Fee charged ${formatCents(money.amount_paid_cents, currency)}`;
    case 'released':
      return 'Released';
    case 'refunded':
      return `Refunded ${formatCents(money.amount_refunded_cents, currency)}`;
    case 'partially_refunded':
      return `Refunded ${formatCents(money.amount_refunded_cents, currency)} of ${formatCents(money.amount_paid_cents, currency)}`;
    case 'failed':
      return 'Card declined — update your card';
    default:
      return money.payment_status;
  }
}

/** The status word alone, for a list's filter and an admin's row ("Partially refunded"). */
export function paymentStatusLabel(status: string): string {
  const words: Record<PaymentStatus, string> = {
    none: 'Free',
    pending: 'Pending',
    authorized: 'Held',
    paid: 'Paid',
    partially_paid: 'Fee charged',
    released: 'Released',
    refunded: 'Refunded',
    partially_refunded: 'Partially refunded',
    failed: 'Declined',
  };
  return words[status as PaymentStatus] ?? status;
}

/** The badge colour of a payment status. */
export function paymentStatusVariant(status: string): 'success' | 'warning' | 'destructive' | 'info' | 'secondary' {
  switch (status) {
    case 'paid':
    case 'partially_paid':
      return 'success';
    case 'authorized':
      return 'info';
    case 'failed':
      return 'destructive';
    case 'refunded':
    case 'partially_refunded':
    case 'pending':
      return 'warning';
    default:
      return 'secondary';
  }
}

/** Something was charged: the receipt exists. */
export const wasCharged = (money: Pick<BookingMoney, 'amount_paid_cents'>) => money.amount_paid_cents > 0;

/** What may still be refunded (paid less refunded). */
export const refundable = (money: Pick<BookingMoney, 'amount_paid_cents' | 'amount_refunded_cents'>) =>
  Math.max(0, money.amount_paid_cents - money.amount_refunded_cents);

/** Minutes between two "HH:MM" of one day (0 if malformed). */
export function slotMinutes(start: string, end: string): number {
  const toMinutes = (t: string) => {
    const m = /^(\d{1,2}):(\d{2})/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
  };
  const minutes = toMinutes(end) - toMinutes(start);
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
}

/** The price of a slot as booking-svc computes it: round(rate_cents × minutes / 60). */
export function slotPriceCents(hourlyRateDollars: number, minutes: number): number {
  const rateCents = Math.round(hourlyRateDollars * 100);
  return roundDiv(rateCents * minutes, 60);
}

/** "60 min", "90 min". */
export const formatMinutes = (minutes: number) => `${minutes} min`;
