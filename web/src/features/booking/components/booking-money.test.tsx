import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { clientDashboardApi, coachDashboardApi } from '@/testing/dashboards';
import { booking, booking2025 } from '@/testing/fixtures';
import { currentPath, makeUser, renderApp } from '@/testing/test-utils';
import type { Receipt } from '../api/payments';

const client = makeUser({ user_id: 'client-1', full_name: 'Casey Jordan' });

function receipt(overrides: Partial<Receipt> = {}): Receipt {
  return {
    receipt_id: 'rcpt-b-1',
    booking: booking2025({ status: 'completed', payment_status: 'partially_refunded', amount_paid_cents: 6500, amount_refunded_cents: 2000 }),
    card_brand: 'visa',
    card_last4: '4242',
    amount_paid_cents: 6500,
    amount_refunded_cents: 2000,
    currency: 'usd',
    lines: [
      { kind: 'hold', amount_cents: 6500, at: '2025-03-10T15:00:00Z', reason: null },
      { kind: 'capture', amount_cents: 6500, at: '2025-03-14T23:00:05Z', reason: null },
      { kind: 'refund', amount_cents: 2000, at: '2025-03-16T12:00:00Z', reason: 'Court was double-booked for 20 minutes' },
    ],
    issued_at: '2025-03-14T23:00:05Z',
    ...overrides,
  };
}

describe('money in Your Bookings', () => {
  it('shows each booking’s price and payment status in words, and a receipt where something was charged', async () => {
    renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /bookings': [
          booking({ booking_id: 'held', status: 'confirmed', payment_status: 'authorized' }),
          booking2025({ booking_id: 'paid', status: 'completed', payment_status: 'paid', amount_paid_cents: 6500 }),
          booking2025({ booking_id: 'fee', status: 'cancelled', late_cancellation: true, payment_status: 'partially_paid', amount_paid_cents: 3250 }),
          booking({ booking_id: 'released', status: 'denied', payment_status: 'released' }),
          booking2025({ booking_id: 'refunded', status: 'completed', payment_status: 'partially_refunded', amount_paid_cents: 6500, amount_refunded_cents: 2000 }),
          booking({ booking_id: 'declined', status: 'confirmed', payment_status: 'failed' }),
          booking({ booking_id: 'free', status: 'confirmed', payment_status: 'none', price_cents: 0 }),
        ],
      }),
    });
    const rows = await screen.findAllByTestId('booking');
    const order = ['held', 'paid', 'fee', 'released', 'refunded', 'declined', 'free'];
    const byId = (id: string) => rows[order.indexOf(id)];
    const payment = (id: string) => within(byId(id)).getByTestId('booking-payment');
    expect(payment('held')).toHaveTextContent('$65.00Held');
    expect(payment('paid')).toHaveTextContent('$65.00Paid $65.00');
    expect(payment('fee')).toHaveTextContent('$65.00Fee charged $32.50');
    expect(payment('released')).toHaveTextContent('$65.00Released');
    expect(payment('refunded')).toHaveTextContent('$65.00Refunded $20.00 of $65.00');
    expect(payment('declined')).toHaveTextContent('$65.00Card declined — update your card');
    expect(within(payment('declined')).getByRole('link', { name: 'Card declined — update your card' })).toHaveAttribute(
      'href',
      '#payment-methods',
    );
    expect(payment('free')).toHaveTextContent('Free');
    expect(within(payment('free')).queryByTestId('payment-status')).not.toBeInTheDocument();

    const receipts = screen.getAllByRole('link', { name: /^Receipt: / });
    expect(receipts[0]).toHaveAccessibleName('Receipt: Maya Thompson, Fri, Mar 14, 2025');
    expect(receipts.map((link) => link.getAttribute('href'))).toEqual([
      '/bookings/paid/receipt',
      '/bookings/fee/receipt',
      '/bookings/refunded/receipt',
    ]);
  });
});

describe('money in the coach’s Client Bookings', () => {
  it('shows what each session paid and links its receipt by the client’s name', async () => {
    renderApp('/coach/dashboard', {
      user: makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' }),
      api: coachDashboardApi({
        'GET /bookings': [
          booking2025({ booking_id: 'paid', status: 'completed', payment_status: 'paid', amount_paid_cents: 6500 }),
          booking({ booking_id: 'held', status: 'confirmed', payment_status: 'authorized' }),
        ],
      }),
    });
    const [paid, held] = await screen.findAllByTestId('booking');
    expect(within(paid).getByTestId('booking-payment')).toHaveTextContent('$65.00Paid $65.00');
    expect(within(paid).getByRole('link', { name: 'Receipt: Casey Jordan, Fri, Mar 14, 2025' })).toHaveAttribute(
      'href',
      '/bookings/paid/receipt',
    );
    expect(within(held).getByTestId('booking-payment')).toHaveTextContent('$65.00Held');
    expect(within(held).queryByRole('link', { name: /^Receipt/ })).not.toBeInTheDocument();
  });
});

describe('the receipt page', () => {
  it('shows who, when, the card, each movement and the totals, and prints', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { user, router } = renderApp('/bookings/b-1/receipt', {
      user: client,
      api: clientDashboardApi({ 'GET /bookings/b-1/receipt': receipt() }),
    });
    const card = await screen.findByTestId('receipt');
    expect(card).toHaveTextContent('rcpt-b-1');
    expect(card).toHaveTextContent('Fri, Mar 14, 2025');
    expect(card).toHaveTextContent('Maya Thompson');
    expect(card).toHaveTextContent('Casey Jordan');
    expect(card).toHaveTextContent('Eastside Rec');
    expect(card).toHaveTextContent('Visa •••• 4242');
    const lines = within(card).getAllByTestId('receipt-line');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent('Held on card');
    expect(lines[0]).toHaveTextContent('$65.00');
    expect(lines[1]).toHaveTextContent('Charged');
    expect(lines[2]).toHaveTextContent('Refunded');
    expect(lines[2]).toHaveTextContent('Court was double-booked for 20 minutes');
    expect(lines[2]).toHaveTextContent('−$20.00');
    expect(within(card).getByTestId('receipt-totals')).toHaveTextContent('Paid$65.00Refunded−$20.00Total$45.00');

    await user.click(within(card).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    expect(currentPath(router)).toBe('/client/dashboard');
  });

  it('says there is no receipt before anything was charged', async () => {
    renderApp('/bookings/b-2/receipt', {
      user: client,
      api: { 'GET /bookings/b-2/receipt': { status: 404, body: { detail: 'No receipt for this booking' } } },
    });
    expect(await screen.findByText('No receipt yet')).toBeInTheDocument();
    expect(screen.getByText('Nothing has been charged for this booking, so there is no receipt.')).toBeInTheDocument();
  });

  it('says when the receipt cannot be read, and tries again', async () => {
    let fail = true;
    const { user } = renderApp('/bookings/b-1/receipt', {
      user: client,
      api: {
        'GET /bookings/b-1/receipt': () =>
          fail ? { status: 403, body: { detail: 'Only the booking’s client and coach see its receipt' } } : receipt(),
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Only the booking’s client and coach see its receipt');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('receipt')).toBeInTheDocument();
  });
});
