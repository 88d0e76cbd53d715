import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { coachDashboardApi } from '@/testing/dashboards';
import { booking } from '@/testing/fixtures';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Booking } from '../api/get-bookings';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });

/** `count` completed bookings, b-0 to b-(count-1), with clients "Client 0" and on. */
const completedBookings = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    booking({ booking_id: `b-${i}`, client_name: `Client ${i}`, status: 'completed' }),
  );

/** GET /bookings over `rows` as the server pages it: `limit` and `cursor`, a next link while more remain. */
function paged(rows: Booking[]) {
  return ({ query }: { query: URLSearchParams }) => {
    const start = Number(query.get('cursor') ?? 0);
    const limit = Number(query.get('limit') ?? rows.length);
    const headers: Record<string, string> =
      start + limit < rows.length ? { Link: `</api/bookings?limit=${limit}&cursor=${start + limit}>; rel="next"` } : {};
    return { status: 200, body: rows.slice(start, start + limit), headers };
  };
}

async function clientBookings() {
  const heading = await screen.findByRole('heading', { name: 'Client Bookings' });
  return heading.closest('.rounded-lg') as HTMLElement;
}

describe("the coach's Client Bookings", () => {
  it('says "No bookings yet" when there are none', async () => {
    renderApp('/coach/dashboard', { user: coach, api: coachDashboardApi() });
    expect(await within(await clientBookings()).findByText('No bookings yet')).toBeInTheDocument();
  });

  it('offers Approve and Deny on pending, payment and Cancel session on confirmed, a red badge on denied', async () => {
    renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
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
    expect(pending).toHaveTextContent('17:00 – 18:00');
    expect(within(pending).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(within(pending).getByRole('button', { name: 'Deny' })).toBeInTheDocument();
    expect(within(confirmed).getByTestId('booking-payment')).toHaveTextContent('$65.00Not held yet');
    expect(within(confirmed).getAllByRole('button').map((b) => b.textContent)).toEqual(['Add to Calendar', 'Cancel session']);
    const badge = within(denied).getByText('denied');
    expect(badge.className).toMatch(/red/);
    expect(within(denied).queryByRole('button')).not.toBeInTheDocument();
  });

  it('approves a pending booking and shows it confirmed', async () => {
    let approved = false;
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
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
    expect(screen.getByTestId('booking-status')).toHaveTextContent('confirmed');
    expect(screen.getByTestId('payment-status')).toHaveTextContent('Not held yet');
  });

  it('denies a pending booking', async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
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
      api: coachDashboardApi({
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

  it('shows expired, completed, no-show and late-cancelled bookings distinctly', async () => {
    const ended = { starts_at: '2025-03-14T22:00:00Z', ends_at: '2025-03-14T23:00:00Z' };
    renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /bookings': [
          booking({ booking_id: 'e', status: 'expired' }),
          booking({ booking_id: 'd', status: 'completed', ...ended }),
          booking({ booking_id: 'n', status: 'no_show', ...ended }),
          booking({ booking_id: 'l', status: 'cancelled', late_cancellation: true, cancelled_by: 'client', cancellation_reason: 'Sick' }),
        ],
      }),
    });
    const [expired, completed, noShow, late] = await within(await clientBookings()).findAllByTestId('booking');
    const status = (item: HTMLElement) => within(item).getByTestId('booking-status');
    expect(status(expired)).toHaveTextContent('expired');
    expect(status(completed)).toHaveTextContent('completed');
    expect(status(noShow)).toHaveTextContent('no-show');
    expect(status(late)).toHaveTextContent('cancelled');
    expect(new Set([expired, completed, noShow, late].map((item) => status(item).className)).size).toBe(4);
    expect(within(late).getByTestId('late-cancellation')).toHaveTextContent('Late cancellation');
    expect(late).toHaveTextContent('Cancelled by the client: Sick');
    // Long past (2025): too late for a no-show; nothing else to do on these.
    for (const item of [expired, completed, noShow, late]) expect(within(item).queryByRole('button')).not.toBeInTheDocument();
  });

  it('marks a session that ended within 7 days as no-show', async () => {
    let marked = false;
    const endedAt = new Date(Date.now() - 2 * 24 * 3600_000);
    const ended = {
      starts_at: new Date(endedAt.getTime() - 3600_000).toISOString(),
      ends_at: endedAt.toISOString(),
    };
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /bookings': () => [booking({ status: marked ? 'no_show' : 'completed', ...ended })],
        'PATCH /coach/bookings/b-1/no-show': () => {
          marked = true;
          return { status: 200, body: booking({ status: 'no_show', ...ended }) };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Mark no-show' }));
    expect(await screen.findByText('Marked as no-show')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH' && c.path === '/coach/bookings/b-1/no-show')).toBe(true);
    await waitFor(() => expect(screen.getByTestId('booking-status')).toHaveTextContent('no-show'));
    expect(screen.queryByRole('button', { name: 'Mark no-show' })).not.toBeInTheDocument();
  });

  it('cancels a confirmed session with a reason for the client', async () => {
    let cancelled = false;
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /bookings': () => [
          booking(
            cancelled
              ? { status: 'cancelled', cancelled_by: 'coach', cancellation_reason: 'Court flooded' }
              : { status: 'confirmed' },
          ),
        ],
        'PATCH /coach/bookings/b-1/cancel': () => {
          cancelled = true;
          return {
            status: 200,
            body: booking({ status: 'cancelled', cancelled_by: 'coach', cancellation_reason: 'Court flooded' }),
          };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel session' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this session?' });
    expect(dialog).toHaveTextContent('Casey Jordan, Fri, Mar 14, 2025');
    await user.type(within(dialog).getByLabelText('Reason for the client (optional)'), '  Court flooded ');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await screen.findByText('Session cancelled')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH' && c.path === '/coach/bookings/b-1/cancel')?.body).toEqual({
      reason: 'Court flooded',
    });
    expect(await screen.findByText('Cancelled by the coach: Court flooded')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel session' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal when a session can no longer be cancelled", async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /bookings': [booking({ status: 'confirmed' })],
        'PATCH /coach/bookings/b-1/cancel': { status: 409, body: { detail: 'This session has already started' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel session' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this session?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel session' }));
    expect(await screen.findByText('This session has already started')).toBeInTheDocument();
  });

  it('shows a page of bookings at a time and the next on request', async () => {
    const many = completedBookings(60);
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /bookings': paged(many),
      }),
    });
    const card = await clientBookings();
    await within(card).findByText('Client 0');
    expect(within(card).getAllByTestId('booking')).toHaveLength(50);
    expect(calls.find((c) => c.path === '/bookings')?.query.get('limit')).toBe('50');
    await user.click(within(card).getByRole('button', { name: 'Show more bookings' }));
    expect(await within(card).findByText('Client 59')).toBeInTheDocument();
    expect(within(card).getAllByTestId('booking')).toHaveLength(60);
    expect(within(card).queryByRole('button', { name: 'Show more bookings' })).not.toBeInTheDocument();
  });

  it("opened from a notification's link, reads the pages until its booking shows and brings it into view", async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    const many = completedBookings(120);
    renderApp('/coach/dashboard?booking=b-77', {
      user: coach,
      api: coachDashboardApi({
        'GET /bookings': paged(many),
      }),
    });
    const card = await clientBookings();
    const row = (await within(card).findByText('Client 77')).closest('li') as HTMLElement;
    await waitFor(() => expect(row).toHaveFocus());
    expect(row).toHaveAttribute('data-linked');
    expect(scrolled.mock.contexts).toContain(row);
    // Two pages hold it: the third is not read.
    expect(within(card).getAllByTestId('booking')).toHaveLength(100);
    expect(within(card).getAllByTestId('booking').filter((b) => b.hasAttribute('data-linked'))).toEqual([row]);
    scrolled.mockRestore();
  });
});
