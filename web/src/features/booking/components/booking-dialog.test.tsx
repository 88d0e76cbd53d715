import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Unbookable } from '@/features/booking/api/get-coach-calendar';
import { calendarDay, coachLocation, coachProfile, slot } from '@/testing/fixtures';
import type { RecordedCall } from '@/testing/mock-api';
import { coachPageApi, dashboardApi } from '@/testing/dashboards';
import { currentPath, makeUser, renderApp } from '@/testing/test-utils';

/**
 * A day the calendar refuses: it cannot be chosen (aria-disabled, which a person's browser and
 * Playwright honour) yet stays focusable (not natively disabled), and says why in its name and title.
 */
function expectRefused(button: HTMLElement, reason: string) {
  expect(button).toHaveAttribute('aria-disabled', 'true');
  expect(button).not.toHaveAttribute('disabled');
  expect(button).toHaveAccessibleName(new RegExp(`, ${reason}$`));
  expect(button).toHaveAttribute('title', reason);
}

/** The coach's page, and the client's dashboard a booking lands on. */
const detailApi = (extra: Record<string, unknown> = {}) =>
  coachPageApi({
    ...dashboardApi('client', makeUser().user_id),
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
    const missing = { status: 404, body: { detail: 'Coach not found' } };
    renderApp('/coach/nobody', {
      user: 'client',
      api: coachPageApi(
        {
          'GET /coach/profile/nobody': missing,
          'GET /locations/coach/nobody': missing,
          'GET /availability/coach/nobody': missing,
        },
        'nobody',
      ),
    });
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
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({ 'POST /bookings': { status: 201, body: { booking_id: 'b1' } } }),
    });
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
    // No calendar to read here: the slot's rule and the policy decide, and say why.
    expectRefused(day('2025-03-14'), 'Too soon');
    expect(day('2025-03-21')).toBeEnabled();
    expectRefused(day('2025-03-28'), 'Too far ahead');
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

  const day = (date: string, slotId = 'weekly', reason: Unbookable | null = null) => calendarDay(date, reason, slotId);

  const calendarPage = (calendar: unknown, extra: Record<string, unknown> = {}) =>
    detailApi({
      'GET /availability/coach/coach-1': [slot({ slot_id: 'weekly', day_of_week: 'Friday' })],
      'GET /availability/coach/coach-1/calendar': calendar,
      ...extra,
    });

  /** The ranges the dialog asked the calendar for, [from, to], in the order first asked (a month
   * read before may be read again when it comes back; the page's own read of the next dates,
   * from the day before today, is left out). */
  const monthsAsked = (calls: RecordedCall[]) => [
    ...new Set(
      calls
        .filter((c) => c.path === '/availability/coach/coach-1/calendar' && c.query.get('from') !== '2025-03-11')
        .map((c) => `${c.query.get('from')}..${c.query.get('to')}`),
    ),
  ].map((range) => range.split('..'));

  /** March's Fridays: the 14th taken, the 21st the coach's time off, the 28th free. */
  const march = [day('2025-03-14', 'weekly', 'booked'), day('2025-03-21', 'weekly', 'time_off'), day('2025-03-28')];

  const dayButton = (dialog: HTMLElement, date: string) =>
    within(within(dialog).getAllByRole('gridcell').find((cell) => cell.getAttribute('data-day') === date)!).getByRole(
      'button',
    );

  it('starts on the first date the calendar calls bookable, refuses the others and says why on hover', async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0)); // Wednesday 12 March 2025
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: calendarPage(march),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    // The slot's first Friday (the 14th) is taken: the dialog starts on the first one free.
    expect(await within(dialog).findByText('Fri, Mar 28, 2025')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
    expectRefused(dayButton(dialog, '2025-03-14'), 'Fully booked');
    expectRefused(dayButton(dialog, '2025-03-21'), 'Coach away');
    expect(dayButton(dialog, '2025-03-28')).toBeEnabled();
    expect(dayButton(dialog, '2025-03-20')).toBeDisabled(); // not a Friday
    expect(within(dialog).getByRole('list', { name: 'Dates not available' })).toHaveTextContent(
      'Fri, Mar 14, 2025: Fully booked' + 'Fri, Mar 21, 2025: Coach away',
    );
    // Hovering a refused day says why under the calendar.
    await user.hover(dayButton(dialog, '2025-03-14'));
    expect(within(dialog).getByTestId('day-note')).toHaveTextContent('Fri, Mar 14, 2025 cannot be booked: Fully booked');
    await user.hover(dayButton(dialog, '2025-03-28'));
    expect(within(dialog).getByTestId('day-note')).toHaveTextContent(/^$/);
    // The month shown is what is asked for.
    expect(monthsAsked(calls)).toEqual([['2025-03-01', '2025-03-31']]);
  });

  it('says why a refused day cannot be chosen when it is reached by keyboard, and keeps the date', async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: calendarPage(march, {
        'POST /bookings': { status: 201, body: { booking_id: 'b1' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    await user.click(await within(dialog).findByRole('button', { name: /^28 March 2025, Friday, selected$/ }));
    // A week back is the coach's time off: focus lands on it, and the line says why.
    await user.keyboard('{ArrowUp}');
    expect(dayButton(dialog, '2025-03-21')).toHaveFocus();
    expect(within(dialog).getByTestId('day-note')).toHaveTextContent('Fri, Mar 21, 2025 cannot be booked: Coach away');
    await user.keyboard('{Enter}');
    await user.click(dayButton(dialog, '2025-03-14'));
    expect(within(dialog).getByTestId('day-note')).toHaveTextContent('Fri, Mar 14, 2025 cannot be booked: Fully booked');
    // Neither was chosen.
    expect(within(dialog).getByText(/Selected:/)).toHaveTextContent('Selected: Fri, Mar 28, 2025');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/bookings')?.body).toEqual({
        coach_id: 'coach-1',
        slot_id: 'weekly',
        booking_date: '2025-03-28',
      }),
    );
  });

  it('disables Confirm, saying why, once the chosen date is taken', async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
    // Someone books the 14th between the calendar's first read and this client's Confirm.
    let taken = false;
    const { user } = renderApp('/coach/coach-1', {
      user: 'client',
      api: calendarPage(() => [day('2025-03-14', 'weekly', taken ? 'booked' : null), day('2025-03-21')], {
        'POST /bookings': () => {
          taken = true;
          return { status: 409, body: { detail: 'Someone booked this date a moment ago' } };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    expect(await within(dialog).findByText('Fri, Mar 14, 2025')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Someone booked this date a moment ago')).toBeInTheDocument();

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Fri, Mar 14, 2025 cannot be booked: Fully booked. Choose another date.',
    );
    expect(within(dialog).getByRole('button', { name: 'Confirm Booking' })).toBeDisabled();
    expectRefused(dayButton(dialog, '2025-03-14'), 'Fully booked');
    await user.click(dayButton(dialog, '2025-03-21'));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
  });

  it('looks ahead month by month for the first free date', async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
    // Every Friday of March is taken; April's first is free.
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: calendarPage(({ query }: { query: URLSearchParams }) =>
        query.get('from') === '2025-03-01'
          ? ['2025-03-14', '2025-03-21', '2025-03-28'].map((d) => day(d, 'weekly', 'booked'))
          : [day('2025-04-04'), day('2025-04-11')],
      ),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    expect(await within(dialog).findByText('Fri, Apr 4, 2025')).toBeInTheDocument();
    expect(dayButton(dialog, '2025-04-04')).toHaveAccessibleName(/selected$/);
    expect(monthsAsked(calls)).toEqual([
      ['2025-03-01', '2025-03-31'],
      ['2025-04-01', '2025-04-30'],
    ]);
  });

  it("reads each month the client turns to, and offers none of its days before it is read", async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
    // Months ahead, beyond what one call answers: each is read when it is shown.
    let answerJune: () => void = () => {};
    const june = new Promise<void>((resolve) => {
      answerJune = resolve;
    });
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: calendarPage(async ({ query }: { query: URLSearchParams }) => {
        const from = query.get('from');
        if (from === '2025-06-01') {
          await june;
          return [day('2025-06-06'), day('2025-06-13', 'weekly', 'time_off'), day('2025-06-20')];
        }
        if (from === '2025-03-01') return [day('2025-03-14'), day('2025-03-21')];
        return [];
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
    expect(await within(dialog).findByText('Fri, Mar 14, 2025')).toBeInTheDocument();
    // April and May: the calendar has no row for them, so nothing there can be chosen.
    await user.click(within(dialog).getByRole('button', { name: /next month/i }));
    await waitFor(() => expect(dayButton(dialog, '2025-04-04')).toBeDisabled());
    await user.click(within(dialog).getByRole('button', { name: /next month/i }));
    await user.click(within(dialog).getByRole('button', { name: /next month/i }));
    // June is on its way: its Fridays wait, and the line says so.
    expect(dayButton(dialog, '2025-06-06')).toBeDisabled();
    expect(dayButton(dialog, '2025-06-13')).toBeDisabled();
    expect(within(dialog).getByTestId('day-note')).toHaveTextContent("Loading the coach's calendar…");
    answerJune();
    await waitFor(() => expect(dayButton(dialog, '2025-06-06')).toBeEnabled());
    expectRefused(dayButton(dialog, '2025-06-13'), 'Coach away');
    expect(within(dialog).getByTestId('day-note')).toHaveTextContent(/^$/);
    expect(monthsAsked(calls)).toEqual([
      ['2025-03-01', '2025-03-31'],
      ['2025-04-01', '2025-04-30'],
      ['2025-05-01', '2025-05-31'],
      ['2025-06-01', '2025-06-30'],
    ]);
    await user.click(dayButton(dialog, '2025-06-20'));
    expect(within(dialog).getByText(/Selected:/)).toHaveTextContent('Selected: Fri, Jun 20, 2025');
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
