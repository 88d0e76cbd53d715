import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Booking } from '../api/get-bookings';

const client = makeUser({ user_id: 'client-1', full_name: 'Casey Jordan' });

const booking: Booking = {
  booking_id: 'b-1',
  coach_id: 'coach-1',
  coach_name: 'Maya Thompson',
  client_id: 'client-1',
  client_name: 'Casey Jordan',
  slot_id: 'slot-1',
  booking_date: '2025-03-14',
  start_time: '17:00',
  end_time: '18:00',
  location_name: 'Eastside Rec',
  time_zone: 'America/Chicago',
  starts_at: '2025-03-14T22:00:00Z',
  ends_at: '2025-03-14T23:00:00Z',
  status: 'confirmed',
  payment_status: 'pending',
  created_at: '2025-03-01T10:00:00Z',
  late_cancellation: false,
  free_cancellation_until: '2025-03-13T22:00:00Z',
  cancelled_by: null,
  cancellation_reason: null,
  rescheduled_from: null,
  rescheduled_to: null,
  review: null,
};

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
      api: {
        'GET /bookings': [booking],
        'GET /client/profile/client-1': { status: 404, body: { detail: 'Client profile not found' } },
        'GET /availability/coach/coach-1/calendar': [
          occurrence('slot-1', '2025-03-14', '17:00'),
          occurrence('slot-1', '2025-03-21', '17:00', 'time_off'),
          occurrence('slot-2', '2025-03-22', '09:00'),
        ],
        'POST /bookings/b-1/reschedule': ({ body }: { body: { booking_date: string } }) => ({
          status: 201,
          body: { ...booking, booking_id: 'b-2', booking_date: body.booking_date, rescheduled_from: 'b-1' },
        }),
      },
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
    expect(button('2025-03-21')).toBeDisabled(); // the coach is away
    expect(within(dialog).getByRole('button', { name: 'Move Booking' })).toBeDisabled();

    await user.click(button('2025-03-22'));
    expect(within(dialog).getByRole('radio', { name: /09:00 – 10:00/ })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Move Booking' }));

    expect(await screen.findByText('Booking moved to Sat, Mar 22, 2025')).toBeInTheDocument();
    const moved = calls.find((c) => c.method === 'POST' && c.path === '/bookings/b-1/reschedule')!;
    expect(moved.body).toEqual({ slot_id: 'slot-2', booking_date: '2025-03-22' });
  });

  it("shows the server's refusal and keeps the dialog open", async () => {
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: {
        'GET /bookings': [booking],
        'GET /client/profile/client-1': { status: 404, body: { detail: 'Client profile not found' } },
        'GET /availability/coach/coach-1/calendar': [occurrence('slot-2', '2025-03-22', '09:00')],
        'POST /bookings/b-1/reschedule': { status: 409, body: { detail: 'This slot is already booked for that date.' } },
      },
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
