import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Booking } from '../api/get-bookings';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });

function booking(overrides: Partial<Booking> = {}): Booking {
  return {
    booking_id: 'b-1',
    coach_id: 'coach-1',
    coach_name: 'Maya Thompson',
    client_id: 'client-1',
    client_name: 'Casey Jordan',
    booking_date: '2025-03-14',
    start_time: '17:00',
    end_time: '18:00',
    location_name: 'Eastside Rec',
    status: 'pending',
    payment_status: 'pending',
    created_at: '2025-03-01T10:00:00Z',
    ...overrides,
  };
}

function coachApi(extra: Record<string, unknown> = {}) {
  return {
    'GET /coach/profile/coach-1': { status: 404, body: { detail: 'Coach profile not found' } },
    'GET /locations': [],
    'GET /availability/coach/coach-1': [],
    'GET /gym/locations': [],
    'GET /coach/court-reservations': [],
    'GET /bookings': [],
    ...extra,
  };
}

async function clientBookings() {
  const heading = await screen.findByRole('heading', { name: 'Client Bookings' });
  return heading.closest('.rounded-lg') as HTMLElement;
}

describe("the coach's Client Bookings", { timeout: 30_000 }, () => {
  it('says "No bookings yet" when there are none', async () => {
    renderApp('/coach/dashboard', { user: coach, api: coachApi() });
    expect(await within(await clientBookings()).findByText('No bookings yet')).toBeInTheDocument();
  });

  it('offers Approve and Deny on pending, payment on confirmed, a red badge otherwise', async () => {
    renderApp('/coach/dashboard', {
      user: coach,
      api: coachApi({
        'GET /bookings': [
          booking({ booking_id: 'p' }),
          booking({ booking_id: 'c', status: 'confirmed', client_name: 'Dana Lee' }),
          booking({ booking_id: 'd', status: 'denied', client_name: 'Eli Moss' }),
        ],
      }),
    });
    const [pending, confirmed, denied] = await within(await clientBookings()).findAllByTestId('booking');
    expect(pending).toHaveTextContent('Casey Jordan');
    expect(pending).toHaveTextContent('Fri, Mar 14, 2025');
    expect(pending).toHaveTextContent('17:00 - 18:00');
    expect(within(pending).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(pending).getByRole('button', { name: 'Deny' })).toBeInTheDocument();
    expect(confirmed).toHaveTextContent('pending');
    expect(within(confirmed).queryByRole('button')).not.toBeInTheDocument();
    const badge = within(denied).getByText('denied');
    expect(badge.className).toMatch(/red/);
    expect(within(denied).queryByRole('button')).not.toBeInTheDocument();
  });

  it('approves a pending booking and shows it confirmed', async () => {
    let approved = false;
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachApi({
        'GET /bookings': () => [booking({ status: approved ? 'confirmed' : 'pending' })],
        'PATCH /coach/bookings/b-1/approve': () => {
          approved = true;
          return { status: 200, body: booking({ status: 'confirmed' }) };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Booking approved!')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH' && c.path === '/coach/bookings/b-1/approve')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument());
    expect(screen.getByText('pending')).toBeInTheDocument();
  });

  it('denies a pending booking', async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachApi({
        'GET /bookings': [booking()],
        'PATCH /coach/bookings/b-1/deny': { status: 200, body: booking({ status: 'denied' }) },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Booking denied')).toBeInTheDocument();
  });

  it('says so when approving or denying fails', async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachApi({
        'GET /bookings': [booking()],
        'PATCH /coach/bookings/b-1/approve': { status: 500, body: {} },
        'PATCH /coach/bookings/b-1/deny': { status: 500, body: {} },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Failed to approve booking')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Failed to deny booking')).toBeInTheDocument();
  });
});
