import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { DeviceSession } from '../api/sessions';

const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin' });

const device = (overrides: Partial<DeviceSession>): DeviceSession => ({
  session_id: 's-1',
  created_at: '2026-11-20T10:00:00Z',
  last_seen_at: '2026-11-21T08:30:00Z',
  user_agent: 'Firefox on Linux',
  current: false,
  ...overrides,
});

function dashboard(sessions: () => DeviceSession[], extra: Record<string, unknown> = {}) {
  return adminDashboardApi({
    'GET /admin/stats': { total_users: 1, total_coaches: 0, total_gyms: 0, total_bookings: 0, activity: [] },
    'GET /admin/users': [admin],
    'GET /auth/sessions': () => sessions(),
    ...extra,
  });
}

describe('the signed-in devices panel', () => {
  it('lists the devices from the account menu, the current one marked, and signs one out', async () => {
    let sessions = [
      device({ session_id: 'here', user_agent: 'Chrome on Mac', current: true }),
      device({ session_id: 'phone', user_agent: 'Safari on iPhone' }),
    ];
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: dashboard(() => sessions, {
        'DELETE /auth/sessions/phone': () => {
          sessions = sessions.filter((s) => s.session_id !== 'phone');
          return { status: 204 };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Signed-in devices' }));
    const list = await screen.findByRole('list', { name: 'Devices' });
    const [here, phone] = within(list).getAllByRole('listitem');
    expect(here).toHaveTextContent('Chrome on Mac');
    expect(within(here).getByText('This device')).toBeInTheDocument();
    expect(within(here).queryByRole('button')).toBeNull();
    await user.click(within(phone).getByRole('button', { name: 'Sign out Safari on iPhone' }));
    await waitFor(() => expect(screen.queryByText('Safari on iPhone')).toBeNull());
    expect(await screen.findByText('Device signed out')).toBeInTheDocument();
    const ended = calls.find((call) => call.method === 'DELETE');
    expect(ended?.headers['Idempotency-Key']).toBeTruthy();
  });

  it('signs every other device out at once', async () => {
    let sessions = [
      device({ session_id: 'here', current: true }),
      device({ session_id: 'a', user_agent: 'Old laptop' }),
      device({ session_id: 'b', user_agent: 'Tablet' }),
    ];
    const { user } = renderApp('/admin/dashboard', {
      user: admin,
      api: dashboard(() => sessions, {
        'POST /auth/logout-all': () => {
          sessions = sessions.filter((s) => s.current);
          return { ended: 2 };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Signed-in devices' }));
    await user.click(await screen.findByRole('button', { name: 'Sign out all other devices' }));
    expect(await screen.findByText('Signed out of every other device')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Devices' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Sign out all other devices' })).toBeNull();
  });
});
