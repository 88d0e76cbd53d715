import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coachLocation, coachProfile, slot } from '@/testing/fixtures';
import { coachDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });

describe('the coach dashboard', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0)); // Wednesday 12 March 2025
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('shows the header with the coach name and every empty state', async () => {
    renderApp('/coach/dashboard', { user: coach, api: coachDashboardApi() });
    expect(await screen.findByRole('heading', { name: 'Coach Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Maya Thompson')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Courtside home' })).toHaveAttribute('href', '/');
    expect(
      await screen.findByText('No profile created yet. Click "Create Profile" to get started.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('No locations added yet.')).toBeInTheDocument();
    expect(await screen.findByText('No availability set yet.')).toBeInTheDocument();
  });

  it("creates a profile with POST, parsing specialties, rate and years, in the browser's zone", async () => {
    vi.stubEnv('TZ', 'America/Denver');
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({ 'POST /coach/profile': { status: 201, body: coachProfile() } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Create Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Profile' });
    await user.type(within(dialog).getByLabelText('Bio'), 'Guard coach.');
    await user.type(within(dialog).getByLabelText('Specialties (comma-separated)'), ' Shooting ,Defense,, Footwork ');
    await user.type(within(dialog).getByLabelText('Hourly Rate ($)'), '62.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save Profile' }));

    expect(await screen.findByText('Profile created successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/coach/profile')?.body).toEqual({
      bio: 'Guard coach.',
      specialties: ['Shooting', 'Defense', 'Footwork'],
      hourly_rate: 62.5,
      years_experience: 0,
      time_zone: 'America/Denver',
    });
  });

  it('shows an existing profile and updates it with PUT', async () => {
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/profile/coach-1': coachProfile({ hourly_rate: 80, years_experience: 11 }),
        'PUT /coach/profile': coachProfile(),
      }),
    });
    expect(await screen.findByText('$80/hour')).toBeInTheDocument();
    expect(screen.getByText('11 years')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Profile' });
    expect(within(dialog).getByLabelText('Specialties (comma-separated)')).toHaveValue('Shooting, Defense');
    // The profile's own zone, not the browser's, and editable.
    expect(within(dialog).getByLabelText('Time zone')).toHaveValue('America/Chicago');
    await user.clear(within(dialog).getByLabelText('Time zone'));
    await user.type(within(dialog).getByLabelText('Time zone'), 'America/New_York');
    await user.click(within(dialog).getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/coach/profile')?.body).toMatchObject({
      time_zone: 'America/New_York',
    });
  });

  it("shows the server's reason when the profile cannot be saved", async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({ 'POST /coach/profile': { status: 400, body: { detail: 'hourly_rate must be positive' } } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Create Profile' }));
    await user.click(await screen.findByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('hourly_rate must be positive')).toBeInTheDocument();
  });

  it('adds a location, with empty coordinates sent as null', async () => {
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({ 'POST /locations': { status: 201, body: coachLocation() } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Location' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Location' });
    await user.type(within(dialog).getByLabelText('Name'), 'Eastside Rec');
    await user.type(within(dialog).getByLabelText('Address'), '12 Court St');
    await user.type(within(dialog).getByLabelText('Court Number'), '2');
    await user.type(within(dialog).getByLabelText('City'), 'Austin');
    await user.type(within(dialog).getByLabelText('State'), 'TX');
    await user.type(within(dialog).getByLabelText('Latitude (optional)'), '30.267153');
    expect(within(dialog).getByLabelText('Longitude (optional)')).toHaveAttribute('step', '0.000001');
    // A zone the browser does not know is refused before sending.
    await user.type(within(dialog).getByLabelText('Time zone (optional)'), 'Austin time');
    await user.click(within(dialog).getByRole('button', { name: 'Save Location' }));
    expect(within(dialog).getByLabelText('Time zone (optional)')).toHaveAccessibleDescription(
      'Left empty, it is found from the coordinates or the city. Choose a time zone from the list, such as America/Chicago',
    );
    expect(calls.some((c) => c.method === 'POST' && c.path === '/locations')).toBe(false);
    await user.clear(within(dialog).getByLabelText('Time zone (optional)'));
    await user.type(within(dialog).getByLabelText('Time zone (optional)'), 'America/Chicago');
    await user.click(within(dialog).getByRole('button', { name: 'Save Location' }));

    expect(await screen.findByText('Location added successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/locations')?.body).toEqual({
      name: 'Eastside Rec',
      address: '12 Court St',
      court_number: '2',
      city: 'Austin',
      state: 'TX',
      latitude: 30.267153,
      longitude: null,
      time_zone: 'America/Chicago',
    });
  });

  it('adds a recurring slot on Monday by default at a chosen location', async () => {
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({ 'GET /locations': [coachLocation()], 'POST /availability': { status: 201, body: slot() } }),
    });
    await screen.findByText('Eastside Rec');
    await user.click(screen.getByRole('button', { name: 'Add Availability' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Availability' });
    expect(within(dialog).getByRole('combobox', { name: 'Day of Week' })).toHaveTextContent('Monday');
    await user.click(within(dialog).getByRole('combobox', { name: 'Location (optional)' }));
    await user.click(await screen.findByRole('option', { name: 'Eastside Rec - 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));

    expect(await screen.findByText('Availability added successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/availability')?.body).toEqual({
      slot_type: 'recurring',
      day_of_week: 'Monday',
      specific_date: null,
      start_time: '09:00',
      end_time: '10:00',
      location_id: 'loc-1',
    });
  });

  it('adds a one-time slot on a date, without a location', async () => {
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({ 'POST /availability': { status: 400, body: {} } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Availability' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Availability' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Slot Type' }));
    await user.click(await screen.findByRole('option', { name: 'One-time' }));
    await user.type(within(dialog).getByLabelText('Date'), '2025-03-20');
    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));

    expect(await screen.findByText('Failed to add availability')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/availability')?.body).toEqual({
      slot_type: 'one-time',
      day_of_week: null,
      specific_date: '2025-03-20',
      start_time: '09:00',
      end_time: '10:00',
      location_id: null,
    });
  });

  it('lays the week out Monday to Sunday and deletes a slot', async () => {
    const slots = [
      slot({ slot_id: 'fri', day_of_week: 'Friday' }),
      slot({ slot_id: 'thisweek', slot_type: 'one-time', day_of_week: null, specific_date: '2025-03-13', start_time: '07:00', end_time: '08:00' }),
      slot({ slot_id: 'later', slot_type: 'one-time', day_of_week: null, specific_date: '2025-04-02', start_time: '12:00', end_time: '13:00' }),
    ];
    let deleted = false;
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /locations': [coachLocation()],
        'GET /availability/coach/coach-1': () => (deleted ? slots.slice(1) : slots),
        'DELETE /availability/fri': () => {
          deleted = true;
          return { status: 204 };
        },
      }),
    });
    const week = await screen.findByRole('region', { name: 'Weekly schedule' });
    expect(within(week).getAllByRole('group').map((g) => g.getAttribute('aria-label'))).toEqual([
      'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday',
    ]);
    expect(within(within(week).getByRole('group', { name: 'Friday' })).getByText('17:00 - 18:00')).toBeInTheDocument();
    expect(within(within(week).getByRole('group', { name: 'Thursday' })).getByText('07:00 - 08:00')).toBeInTheDocument();
    expect(within(week).queryByText('12:00 - 13:00')).not.toBeInTheDocument();

    const list = screen.getByRole('list', { name: 'Availability slots' });
    expect(within(list).getByText('2025-04-02')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Delete availability Every Friday 17:00 - 18:00' }));
    expect(await screen.findByText('Availability deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/availability/fri')).toBe(true);
    expect(within(list).queryByText('Every Friday')).not.toBeInTheDocument();
  });

  it('keeps the slot and says so when deleting fails', async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /availability/coach/coach-1': [slot()],
        'DELETE /availability/slot-1': { status: 500 },
      }),
    });
    const list = await screen.findByRole('list', { name: 'Availability slots' });
    await user.click(within(list).getByRole('button', { name: /Delete availability/ }));
    expect(await screen.findByText('Failed to delete availability')).toBeInTheDocument();
    // The slot vanished at once (optimistic) and is back after the failure.
    const restored = await screen.findByRole('list', { name: 'Availability slots' });
    expect(within(restored).getByText('Every Friday')).toBeInTheDocument();
  });
});
