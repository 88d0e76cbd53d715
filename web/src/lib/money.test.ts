import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatPrice,
  parseDollars,
  paymentStatusText,
  percentOf,
  refundable,
  roundDiv,
  slotMinutes,
  slotPriceCents,
  type BookingMoney,
} from './money';

const money = (overrides: Partial<BookingMoney>): BookingMoney => ({
  payment_status: 'pending',
  price_cents: 7500,
  currency: 'usd',
  amount_paid_cents: 0,
  amount_refunded_cents: 0,
  ...overrides,
});

describe('money on screen', () => {
  it('writes whole cents as dollars, without floats', () => {
    expect(formatCents(7500)).toBe('$75.00');
    expect(formatCents(3750)).toBe('$37.50');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(123456789)).toBe('$1,234,567.89');
    expect(formatCents(-2000)).toBe('−$20.00');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatPrice(0)).toBe('Free');
    expect(formatPrice(7500)).toBe('$75.00');
  });

  it('reads typed dollars as cents, refusing what is not an amount', () => {
    expect(parseDollars('20')).toBe(2000);
    expect(parseDollars('37.5')).toBe(3750);
    expect(parseDollars('$1,000.25')).toBe(100025);
    expect(parseDollars(' 0.07 ')).toBe(7);
    expect(parseDollars('0.1')).toBe(10);
    expect(parseDollars('20.')).toBe(2000);
    expect(parseDollars('12.345')).toBeNull();
    expect(parseDollars('-5')).toBeNull();
    expect(parseDollars('abc')).toBeNull();
    expect(parseDollars('')).toBeNull();
  });

  it('rounds fees half away from zero on whole cents, 0 % and 100 % exact', () => {
    expect(percentOf(7500, 50)).toBe(3750);
    expect(percentOf(7501, 50)).toBe(3751); // 3750.5 → up
    expect(percentOf(7499, 50)).toBe(3750); // 3749.5 → up
    expect(percentOf(7500, 0)).toBe(0);
    expect(percentOf(7500, 100)).toBe(7500);
    expect(percentOf(333, 33)).toBe(110); // 109.89
    expect(roundDiv(-3, 2)).toBe(-2); // −1.5 → −2
    expect(roundDiv(3, 2)).toBe(2);
  });

  it('prices a slot as booking-svc does: rate × minutes / 60', () => {
    expect(slotMinutes('17:00', '18:00')).toBe(60);
    expect(slotMinutes('08:00', '09:30')).toBe(90);
    expect(slotMinutes('09:00', '08:00')).toBe(0);
    expect(slotPriceCents(75, 60)).toBe(7500);
    expect(slotPriceCents(65, 90)).toBe(9750);
    expect(slotPriceCents(50.5, 45)).toBe(3788); // 3787.5 → up
    expect(slotPriceCents(0, 60)).toBe(0);
  });

  it('says each payment status in words', () => {
    expect(paymentStatusText(money({ payment_status: 'none', price_cents: 0 }))).toBe('Free');
    expect(paymentStatusText(money({ payment_status: 'pending' }))).toBe('Not held yet');
    expect(paymentStatusText(money({ payment_status: 'authorized' }))).toBe('Held');
    expect(paymentStatusText(money({ payment_status: 'paid', amount_paid_cents: 7500 }))).toBe('Paid $75.00');
    expect(paymentStatusText(money({ payment_status: 'partially_paid', amount_paid_cents: 3750 }))).toBe(
      'Fee charged $37.50',
    );
    expect(paymentStatusText(money({ payment_status: 'released' }))).toBe('Released');
    expect(
      paymentStatusText(money({ payment_status: 'refunded', amount_paid_cents: 7500, amount_refunded_cents: 7500 })),
    ).toBe('Refunded $75.00');
    expect(
      paymentStatusText(
        money({ payment_status: 'partially_refunded', amount_paid_cents: 7500, amount_refunded_cents: 2000 }),
      ),
    ).toBe('Refunded $20.00 of $75.00');
    expect(paymentStatusText(money({ payment_status: 'failed' }))).toBe('Card declined — update your card');
    expect(refundable(money({ amount_paid_cents: 7500, amount_refunded_cents: 2000 }))).toBe(5500);
  });
});
