import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gymDashboardApi } from '@/testing/dashboards';
import { gymFixtures } from '@/testing/gym-fixtures';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Court, GymLocation, GymProfile } from '../api/types';

const gym = makeUser({ user_id: 'gym-1', role: 'gym', full_name: 'Downtown Athletic' });
const { location, court, availability, reservation } = gymFixtures('2025-03-13');

const profile: GymProfile = { gym_id: 'gym-1', gym_name: 'Downtown Athletic', description: 'Six courts.', phone: '555-0100' };

/** The empty dashboard; Main Hall (loc-1), where a test lists it, has no closures. */
const gymApi = (extra: Record<string, unknown> = {}) =>
  gymDashboardApi({ 'GET /gym/locations/loc-1/closures': [], ...extra });

describe('the gym dashboard', () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'America/Chicago'); // the gym's own zone: times read bare
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0)); // Wednesday 12 March 2025
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('shows every empty state and no pending card when nothing waits', async () => {
    const { calls } = renderApp('/gym/dashboard', { user: gym, api: gymApi() });
    expect(await screen.findByRole('heading', { name: 'Gym Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('No locations added yet.')).toBeInTheDocument();
    expect(await screen.findByText('No availability set yet.')).toBeInTheDocument();
    expect(await screen.findByText('No gym profile yet. Click "Create Profile" to get started.')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === '/gym/pending-reservations')).toBe(true));
    expect(screen.queryByRole('heading', { name: /Pending Court Reservations/ })).not.toBeInTheDocument();
  });

  it('creates the gym profile with POST, then edits it with PUT', async () => {
    let saved: GymProfile | null = null;
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/profile/gym-1': () => (saved ? saved : { status: 404, body: { detail: 'none' } }),
        'POST /gym/profile': () => {
          saved = profile;
          return { status: 201, body: profile };
        },
        'PUT /gym/profile': { status: 400, body: { detail: 'gym_name must not be empty' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Create Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Profile' });
    await user.type(within(dialog).getByLabelText('Gym Name'), 'Downtown Athletic');
    await user.type(within(dialog).getByLabelText('Description'), 'Six courts.');
    await user.type(within(dialog).getByLabelText('Phone'), '555-0100');
    await user.click(within(dialog).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Profile created successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/gym/profile')?.body).toEqual({
      gym_name: 'Downtown Athletic',
      description: 'Six courts.',
      phone: '555-0100',
    });
    expect(await screen.findByText('Six courts.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Profile' });
    await user.clear(within(edit).getByLabelText('Gym Name'));
    await user.click(within(edit).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('gym_name must not be empty')).toBeInTheDocument();
  });

  it('adds a location, and a basketball court to it by default', async () => {
    let locations: GymLocation[] = [];
    let courts: Court[] = [];
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/locations': () => locations,
        'POST /gym/locations': () => {
          locations = [location()];
          return { status: 201, body: location() };
        },
        'GET /gym/locations/loc-1/courts': () => courts,
        'POST /gym/locations/loc-1/courts': () => {
          courts = [court()];
          return { status: 201, body: court() };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Location' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Location' });
    await user.type(within(dialog).getByLabelText('Name'), 'Main Hall');
    await user.type(within(dialog).getByLabelText('Address'), '1 Court Way');
    await user.type(within(dialog).getByLabelText('City'), 'Austin');
    await user.type(within(dialog).getByLabelText('State'), 'TX');
    await user.click(within(dialog).getByRole('button', { name: 'Save Location' }));
    expect(await screen.findByText('Location added successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/gym/locations')?.body).toEqual({
      name: 'Main Hall',
      address: '1 Court Way',
      city: 'Austin',
      state: 'TX',
      latitude: null,
      longitude: null,
      time_zone: null,
    });
    expect(await screen.findByText('No courts added yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add Court to Main Hall' }));
    const courtDialog = await screen.findByRole('dialog', { name: 'Add Court' });
    expect(within(courtDialog).getByRole('combobox', { name: 'Location' })).toHaveTextContent('Main Hall');
    expect(within(courtDialog).getByRole('combobox', { name: 'Court Type' })).toHaveTextContent('Basketball');
    await user.type(within(courtDialog).getByLabelText('Court Name'), 'Court A');
    await user.click(within(courtDialog).getByRole('button', { name: 'Save Court' }));
    expect(await screen.findByText('Court added successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/gym/locations/loc-1/courts')?.body).toEqual({
      court_name: 'Court A',
      court_type: 'basketball',
    });
    const list = await screen.findByRole('list', { name: 'Courts at Main Hall' });
    expect(list).toHaveTextContent('Court A');
    expect(list).toHaveTextContent('Basketball');
  });

  it("adds a court from the card's own Add Court to the gym's only location, and from a location's Add Court to that one", async () => {
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/locations': [location()],
        'GET /gym/locations/loc-1/courts': [],
        'POST /gym/locations/loc-1/courts': { status: 201, body: court() },
      }),
    });
    await screen.findByText('No courts added yet');
    await user.click(screen.getByRole('button', { name: 'Add Court' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Court' });
    expect(within(dialog).getByRole('combobox', { name: 'Location' })).toHaveTextContent('Main Hall');
    await user.type(within(dialog).getByLabelText('Court Name'), 'Court A');
    await user.click(within(dialog).getByRole('button', { name: 'Save Court' }));
    expect(await screen.findByText('Court added successfully')).toBeInTheDocument();
    expect(screen.queryByText('Please select a location first')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/gym/locations/loc-1/courts')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Add Court to Main Hall' }));
    const again = await screen.findByRole('dialog', { name: 'Add Court' });
    expect(within(again).getByRole('combobox', { name: 'Location' })).toHaveTextContent('Main Hall');
  });

  it('asks for a location before adding a court, and shows failures', async () => {
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({ 'POST /gym/locations': { status: 500, body: {} } }),
    });
    await screen.findByText('No locations added yet.');
    await user.click(screen.getByRole('button', { name: 'Add Court' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Court' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Court' }));
    expect(await screen.findByText('Please select a location first')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Add Location' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Add Location' })).getByRole('button', { name: 'Save Location' }));
    expect(await screen.findByText('Failed to add location')).toBeInTheDocument();
  });

  it('adds court availability on a chosen court', async () => {
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/locations': [location()],
        'GET /gym/locations/loc-1/courts': [court(), court({ court_id: 'court-2', court_name: 'Court B', court_type: 'volleyball' })],
        'POST /gym/court-availability': { status: 201, body: availability() },
      }),
    });
    await screen.findByText('Main Hall');
    await user.click(screen.getByRole('button', { name: 'Add Availability' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Availability' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Court' }));
    await user.click(await screen.findByRole('option', { name: 'Court B' }));
    const date = within(dialog).getByLabelText('Date');
    expect(date).toHaveValue('2025-03-12');
    await user.clear(date);
    await user.type(date, '2025-03-14');
    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));
    expect(await screen.findByText('Court availability added successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/gym/court-availability')?.body).toEqual({
      court_id: 'court-2',
      date: '2025-03-14',
      start_time: '09:00',
      end_time: '10:00',
    });
  });

  it("shows the server's reason when availability is refused", async () => {
    const { user } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'POST /gym/court-availability': { status: 409, body: { detail: 'Overlaps other availability of this court' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Availability' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Add Availability' })).getByRole('button', { name: 'Save Availability' }));
    expect(await screen.findByText('Overlaps other availability of this court')).toBeInTheDocument();
  });

  it('lists availability with Reserved or Available, and lays each court’s week out', async () => {
    const { user } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/locations': [location()],
        'GET /gym/locations/loc-1/courts': [court(), court({ court_id: 'court-2', court_name: 'Court B' })],
        'GET /gym/court-availability': [
          availability({ availability_id: 'free', date: '2025-03-10' }),
          availability({ availability_id: 'asked', date: '2025-03-13', start_time: '11:00', end_time: '12:00' }),
          availability({ availability_id: 'taken', court_id: 'court-2', court_name: 'Court B', date: '2025-03-16', is_reserved: true }),
          availability({ availability_id: 'later', date: '2025-03-20' }),
        ],
        'GET /gym/pending-reservations': [reservation({ availability_id: 'asked' })],
      }),
    });
    const list = await screen.findByRole('list', { name: 'Court availability' });
    const items = within(list).getAllByTestId('court-availability');
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent('Available');
    expect(items[2]).toHaveTextContent('Reserved');

    const schedule = screen.getByRole('region', { name: 'Court schedule' });
    expect(schedule).toHaveTextContent('Week of Mar 10 – Mar 16');
    const rowA = await within(schedule).findByRole('row', { name: /^Court A/ });
    const cellsA = within(rowA).getAllByRole('cell');
    expect(cellsA).toHaveLength(7);
    expect(cellsA[0]).toHaveTextContent('09:00 – 10:00Available');
    expect(cellsA[3]).toHaveTextContent('11:00 – 12:00Pending request');
    const rowB = within(schedule).getByRole('row', { name: /^Court B/ });
    expect(within(rowB).getAllByRole('cell')[6]).toHaveTextContent('Reserved');
    expect(schedule).not.toHaveTextContent('03-20');

    await user.click(within(schedule).getByRole('button', { name: 'Next week' }));
    expect(schedule).toHaveTextContent('Week of Mar 17 – Mar 23');
    expect(within(within(schedule).getByRole('row', { name: /^Court A/ })).getAllByRole('cell')[3]).toHaveTextContent('09:00 – 10:00Available');
  });

  it('shows pending reservations with a count and approves one, refreshing both lists', async () => {
    let approved = false;
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/pending-reservations': () => (approved ? [reservation({ reservation_id: 'r-2', coach_name: 'Leo Park' })] : [reservation(), reservation({ reservation_id: 'r-2', coach_name: 'Leo Park' })]),
        'GET /gym/court-availability': () => [availability({ is_reserved: approved })],
        'PATCH /gym/reservations/r-1/approve': () => {
          approved = true;
          return { status: 200, body: reservation({ status: 'approved' }) };
        },
      }),
    });
    const heading = await screen.findByRole('heading', { name: /Pending Court Reservations/ });
    expect(within(heading).getByText('2')).toBeInTheDocument();
    const [first] = screen.getAllByTestId('pending-reservation');
    expect(first).toHaveTextContent('Maya Thompson');
    expect(first).toHaveTextContent('Main Hall · Court A');
    expect(first).toHaveTextContent('09:00 – 10:00');
    const before = calls.filter((c) => c.path === '/gym/court-availability').length;
    await user.click(within(first).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Reservation approved!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('pending-reservation')).toHaveLength(1));
    expect(calls.filter((c) => c.path === '/gym/court-availability').length).toBeGreaterThan(before);
    expect(await within(screen.getByRole('list', { name: 'Court availability' })).findByText('Reserved')).toBeInTheDocument();
  });

  it("opened from a court request's notification, brings that request into view", async () => {
    renderApp('/gym/dashboard?reservation=r-2', {
      user: gym,
      api: gymApi({
        'GET /gym/pending-reservations': [reservation(), reservation({ reservation_id: 'r-2', coach_name: 'Leo Park' })],
      }),
    });
    const requested = (await screen.findByText('Leo Park')).closest('li') as HTMLElement;
    await waitFor(() => expect(requested).toHaveFocus());
    expect(requested).toHaveAttribute('data-linked');
    const other = (await screen.findByText('Maya Thompson')).closest('li') as HTMLElement;
    expect(other).not.toHaveAttribute('data-linked');
  });

  it('denies a reservation, and hides the card once none wait', async () => {
    let denied = false;
    const { user } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/pending-reservations': () => (denied ? [] : [reservation()]),
        'PATCH /gym/reservations/r-1/deny': () => {
          denied = true;
          return { status: 200, body: reservation({ status: 'denied' }) };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Reservation denied')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: /Pending Court Reservations/ })).not.toBeInTheDocument(),
    );
  });

  it('says so when approving or denying fails', async () => {
    const { user } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/pending-reservations': [reservation()],
        'PATCH /gym/reservations/r-1/approve': { status: 500, body: {} },
        'PATCH /gym/reservations/r-1/deny': { status: 500, body: {} },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Failed to approve reservation')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Failed to deny reservation')).toBeInTheDocument();
  });

  it('leaves a request out of the pending list once its start has passed (it expires)', async () => {
    renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/pending-reservations': [
          // Now is Wednesday 12 March 2025, 10:00 in Chicago.
          reservation({ reservation_id: 'past', date: '2025-03-12', start_time: '09:00', end_time: '10:00', coach_name: 'Old Request' }),
          reservation({ reservation_id: 'gone', status: 'expired', coach_name: 'Expired Request' }),
          reservation({ reservation_id: 'next', coach_name: 'Dana Lee' }),
        ],
      }),
    });
    const items = await screen.findAllByTestId('pending-reservation');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('Dana Lee');
    expect(screen.getByLabelText('1 pending')).toBeInTheDocument();
    expect(screen.queryByText('Old Request')).not.toBeInTheDocument();
    expect(screen.queryByText('Expired Request')).not.toBeInTheDocument();
  });

  it('cancels an approved reservation before it starts, with a reason for the coach', async () => {
    let cancelled = false;
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/locations': [location()],
        'GET /gym/locations/loc-1/courts': [court()],
        'GET /gym/court-availability': () => [
          availability({ is_reserved: !cancelled, reservation_id: cancelled ? null : 'r-1' }),
          availability({ availability_id: 'av-past', date: '2025-03-11', is_reserved: true, reservation_id: 'r-0' }),
        ],
        'PATCH /gym/reservations/r-1/cancel': () => {
          cancelled = true;
          return { status: 200, body: reservation({ status: 'cancelled', cancellation_reason: 'Floor repairs' }) };
        },
      }),
    });
    const [past, upcoming] = await screen.findAllByTestId('court-availability');
    // Court time that has started can no longer be cancelled.
    expect(within(past).queryByRole('button', { name: /Cancel reservation/ })).not.toBeInTheDocument();
    await user.click(
      within(upcoming).getByRole('button', { name: 'Cancel reservation of Court A on Thu, Mar 13, 2025 09:00 – 10:00' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this reservation?' });
    await user.type(within(dialog).getByLabelText('Reason for the coach (optional)'), 'Floor repairs');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel reservation' }));
    expect(await screen.findByText('Reservation cancelled')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH' && c.path === '/gym/reservations/r-1/cancel')?.body).toEqual({
      reason: 'Floor repairs',
    });
    await waitFor(() =>
      expect(within(screen.getAllByTestId('court-availability')[1]).getByText('Available')).toBeInTheDocument(),
    );
  });

  it("shows the server's refusal of a cancel", async () => {
    const { user } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/court-availability': [availability({ is_reserved: true, reservation_id: 'r-1' })],
        'PATCH /gym/reservations/r-1/cancel': { status: 409, body: { detail: 'This court time has already started' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: /^Cancel reservation of Court A/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this reservation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel reservation' }));
    expect(await screen.findByText('This court time has already started')).toBeInTheDocument();
  });
});
