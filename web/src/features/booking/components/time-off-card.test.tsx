import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { coachDashboardApi } from '@/testing/dashboards';
import { booking as baseBooking } from '@/testing/fixtures';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Booking } from '../api/get-bookings';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });

/** Jordan Lee's confirmed session on Thursday 2 July 2099, 17:00-18:00 in Chicago. */
const booking = (overrides: Partial<Booking>): Booking =>
  baseBooking({
    client_name: 'Jordan Lee',
    booking_date: '2099-07-02',
    starts_at: '2099-07-02T22:00:00Z',
    ends_at: '2099-07-02T23:00:00Z',
    status: 'confirmed',
    created_at: '2099-06-01T10:00:00Z',
    free_cancellation_until: '2099-07-01T22:00:00Z',
    ...overrides,
  });

async function timeOffCard() {
  const heading = await screen.findByRole('heading', { name: 'Time off' });
  return heading.closest('[aria-labelledby="time-off-title"]') as HTMLElement;
}

describe("the coach's Time off card", () => {
  it('adds a range with a reason and lists it', async () => {
    let saved: unknown[] = [];
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/exceptions': () => saved,
        'POST /coach/exceptions': ({ body }: { body: Record<string, string> }) => {
          const made = { exception_id: 'x-1', ...body, conflicts: [] };
          saved = [made];
          return { status: 201, body: made };
        },
      }),
    });
    const card = await timeOffCard();
    expect(await within(card).findByText('No time off planned')).toBeInTheDocument();
    await user.type(within(card).getByLabelText('First day'), '2099-07-01');
    await user.type(within(card).getByLabelText('Last day'), '2099-07-03');
    await user.type(within(card).getByLabelText('Reason (optional)'), 'Summer camp');
    await user.click(within(card).getByRole('button', { name: 'Add Time Off' }));

    expect(await screen.findByText('Time off added')).toBeInTheDocument();
    const posted = calls.find((c) => c.method === 'POST' && c.path === '/coach/exceptions')!;
    expect(posted.body).toEqual({ start_date: '2099-07-01', end_date: '2099-07-03', reason: 'Summer camp' });
    const item = await within(card).findByTestId('time-off');
    expect(item).toHaveTextContent('Wed, Jul 1, 2099 – Fri, Jul 3, 2099');
    expect(item).toHaveTextContent('Summer camp');
  });

  it('names the bookings on its dates and cancels one with the reason in one click', async () => {
    const confirmed = booking({ booking_id: 'b-1', status: 'confirmed' });
    const pending = booking({ booking_id: 'b-2', status: 'pending', client_name: 'Sam Park', booking_date: '2099-07-03' });
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /bookings': [confirmed, pending],
        'GET /coach/exceptions': [
          { exception_id: 'x-1', start_date: '2099-07-01', end_date: '2099-07-03', reason: 'Tournament', conflicts: ['b-1', 'b-2'] },
        ],
        'PATCH /coach/bookings/b-1/cancel': { ...confirmed, status: 'cancelled' },
        'PATCH /coach/bookings/b-2/deny': { ...pending, status: 'denied' },
      }),
    });
    const card = await timeOffCard();
    const list = await within(card).findByRole('list', { name: /Bookings during/ });
    expect(list).toHaveTextContent('Jordan Lee, Thu, Jul 2, 2099 17:00');
    expect(list).toHaveTextContent('Sam Park, Fri, Jul 3, 2099 17:00');

    await user.click(within(list).getByRole('button', { name: 'Cancel booking with Jordan Lee, Thu, Jul 2, 2099 17:00' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/coach/bookings/b-1/cancel')).toBe(true));
    expect(calls.find((c) => c.path === '/coach/bookings/b-1/cancel')!.body).toEqual({ reason: 'Tournament' });
    await user.click(within(list).getByRole('button', { name: 'Cancel booking with Sam Park, Fri, Jul 3, 2099 17:00' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/coach/bookings/b-2/deny')).toBe(true));
  });

  it('removes a time off', async () => {
    let saved = [{ exception_id: 'x-1', start_date: '2099-07-01', end_date: '2099-07-01', reason: null, conflicts: [] }];
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/exceptions': () => saved,
        'DELETE /coach/exceptions/x-1': () => {
          saved = [];
          return { status: 204 };
        },
      }),
    });
    const card = await timeOffCard();
    await user.click(await within(card).findByRole('button', { name: 'Remove time off Wed, Jul 1, 2099' }));
    expect(await within(card).findByText('No time off planned')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });
});
