import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientDashboardApi } from '@/testing/dashboards';
import { booking2025 } from '@/testing/fixtures';
import { makeUser, renderApp } from '@/testing/test-utils';
import { DEFAULT_POLICY } from '../utils/booking-policy';

const client = makeUser({ user_id: 'client-1', full_name: 'Casey Jordan' });

/** The client's dashboard with no profile; the coach's policy is the default one. */
const rescheduleApi = (extra: Record<string, unknown>) =>
  clientDashboardApi({ 'GET /coach/policy/coach-1': DEFAULT_POLICY, ...extra });

/** A confirmed session on Friday 14 March 2025. */
const booking = booking2025({ status: 'confirmed' });

const occurrence = (slotId: string, date: string, start: string, reason: string | null = null) => ({
  slot_id: slotId,
  date,
  start_time: start,
  end_time: `${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00`,
  time_zone: 'America/Chicago',
  starts_at: null,
  ends_at: null,
  location_name: 'Eastside Rec',
  bookable: reason === null,
  reason,
});

describe("the client's Reschedule", () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0)); // Wednesday 12 March 2025
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it("moves a booking to a bookable date of any of the coach's slots and says where", async () => {
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: rescheduleApi({
        'GET /bookings': [booking],
        'GET /availability/coach/coach-1/calendar': [
          occurrence('slot-1', '2025-03-14', '17:00'),
          occurrence('slot-1', '2025-03-21', '17:00', 'time_off'),
          occurrence('slot-2', '2025-03-22', '09:00'),
        ],
        'POST /bookings/b-1/reschedule': ({ body }: { body: { booking_date: string } }) => ({
          status: 201,
          body: { ...booking, booking_id: 'b-2', booking_date: body.booking_date, rescheduled_from: 'b-1' },
        }),
      }),
    });
    const item = await screen.findByTestId('booking');
    await user.click(within(item).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule' });
    const button = (date: string) =>
      within(within(dialog).getAllByRole('gridcell').find((cell) => cell.getAttribute('data-day') === date)!).getByRole(
        'button',
      );
    await waitFor(() => expect(button('2025-03-22')).toBeEnabled());
    expect(button('2025-03-14')).toBeDisabled(); // the booking's own date and slot
    // The coach is away: the day cannot be chosen, yet can be focused and says why.
    expect(button('2025-03-21')).toHaveAttribute('aria-disabled', 'true');
    expect(button('2025-03-21')).toHaveAccessibleName(/, Coach away$/);
    await user.click(button('2025-03-21'));
    expect(within(dialog).getByTestId('day-note')).toHaveTextContent('Fri, Mar 21, 2025 cannot be booked: Coach away');
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Move Booking' })).toBeDisabled();
    // Far from the session: moving it is no late cancellation.
    expect(within(dialog).queryByTestId('late-cancellation-warning')).not.toBeInTheDocument();

    await user.click(button('2025-03-22'));
    expect(within(dialog).getByRole('radio', { name: /09:00 – 10:00/ })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Move Booking' }));

    expect(await screen.findByText('Booking moved to Sat, Mar 22, 2025')).toBeInTheDocument();
    const moved = calls.find((c) => c.method === 'POST' && c.path === '/bookings/b-1/reschedule')!;
    expect(moved.body).toEqual({ slot_id: 'slot-2', booking_date: '2025-03-22' });
    // The month shown is what was asked for.
    const asked = calls.find((c) => c.path === '/availability/coach/coach-1/calendar')!;
    expect([asked.query.get('from'), asked.query.get('to')]).toEqual(['2025-03-01', '2025-03-31']);
  });

  it("warns that moving a confirmed booking inside the coach's cancellation window is a late cancellation", async () => {
    // Tomorrow 17:00, booked under a 24-hour window that has already begun.
    const soon = {
      ...booking,
      booking_date: '2025-03-13',
      starts_at: '2025-03-13T22:00:00Z',
      ends_at: '2025-03-13T23:00:00Z',
      free_cancellation_until: '2025-03-12T22:00:00Z',
    };
    vi.setSystemTime(new Date(2025, 2, 12, 18, 0)); // Wednesday 18:00 in Chicago: 23 hours ahead
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: rescheduleApi({
        'GET /bookings': [soon],
        'GET /availability/coach/coach-1/calendar': [occurrence('slot-2', '2025-03-22', '09:00')],
      }),
    });
    await user.click(within(await screen.findByTestId('booking')).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule' });
    expect(within(dialog).getByTestId('late-cancellation-warning')).toHaveTextContent(
      'Moving this booking is a late cancellation: free cancellation ends 24 hours before the session. Maya Thompson will see it marked late.',
    );
  });

  it('says nothing of a late cancellation for a pending request, which is free to move', async () => {
    const pending = { ...booking, status: 'pending', free_cancellation_until: '2025-03-12T12:00:00Z' };
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: rescheduleApi({
        'GET /bookings': [pending],
        'GET /availability/coach/coach-1/calendar': [occurrence('slot-2', '2025-03-22', '09:00')],
      }),
    });
    await user.click(within(await screen.findByTestId('booking')).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule' });
    await waitFor(() => expect(within(dialog).getAllByRole('gridcell').length).toBeGreaterThan(0));
    expect(within(dialog).queryByTestId('late-cancellation-warning')).not.toBeInTheDocument();
  });

  it('opens on the first month with a date to move to, and reads each month turned to', async () => {
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: rescheduleApi({
        'GET /bookings': [booking],
        'GET /availability/coach/coach-1/calendar': ({ query }: { query: URLSearchParams }) =>
          query.get('from') === '2025-03-01'
            ? [occurrence('slot-1', '2025-03-14', '17:00'), occurrence('slot-1', '2025-03-21', '17:00', 'booked')]
            : query.get('from') === '2025-04-01'
              ? [occurrence('slot-1', '2025-04-04', '17:00', 'time_off'), occurrence('slot-1', '2025-04-11', '17:00')]
              : [occurrence('slot-1', '2025-05-02', '17:00')],
      }),
    });
    await user.click(within(await screen.findByTestId('booking')).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule' });
    const button = (date: string) =>
      within(within(dialog).getAllByRole('gridcell').find((cell) => cell.getAttribute('data-day') === date)!).getByRole(
        'button',
      );
    // March holds only the booking itself and a taken date: the calendar opens on April.
    await waitFor(() => expect(button('2025-04-11')).toBeEnabled());
    expect(button('2025-04-04')).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(dialog).getByRole('button', { name: /next month/i }));
    await waitFor(() => expect(button('2025-05-02')).toBeEnabled());
    await user.click(button('2025-05-02'));
    expect(within(dialog).getByRole('radio', { name: /17:00 – 18:00/ })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Move Booking' })).toBeEnabled();
    const asked = calls.filter((c) => c.path === '/availability/coach/coach-1/calendar');
    const months = [...new Set(asked.map((c) => c.query.get('from')))];
    expect(months).toEqual(['2025-03-01', '2025-04-01', '2025-05-01']);
  });

  it("shows the server's refusal and keeps the dialog open", async () => {
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: rescheduleApi({
        'GET /bookings': [booking],
        'GET /availability/coach/coach-1/calendar': [occurrence('slot-2', '2025-03-22', '09:00')],
        'POST /bookings/b-1/reschedule': { status: 409, body: { detail: 'This slot is already booked for that date.' } },
      }),
    });
    await user.click(within(await screen.findByTestId('booking')).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule' });
    const cell = await waitFor(() => {
      const found = within(dialog).getAllByRole('gridcell').find((c) => c.getAttribute('data-day') === '2025-03-22');
      expect(found).toBeDefined();
      return found!;
    });
    await user.click(within(cell).getByRole('button'));
    await user.click(within(dialog).getByRole('button', { name: 'Move Booking' }));
    expect(await screen.findByText('This slot is already booked for that date.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Reschedule' })).toBeInTheDocument();
  });
});
