import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminDashboardApi } from '@/testing/dashboards';
import { booking2025 } from '@/testing/fixtures';
import type { RecordedCall } from '@/testing/mock-api';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { AdminPayment } from '../api/payments';

const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin' });
const coaches = [
  makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' }),
  makeUser({ user_id: 'coach-2', role: 'coach', full_name: 'Leo Park' }),
];

const payment = (overrides: Partial<AdminPayment> = {}): AdminPayment =>
  booking2025({
    status: 'completed',
    payment_status: 'paid',
    amount_paid_cents: 6500,
    ...overrides,
  }) as AdminPayment;

const paid = payment({ booking_id: 'paid' });
const held = payment({ booking_id: 'held', status: 'confirmed', payment_status: 'authorized', amount_paid_cents: 0 });
const partly = payment({
  booking_id: 'partly',
  client_name: 'Dana Lee',
  payment_status: 'partially_refunded',
  amount_refunded_cents: 2000,
});

const stats = {
  total_users: 5,
  total_coaches: 2,
  total_gyms: 0,
  total_bookings: 3,
  activity: [],
  gross_cents: 13000,
  fees_cents: 1100,
  refunds_cents: 2000,
};

const paymentsCard = async () => (await screen.findByRole('heading', { name: 'Payments' })).closest('.rounded-lg') as HTMLElement;

describe('the admin’s money', () => {
  it('shows revenue beside the statistics: gross, fees and refunds', async () => {
    renderApp('/admin/dashboard', { user: admin, api: adminDashboardApi({ 'GET /admin/stats': stats }) });
    const revenue = await screen.findByRole('group', { name: 'Revenue' });
    await waitFor(() => expect(within(revenue).getByTestId('stat-gross_cents')).toHaveTextContent('$130.00'));
    expect(within(revenue).getByTestId('stat-fees_cents')).toHaveTextContent('$11.00');
    expect(within(revenue).getByTestId('stat-refunds_cents')).toHaveTextContent('$20.00');
  });

  it('lists payments a page at a time, filtered on the server by status, coach and dates', async () => {
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminDashboardApi({
        'GET /admin/users': coaches,
        'GET /admin/payments': ({ query }: RecordedCall) => {
          if (query.get('payment_status') === 'authorized') return [held];
          if (query.get('cursor') === 'p2') return [partly];
          return { body: [paid, held], headers: { Link: '</api/admin/payments?limit=20&cursor=p2>; rel="next"', 'X-Total-Count': '3' } };
        },
      }),
    });
    const card = await paymentsCard();
    expect(await within(card).findAllByTestId('admin-payment')).toHaveLength(2);
    expect(within(card).getByText('3 bookings with money, newest first.')).toBeInTheDocument();
    const [first] = within(card).getAllByTestId('admin-payment');
    expect(first).toHaveTextContent('Casey Jordan with Maya Thompson');
    expect(first).toHaveTextContent('Paid');
    expect(first).toHaveTextContent('paid $65.00');

    await user.click(within(card).getByRole('button', { name: 'Show more payments' }));
    await waitFor(() => expect(within(card).getAllByTestId('admin-payment')).toHaveLength(3));
    expect(within(card).getAllByTestId('admin-payment')[2]).toHaveTextContent('refunded $20.00');

    await user.click(within(card).getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Held' }));
    await waitFor(() => expect(within(card).getAllByTestId('admin-payment')).toHaveLength(1));

    await user.click(within(card).getByRole('combobox', { name: 'Coach' }));
    await user.click(await screen.findByRole('option', { name: 'Leo Park' }));
    await user.type(within(card).getByLabelText('From'), '2025-03-01');
    await user.type(within(card).getByLabelText('To'), '2025-03-31');
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/admin/payments').at(-1)!;
      expect(Object.fromEntries(last.query)).toEqual({
        limit: '20',
        payment_status: 'authorized',
        coach_id: 'coach-2',
        from: '2025-03-01',
        to: '2025-03-31',
      });
    });
  });

  it('says when no payment matches, and when the list cannot be read', async () => {
    let fail = false;
    const { user } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminDashboardApi({
        'GET /admin/payments': () => (fail ? { status: 403, body: { detail: 'Admins only' } } : []),
      }),
    });
    const card = await paymentsCard();
    expect(await within(card).findByText('No payments match these filters.')).toBeInTheDocument();
    fail = true;
    await user.type(within(card).getByLabelText('From'), '2025-03-01');
    expect(await within(card).findByRole('alert')).toHaveTextContent('Admins only');
  });

  it('refunds part of a payment with a reason, refusing more than is left', async () => {
    let rows = [paid, held];
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminDashboardApi({
        'GET /admin/payments': () => rows,
        'POST /admin/bookings/paid/refund': ({ body }: RecordedCall) => {
          rows = [{ ...paid, payment_status: 'partially_refunded', amount_refunded_cents: (body as { amount_cents: number }).amount_cents }, held];
          return rows[0];
        },
      }),
    });
    const card = await paymentsCard();
    await within(card).findAllByTestId('admin-payment');
    // Nothing was charged on a hold: no refund offered.
    expect(within(card).getAllByRole('button', { name: /^Refund / })).toHaveLength(1);
    await user.click(within(card).getByRole('button', { name: 'Refund Casey Jordan, Fri, Mar 14, 2025' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund' });
    const amount = within(dialog).getByLabelText('Amount ($)');
    expect(amount).toHaveValue('65.00');

    await user.clear(amount);
    await user.type(amount, '70');
    await user.type(within(dialog).getByLabelText('Reason'), 'Court was double-booked');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('At most $65.00 is left to refund.');

    await user.clear(amount);
    await user.type(amount, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refunded $20.00')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ amount_cents: 2000, reason: 'Court was double-booked' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(card).getAllByTestId('admin-payment')[0]).toHaveTextContent('refunded $20.00'));
  });

  it('shows the server’s refusal of a refund in the dialog', async () => {
    const { user } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminDashboardApi({
        'GET /admin/payments': [paid],
        'POST /admin/bookings/paid/refund': {
          status: 409,
          body: { detail: 'The capture is still being settled; try again in a minute.' },
        },
      }),
    });
    const card = await paymentsCard();
    await user.click(await within(card).findByRole('button', { name: /^Refund / }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Goodwill');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The capture is still being settled; try again in a minute.');
  });
});
