import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coachLocation, coachProfile, slot } from '@/testing/fixtures';
import { currentPath, renderApp } from '@/testing/test-utils';

const detailApi = (extra: Record<string, unknown> = {}) => ({
  'GET /coach/profile/coach-1': coachProfile(),
  'GET /locations/coach/coach-1': [coachLocation()],
  'GET /availability/coach/coach-1': [
    slot({ slot_id: 'weekly', slot_type: 'recurring', day_of_week: 'Friday' }),
    slot({ slot_id: 'once', slot_type: 'one-time', day_of_week: null, specific_date: '2025-03-20', location_id: null, start_time: '08:00', end_time: '09:30' }),
  ],
  ...extra,
});

describe('the coach detail page and booking dialog', () => {
  beforeEach(() => {
    // The browser and the coach's location (America/Chicago) share a zone: times read bare.
    vi.stubEnv('TZ', 'America/Chicago');
    // Wednesday 12 March 2025, 10:00 local; only Date is faked so user events still run.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('shows the coach, their locations and their slots', async () => {
    renderApp('/coach/coach-1', { user: 'client', api: detailApi() });
    expect(await screen.findByRole('heading', { name: 'Maya Thompson' })).toBeInTheDocument();
    expect(screen.getByText('8 years experience')).toBeInTheDocument();
    expect(screen.getByText('$65')).toBeInTheDocument();
    expect(screen.getByText('/hour')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'About' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Training Locations' })).toBeInTheDocument();
    expect(screen.getByText('Where this coach offers sessions')).toBeInTheDocument();
    expect(screen.getByText('Book your session with Maya Thompson')).toBeInTheDocument();

    const [weekly, once] = await screen.findAllByTestId('slot');
    expect(weekly).toHaveTextContent('Every Friday');
    expect(weekly).toHaveTextContent('17:00 - 18:00');
    expect(weekly).toHaveTextContent('Eastside Rec - 2');
    expect(once).toHaveTextContent('2025-03-20');
    expect(once).toHaveTextContent('08:00 - 09:30');
    expect(once).toHaveTextContent('Location TBD');
    expect(screen.getByRole('link', { name: 'Back to Coaches' })).toHaveAttribute('href', '/coaches');
  });

  it('hides Training Locations and shows the empty state when the coach has neither', async () => {
    renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({ 'GET /locations/coach/coach-1': [], 'GET /availability/coach/coach-1': [] }),
    });
    expect(await screen.findByText('No availability yet')).toBeInTheDocument();
    expect(screen.getByText("This coach hasn't set up their availability. Check back soon!")).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Training Locations' })).not.toBeInTheDocument();
  });

  it('says when the coach cannot be loaded', async () => {
    renderApp('/coach/nobody', { user: 'client', api: {} });
    expect(await screen.findByText('Failed to load coach details')).toBeInTheDocument();
  });

  it('books a weekly slot on its next date, sent as the local calendar day', async () => {
    const { user, calls, router } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({ 'POST /bookings': { status: 201, body: { booking_id: 'b1' } } }),
    });
    const [weekly] = await screen.findAllByTestId('slot');
    await user.click(within(weekly).getByRole('button', { name: 'Book This Slot' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    expect(within(dialog).getByText('Select a date for your session with Maya Thompson')).toBeInTheDocument();
    expect(within(dialog).getByText('17:00 – 18:00')).toBeInTheDocument();
    // The coach has no policy of their own: the defaults' lines.
    expect(within(dialog).getByRole('list', { name: 'Booking policy' })).toHaveTextContent(
      'Book up to 365 days ahead' + 'The coach answers within 2 days' + 'Free cancellation until 24 hours before',
    );
    expect(within(dialog).getByText('Eastside Rec - 2')).toBeInTheDocument();
    expect(within(dialog).getByText('/hour')).toBeInTheDocument();
    // Today (Wednesday) cannot fit a Friday slot, so the dialog starts on Friday the 14th.
    expect(within(dialog).getByText('Fri, Mar 14, 2025')).toBeInTheDocument();

    // Only Fridays from today on can be picked.
    const gridcell = (day: number) =>
      within(dialog).getAllByRole('gridcell').find((cell) => cell.getAttribute('data-day') === `2025-03-${String(day).padStart(2, '0')}`)!;
    expect(within(gridcell(13)).getByRole('button')).toBeDisabled();
    expect(within(gridcell(7)).getByRole('button')).toBeDisabled();
    await user.click(within(gridcell(21)).getByRole('button'));

    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking confirmed! Check your dashboard.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/bookings')?.body).toEqual({
      coach_id: 'coach-1',
      slot_id: 'weekly',
      booking_date: '2025-03-21',
    });
    await waitFor(() => expect(currentPath(router)).toBe('/client/dashboard'));
  });

  it("shows the server's reason when a booking is refused", async () => {
    const { user } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({ 'POST /bookings': { status: 409, body: { detail: 'This slot is already booked for that date' } } }),
    });
    const [, once] = await screen.findAllByTestId('slot');
    await user.click(within(once).getByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    expect(within(dialog).getByText('Thu, Mar 20, 2025')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('This slot is already booked for that date')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Confirm Your Booking' })).toBeInTheDocument();
  });

  it('offers no date and no booking for a one-time slot that has passed', async () => {
    const { user } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({ 'GET /availability/coach/coach-1': [slot({ slot_type: 'one-time', day_of_week: null, specific_date: '2025-03-01' })] }),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    expect(within(dialog).getByText("No date of this slot fits the coach's booking policy")).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Confirm Booking' })).toBeDisabled();
  });

  it('keeps the chosen day when it is clicked again, and books it', async () => {
    const { user, calls } = renderApp('/coach/coach-1', { user: 'client', api: detailApi() });
    const [weekly] = await screen.findAllByTestId('slot');
    await user.click(within(weekly).getByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    // A second click on the selected day does not leave the dialog without a date.
    await user.click(within(dialog).getByRole('button', { name: /^14 March 2025, Friday.*selected/ }));
    expect(within(dialog).queryByText('No date selected')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/Selected:/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/bookings')).toBe(true),
    );
  });

  it('falls back to "Failed to create booking"', async () => {
    const { user } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({ 'POST /bookings': { status: 502 } }),
    });
    const [weekly] = await screen.findAllByTestId('slot');
    await user.click(within(weekly).getByRole('button', { name: 'Book This Slot' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Failed to create booking')).toBeInTheDocument();
  });
});

describe("the booking dialog under the coach's policy, in the place's zone", () => {
  const chicagoApi = (extra: Record<string, unknown> = {}) =>
    detailApi({
      'GET /locations/coach/coach-1': [{ ...coachLocation(), time_zone: 'America/Chicago' }],
      'GET /availability/coach/coach-1': [slot({ slot_id: 'weekly', day_of_week: 'Friday' })],
      ...extra,
    });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('disables the dates sooner than the notice and beyond the booking window, and says why', async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0)); // Wednesday 12 March 2025, 10:00 in Chicago
    const { user } = renderApp('/coach/coach-1', {
      user: 'client',
      api: chicagoApi({
        'GET /coach/policy/coach-1': {
          min_notice_minutes: 4320, // 3 days: until Saturday the 15th, 10:00
          max_advance_days: 10, // until Saturday the 22nd, 10:00
          response_window_minutes: 1440,
          cancellation_window_minutes: 120,
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    expect(await within(dialog).findByRole('list', { name: 'Booking policy' })).toHaveTextContent(
      'Book at least 3 days ahead' +
        'Book up to 10 days ahead' +
        'The coach answers within 24 hours' +
        'Free cancellation until 2 hours before',
    );
    const day = (date: string) =>
      within(within(dialog).getAllByRole('gridcell').find((cell) => cell.getAttribute('data-day') === date)!).getByRole(
        'button',
      );
    expect(day('2025-03-14')).toBeDisabled(); // too soon
    expect(day('2025-03-21')).toBeEnabled();
    expect(day('2025-03-28')).toBeDisabled(); // too far
    expect(day('2025-03-20')).toBeDisabled(); // not a Friday
    // The first date the policy allows is chosen; 17:00 in Chicago needs no zone name here.
    expect(within(dialog).getByText('Fri, Mar 21, 2025')).toBeInTheDocument();
    expect(within(dialog).getByText('17:00 – 18:00')).toBeInTheDocument();
  });

  it("names the place's zone for a client whose browser is elsewhere", async () => {
    vi.stubEnv('TZ', 'America/New_York');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
    const { user } = renderApp('/coach/coach-1', { user: 'client', api: chicagoApi() });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    // Friday 14 March 2025 is daylight time in Chicago.
    expect(await within(dialog).findByText('17:00 – 18:00 CDT')).toBeInTheDocument();
  });
});

describe("the booking dialog under the coach's bookable calendar", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  const day = (date: string, slotId = 'weekly', reason: string | null = null) => ({
    slot_id: slotId,
    date,
    start_time: '17:00',
    end_time: '18:00',
    time_zone: 'America/Chicago',
    starts_at: `${date}T22:00:00Z`,
    ends_at: `${date}T23:00:00Z`,
    location_name: 'Eastside Rec',
    bookable: reason === null,
    reason,
  });

  it('disables the dates the calendar call refuses and says why on hover', async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0)); // Wednesday 12 March 2025
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({
        'GET /availability/coach/coach-1': [slot({ slot_id: 'weekly', day_of_week: 'Friday' })],
        'GET /availability/coach/coach-1/calendar': [
          day('2025-03-14', 'weekly', 'booked'),
          day('2025-03-21', 'weekly', 'time_off'),
          day('2025-03-28'),
        ],
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    const button = (date: string) =>
      within(within(dialog).getAllByRole('gridcell').find((cell) => cell.getAttribute('data-day') === date)!).getByRole(
        'button',
      );
    await waitFor(() => expect(button('2025-03-14')).toBeDisabled());
    expect(button('2025-03-14')).toHaveAttribute('title', 'Fully booked');
    expect(button('2025-03-14')).toHaveAccessibleName(/Fully booked$/);
    expect(button('2025-03-21')).toBeDisabled();
    expect(button('2025-03-21')).toHaveAttribute('title', 'Coach away');
    expect(button('2025-03-28')).toBeEnabled();
    expect(within(dialog).getByRole('list', { name: 'Dates not available' })).toHaveTextContent(
      'Fri, Mar 14, 2025: Fully booked' + 'Fri, Mar 21, 2025: Coach away',
    );
    const asked = calls.find((c) => c.path === '/availability/coach/coach-1/calendar')!;
    expect([asked.query.get('from'), asked.query.get('to')]).toEqual(['2025-03-11', '2025-05-11']);
  });

  it("shows each slot's next dates the server would book", async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
    renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({
        'GET /availability/coach/coach-1': [slot({ slot_id: 'weekly', day_of_week: 'Friday' })],
        'GET /availability/coach/coach-1/calendar': [
          day('2025-03-14', 'weekly', 'booked'),
          day('2025-03-21'),
          day('2025-03-28'),
          day('2025-04-04'),
          day('2025-04-11'),
        ],
      }),
    });
    expect(await screen.findByTestId('next-dates')).toHaveTextContent(
      'Next: Fri, Mar 21, 2025 · Fri, Mar 28, 2025 · Fri, Apr 4, 2025',
    );
  });
});
