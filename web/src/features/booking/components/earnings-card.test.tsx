import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coachDashboardApi } from '@/testing/dashboards';
import type { RecordedCall } from '@/testing/mock-api';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Earnings } from '../api/payments';
import { monthName, shiftMonth } from './earnings-card';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });

const november: Earnings = {
  month: '2026-11',
  currency: 'usd',
  held_cents: 13000,
  paid_cents: 10250,
  fees_cents: 1025,
  net_cents: 9225,
  lines: [
    {
      booking_id: 'b-1',
      booking_date: '2026-11-06',
      kind: 'capture',
      gross_cents: 6500,
      fee_cents: 650,
      net_cents: 5850,
      at: '2026-11-06T23:00:05Z',
      client_id: 'client-1',
      client_name: 'Casey Jordan',
    },
    {
      booking_id: 'b-2',
      booking_date: '2026-11-13',
      kind: 'capture',
      gross_cents: 6500,
      fee_cents: 650,
      net_cents: 5850,
      at: '2026-11-13T23:00:05Z',
      client_id: 'client-2',
      client_name: 'Dana Lee',
    },
    {
      booking_id: 'b-1',
      booking_date: '2026-11-06',
      kind: 'refund',
      gross_cents: -2750,
      fee_cents: -275,
      net_cents: -2475,
      at: '2026-11-20T12:00:00Z',
      client_id: 'client-1',
      client_name: 'Casey Jordan',
    },
  ],
};

const empty: Earnings = { month: '2026-10', currency: 'usd', held_cents: 0, paid_cents: 0, fees_cents: 0, net_cents: 0, lines: [] };

const earningsCard = async () => (await screen.findByRole('heading', { name: 'Earnings' })).closest('.rounded-lg') as HTMLElement;

describe('the coach’s Earnings card', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T16:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('names and moves between months', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(monthName('2026-11')).toBe('November 2026');
  });

  it('shows this month’s held, paid, fees and net, and each capture and refund', async () => {
    const { calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({ 'GET /coach/earnings': november }),
    });
    const card = await earningsCard();
    const figures = await within(card).findByTestId('earnings-figures');
    expect(figures).toHaveTextContent('On hold now$130.00');
    expect(figures).toHaveTextContent('Paid in November 2026$102.50');
    expect(figures).toHaveTextContent('Platform fees$10.25');
    expect(figures).toHaveTextContent('Net$92.25');
    const lines = within(card).getAllByTestId('earnings-line');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent('Fri, Nov 6, 2026 · Charged · Casey Jordan$65.00fee $6.50net $58.50');
    expect(lines[2]).toHaveTextContent('Refunded · Casey Jordan−$27.50fee −$2.75net −$24.75');
    expect(calls.find((c) => c.path === '/coach/earnings')?.query.get('month')).toBe('2026-11');
  });

  it('reads another month, and says when it had no payments', async () => {
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/earnings': ({ query }: RecordedCall) => (query.get('month') === '2026-11' ? november : empty),
      }),
    });
    const card = await earningsCard();
    await within(card).findByTestId('earnings-figures');
    await user.click(within(card).getByRole('button', { name: 'Previous month' }));
    expect(await within(card).findByText('No payments in October 2026.')).toBeInTheDocument();
    expect(within(card).getByLabelText('Month')).toHaveValue('2026-10');
    expect(calls.filter((c) => c.path === '/coach/earnings').map((c) => c.query.get('month'))).toContain('2026-10');

    const month = within(card).getByLabelText('Month');
    await user.clear(month);
    await user.type(month, '2026-11');
    await waitFor(() => expect(within(card).getAllByTestId('earnings-line')).toHaveLength(3));
  });

  it('says when the earnings cannot be read, and tries again', async () => {
    let fail = true;
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/earnings': () => (fail ? { status: 403, body: { detail: 'Only coaches have earnings' } } : november),
      }),
    });
    const card = await earningsCard();
    expect(await within(card).findByRole('alert')).toHaveTextContent('Only coaches have earnings');
    fail = false;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByTestId('earnings-figures')).toBeInTheDocument();
  });

  it('downloads the month’s statement as CSV', async () => {
    const createObjectURL = vi.fn(() => 'blob:statement');
    Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/earnings': november,
        'GET /coach/earnings.csv': 'booking_id,kind,gross_cents\n',
      }),
    });
    const card = await earningsCard();
    await user.click(within(card).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(calls.find((c) => c.path === '/coach/earnings.csv')?.query.get('month')).toBe('2026-11');
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('courtside-earnings-2026-11.csv');
  });
});
