import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '@/testing/mock-api';
import { adminDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';
import { COACH_CHOICES } from '../api/get-users';
import type { AdminStats, User } from '../api/types';

const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin', email: 'ada@courtside.test' });

/** 120 users, newest first: every tenth a coach named Smith, the rest clients. */
const many: User[] = Array.from({ length: 120 }, (_, i) => {
  const n = 120 - i;
  return makeUser({
    user_id: `user-${n}`,
    full_name: n % 10 === 0 ? `Sam Smith ${n}` : `Member ${n}`,
    email: `member${n}@courtside.test`,
    role: n % 10 === 0 ? 'coach' : 'client',
  });
});

const stats: AdminStats = {
  total_users: 120,
  total_coaches: 12,
  total_gyms: 0,
  total_bookings: 0,
  gross_cents: 0,
  fees_cents: 0,
  refunds_cents: 0,
  activity: [],
};

/** GET /admin/users as the server answers it: `q` and `role` filter, `limit` pages (the cursor
 * here is the index to start at), Link and X-Total-Count headers. */
function usersServer(call: RecordedCall) {
  const q = (call.query.get('q') ?? '').toLowerCase();
  const role = call.query.get('role');
  const matching = many.filter(
    (u) =>
      (!role || u.role === role) &&
      (!q || [u.full_name, u.email, u.user_id].some((field) => field.toLowerCase().includes(q))),
  );
  const limit = Number(call.query.get('limit') ?? matching.length);
  const start = Number(call.query.get('cursor') ?? 0);
  const page = matching.slice(start, start + limit);
  const headers: Record<string, string> = {};
  if (start + limit < matching.length) {
    const next = new URLSearchParams(call.query);
    next.set('cursor', String(start + limit));
    headers.Link = `</api/admin/users?${next.toString()}>; rel="next"`;
  }
  if (!q) headers['X-Total-Count'] = String(matching.length);
  return { status: 200, body: page, headers };
}

const rows = () => within(screen.getByRole('table', { name: 'Users' })).getAllByRole('row').slice(1);

describe('the admin table once the platform has more users than a page', { timeout: 90_000 }, () => {
  it('shows the first page, loads more on request and searches and filters on the server', async () => {
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminDashboardApi({ 'GET /admin/stats': stats, 'GET /admin/users': usersServer }),
    });
    // The first render loads the dashboard's lazy chunk: on a busy machine, seconds.
    expect(await screen.findByText('Showing 50 of 120 users', undefined, { timeout: 30_000 })).toBeInTheDocument();
    expect(rows()).toHaveLength(50);
    expect(rows()[0]).toHaveTextContent('Sam Smith 120');
    // The table's reads (the Payments card reads the coaches for its filter apart: limit 100).
    const listCalls = () =>
      calls.filter((c) => c.path === '/admin/users' && c.query.get('limit') !== String(COACH_CHOICES));
    expect(listCalls().every((c) => c.query.get('limit') === '50')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Load more users' }));
    expect(await screen.findByText('Showing 100 of 120 users')).toBeInTheDocument();
    expect(rows()[99]).toHaveTextContent('Member 21');
    await user.click(screen.getByRole('button', { name: 'Load more users' }));
    expect(await screen.findByText('Showing 120 of 120 users')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more users' })).not.toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'SMITH');
    expect(await screen.findByText('Showing 12 of 12 users')).toBeInTheDocument();
    expect(rows().every((row) => row.textContent?.includes('Sam Smith'))).toBe(true);
    expect(listCalls().at(-1)?.query.get('q')).toBe('SMITH');

    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await user.click(screen.getByRole('button', { name: 'Coach' }));
    expect(await screen.findByText('Showing 12 of 12 users')).toBeInTheDocument();
    await waitFor(() => expect(listCalls().at(-1)?.query.get('role')).toBe('coach'));
  });
});
