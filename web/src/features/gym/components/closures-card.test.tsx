import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { gymDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';

const gym = makeUser({ user_id: 'gym-1', role: 'gym', full_name: 'Hoops Arena' });

const location = {
  location_id: 'loc-1',
  gym_id: 'gym-1',
  gym_name: 'Hoops Arena',
  name: 'Main Hall',
  address: '1 Main St',
  city: 'Austin',
  state: 'TX',
  latitude: null,
  longitude: null,
  time_zone: 'America/Chicago',
};

const gymApi = (extra: Record<string, unknown> = {}) =>
  gymDashboardApi({
    'GET /gym/locations': [location],
    'GET /gym/locations/loc-1/courts': [],
    'GET /gym/locations/loc-1/closures': [],
    ...extra,
  });

describe("the gym's Closures card", () => {
  it('closes a location for some dates, says how many requests it declined, and reopens it', async () => {
    let saved: unknown[] = [];
    const { user, calls } = renderApp('/gym/dashboard', {
      user: gym,
      api: gymApi({
        'GET /gym/locations/loc-1/closures': () => saved,
        'POST /gym/locations/loc-1/closures': ({ body }: { body: Record<string, string> }) => {
          const made = { closure_id: 'c-1', location_id: 'loc-1', ...body };
          saved = [made];
          return { status: 201, body: { ...made, denied_reservations: ['r-1'] } };
        },
        'DELETE /gym/closures/c-1': () => {
          saved = [];
          return { status: 204 };
        },
      }),
    });
    const section = await screen.findByRole('region', { name: 'Main Hall closures' });
    expect(within(section).getByText('Open on every date.')).toBeInTheDocument();
    await user.type(within(section).getByLabelText('First closed day'), '2099-07-01');
    await user.type(within(section).getByLabelText('Last closed day'), '2099-07-02');
    await user.type(within(section).getByLabelText('Reason (optional)'), 'Tournament');
    await user.click(within(section).getByRole('button', { name: 'Close Location' }));

    expect(await screen.findByText('Main Hall closed. 1 pending request declined.')).toBeInTheDocument();
    const posted = calls.find((c) => c.method === 'POST' && c.path === '/gym/locations/loc-1/closures')!;
    expect(posted.body).toEqual({ start_date: '2099-07-01', end_date: '2099-07-02', reason: 'Tournament' });
    const list = await within(section).findByRole('list', { name: 'Closed dates of Main Hall' });
    expect(list).toHaveTextContent('Wed, Jul 1, 2099 – Thu, Jul 2, 2099 · Tournament');

    await user.click(within(list).getByRole('button', { name: 'Reopen Main Hall Wed, Jul 1, 2099 – Thu, Jul 2, 2099' }));
    expect(await within(section).findByText('Open on every date.')).toBeInTheDocument();
  });
});
