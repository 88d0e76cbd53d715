import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coachDashboardApi } from '@/testing/dashboards';
import { gymFixtures } from '@/testing/gym-fixtures';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { CourtReservation } from '../api/types';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });
const { location, court, availability: open, reservation } = gymFixtures('2030-03-13');

const locations = [
  location(),
  location({ location_id: 'loc-2', gym_id: 'gym-2', gym_name: 'Bayside Sports', name: 'Pier Courts', city: 'San Diego', state: 'CA' }),
  location({ location_id: 'loc-3', gym_id: 'gym-2', gym_name: 'Bayside Sports', name: 'Uptown Annex', city: 'Dallas', state: 'TX' }),
];

describe("the coach's gym cards", () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'America/Chicago'); // the gyms' zone: times read bare
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('shows both empty states', async () => {
    renderApp('/coach/dashboard', { user: coach, api: coachDashboardApi() });
    expect(await screen.findByText('No gym locations available yet.')).toBeInTheDocument();
    expect(await screen.findByText('No court reservations yet.')).toBeInTheDocument();
  });

  it('counts locations and matches, searching gym, city, state and name case-insensitively', async () => {
    const { user } = renderApp('/coach/dashboard', { user: coach, api: coachDashboardApi({ 'GET /gym/locations': locations }) });
    const counts = await screen.findByTestId('gym-location-counts');
    expect(counts).toHaveTextContent('3 gym locations available');
    const search = screen.getByRole('textbox', { name: 'Search gym locations' });

    await user.type(search, 'tx');
    expect(counts).toHaveTextContent('3 gym locations available · 2 matching your search');
    await user.clear(search);
    await user.type(search, 'BAYSIDE');
    expect(counts).toHaveTextContent('2 matching your search');
    await user.clear(search);
    await user.type(search, 'pier');
    expect(counts).toHaveTextContent('1 matching your search');

    await user.click(screen.getByRole('button', { name: 'Search Gyms' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gym Locations' });
    expect(within(dialog).getAllByTestId('gym-location')).toHaveLength(1);
    expect(within(dialog).getByText('Pier Courts')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'View All' }));
    const all = await screen.findByRole('dialog', { name: 'Gym Locations' });
    expect(within(all).getAllByTestId('gym-location')).toHaveLength(3);
    expect(search).toHaveValue('');
  });

  it('says when nothing matches', async () => {
    const { user } = renderApp('/coach/dashboard', { user: coach, api: coachDashboardApi({ 'GET /gym/locations': locations }) });
    await user.type(await screen.findByRole('textbox', { name: 'Search gym locations' }), 'nowhere{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Gym Locations' });
    expect(within(dialog).getByText('No locations found matching your search.')).toBeInTheDocument();
  });

  it('shows a location’s details and courts, and requests open court time', async () => {
    let mine: CourtReservation[] = [];
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /gym/locations': locations,
        'GET /gym/locations/loc-1/courts': [court(), court({ court_id: 'court-2', court_name: 'Court B', court_type: 'multi-purpose' })],
        'GET /gym/locations/loc-1/availability': [open(), open({ availability_id: 'av-2', start_time: '11:00', end_time: '12:00' })],
        'GET /coach/court-reservations': () => mine,
        'POST /coach/court-reservations': () => {
          mine = [reservation()];
          return { status: 201, body: reservation() };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'View All' }));
    const browse = await screen.findByRole('dialog', { name: 'Gym Locations' });
    await user.click(within(browse).getByRole('button', { name: 'View Details of Main Hall' }));

    const detail = await screen.findByRole('dialog', { name: 'Main Hall' });
    expect(detail).toHaveTextContent('Downtown Athletic');
    expect(detail).toHaveTextContent('1 Court Way');
    expect(detail).toHaveTextContent('Austin, TX');
    const courts = await within(detail).findByRole('list', { name: 'Courts' });
    expect(courts).toHaveTextContent('Court ABasketball');
    expect(courts).toHaveTextContent('Court BMulti-purpose');
    expect(within(detail).getByText('Contact the gym to inquire about court availability and reservation.')).toBeInTheDocument();

    const slots = await within(detail).findAllByTestId('open-court-time');
    expect(slots).toHaveLength(2);
    expect(slots[0]).toHaveTextContent('09:00 – 10:00');
    await user.click(within(slots[0]).getByRole('button', { name: /^Request/ }));
    expect(await screen.findByText('Court reservation requested')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/coach/court-reservations')?.body).toEqual({
      availability_id: 'av-1',
    });
    expect(await within(slots[0]).findByText('Requested')).toBeInTheDocument();
    expect(within(slots[1]).getByRole('button', { name: /^Request/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    const list = await screen.findByRole('list', { name: 'Court reservations' });
    expect(list).toHaveTextContent('Downtown Athletic');
  });

  it("shows the server's reason when a request is refused, and a courtless location", async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /gym/locations': locations,
        'GET /gym/locations/loc-1/courts': [],
        'GET /gym/locations/loc-1/availability': [open()],
        'POST /coach/court-reservations': { status: 409, body: { detail: 'This court time is already reserved' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'View All' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Gym Locations' })).getByRole('button', { name: 'View Details of Main Hall' }));
    const detail = await screen.findByRole('dialog', { name: 'Main Hall' });
    expect(await within(detail).findByText('No courts listed yet')).toBeInTheDocument();
    await user.click(await within(detail).findByRole('button', { name: /^Request/ }));
    expect(await screen.findByText('This court time is already reserved')).toBeInTheDocument();
  });

  it('colours reservations by status and cancels a pending one', async () => {
    let cancelled = false;
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/court-reservations': () => [
          reservation({ status: cancelled ? 'cancelled' : 'pending' }),
          reservation({ reservation_id: 'r-2', status: 'approved', date: '2030-03-14' }),
          reservation({ reservation_id: 'r-3', status: 'denied', date: '2030-03-15', cancellation_reason: 'Closed: tournament' }),
          reservation({ reservation_id: 'r-4', status: 'expired', date: '2030-03-16' }),
          reservation({ reservation_id: 'r-5', status: 'cancelled', date: '2030-03-17', cancellation_reason: 'Floor repairs' }),
        ],
        'DELETE /coach/court-reservations/r-1': () => {
          cancelled = true;
          return { status: 204 };
        },
      }),
    });
    const items = await screen.findAllByTestId('court-reservation');
    const badges = items.map((item) => within(item).getByTestId('reservation-status'));
    expect(badges.map((b) => b.textContent)).toEqual(['pending', 'approved', 'denied', 'expired', 'cancelled']);
    expect(badges[0].className).toMatch(/yellow/);
    expect(badges[1].className).toMatch(/green/);
    expect(badges[2].className).toMatch(/red/);
    // Nobody answered in time: grey, not an error of anyone's.
    expect(badges[3].className).not.toMatch(/red|green|yellow/);
    expect(items[4]).toHaveTextContent('Reason: Floor repairs');
    expect(items[2]).toHaveTextContent('Reason: Closed: tournament');
    expect(items[1]).not.toHaveTextContent('Reason:');
    expect(within(items[1]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(items[2]).queryByRole('button')).not.toBeInTheDocument();
    // The gym of each request is a message away.
    expect(within(items[1]).getByRole('link', { name: 'Message Downtown Athletic' })).toHaveAttribute(
      'href',
      expect.stringContaining('gym-1'),
    );

    await user.click(within(items[0]).getByRole('button', { name: /^Cancel reservation/ }));
    expect(await screen.findByText('Reservation cancelled successfully')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/coach/court-reservations/r-1')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Cancel reservation/ })).not.toBeInTheDocument());
  });

  it("says so when cancelling fails, with the server's reason when it gives one", async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/court-reservations': [reservation()],
        'DELETE /coach/court-reservations/r-1': { status: 500, body: {} },
      }),
    });
    await user.click(await screen.findByRole('button', { name: /^Cancel reservation/ }));
    expect(await screen.findByText('Failed to cancel reservation')).toBeInTheDocument();
  });
});
