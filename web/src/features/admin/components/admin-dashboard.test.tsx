import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { AdminStats, User, UserDetail } from '../api/types';

const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin', email: 'ada@courtside.test' });

const users: User[] = [
  admin,
  makeUser({ user_id: 'c0ffee00-0000-4000-8000-000000000001', full_name: 'Maya Thompson', email: 'maya@coach.test', role: 'coach', phone: '555-0101' }),
  makeUser({ user_id: 'client-1', full_name: 'Casey Jordan', email: 'casey@client.test', role: 'client' }),
  makeUser({ user_id: 'client-2', full_name: 'Dana Lee', email: 'dana@client.test', role: 'client' }),
  makeUser({ user_id: 'gym-1', full_name: 'Downtown Athletic', email: 'front@gym.test', role: 'gym' }),
];

const stats: AdminStats = {
  total_users: 5,
  total_coaches: 1,
  total_gyms: 1,
  total_bookings: 7,
  gross_cents: 0,
  fees_cents: 0,
  refunds_cents: 0,
  activity: [
    { week_start: '2025-02-24', signups: 2, bookings: 1 },
    { week_start: '2025-03-03', signups: 3, bookings: 6 },
  ],
};

function detail(user: User, extra: Partial<UserDetail> = {}): UserDetail {
  return { ...user, total_bookings: 0, total_locations: 0, profile: null, ...extra };
}

const adminApi = (extra: Record<string, unknown> = {}) =>
  adminDashboardApi({ 'GET /admin/stats': stats, 'GET /admin/users': users, ...extra });

const rows = () => within(screen.getByRole('table', { name: 'Users' })).getAllByRole('row').slice(1);

describe('the admin dashboard', () => {
  it('shows the header, the four statistics and the weekly activity', async () => {
    renderApp('/admin/dashboard', { user: admin, api: adminApi() });
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByTestId('current-user-name')).toHaveTextContent('Ada Admin');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    const totals = within(screen.getByRole('region', { name: 'Statistics' }));
    expect(await totals.findByText('7')).toBeInTheDocument();
    expect(within(totals.getByRole('group', { name: 'Total Users' })).getByText('5')).toBeInTheDocument();
    expect(within(totals.getByRole('group', { name: 'Coaches' })).getByText('1')).toBeInTheDocument();
    expect(within(totals.getByRole('group', { name: 'Gyms' })).getByText('1')).toBeInTheDocument();
    expect(within(totals.getByRole('group', { name: 'Bookings' })).getByText('7')).toBeInTheDocument();
    const activity = await screen.findByRole('table', { name: 'Sign-ups and bookings per week' });
    expect(within(activity).getByRole('row', { name: 'Mar 3 3 6' })).toBeInTheDocument();
  });

  it('lists users with a dash for no phone, coloured roles and delete only for non-admins', async () => {
    renderApp('/admin/dashboard', { user: admin, api: adminApi() });
    await screen.findByText('Maya Thompson');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['Name', 'Email', 'Phone', 'Role', 'Created', 'Actions']),
    );
    const [adminRow, coachRow, clientRow, , gymRow] = rows();
    expect(coachRow).toHaveTextContent('555-0101');
    expect(within(clientRow).getAllByRole('cell')[2]).toHaveTextContent(/^-$/);
    expect(within(adminRow).getByTestId('role-badge').className).toMatch(/red/);
    expect(within(coachRow).getByTestId('role-badge').className).toMatch(/blue/);
    expect(within(clientRow).getByTestId('role-badge').className).toMatch(/green/);
    expect(within(gymRow).getByTestId('role-badge').className).toMatch(/purple/);
    expect(clientRow).toHaveTextContent('Jan 1, 2025');
    expect(within(adminRow).getByRole('button', { name: 'Edit Ada Admin' })).toBeInTheDocument();
    expect(within(adminRow).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(coachRow).getByRole('button', { name: 'Delete Maya Thompson' })).toBeInTheDocument();
    expect(screen.getByText('Showing 5 of 5 users')).toBeInTheDocument();
  });

  it('searches name, email and id case-insensitively, and filters by role', async () => {
    const { user } = renderApp('/admin/dashboard', { user: admin, api: adminApi() });
    await screen.findByText('Maya Thompson');
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    const search = screen.getByPlaceholderText('Search by name, email, or ID...');

    await user.type(search, 'CLIENT.TEST');
    expect(screen.getByText('Showing 2 of 5 users')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'c0ffee00');
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toHaveTextContent('Maya Thompson');
    await user.clear(search);
    await user.type(search, 'dana');
    expect(screen.getByText('Showing 1 of 5 users')).toBeInTheDocument();

    await user.clear(search);
    await user.click(screen.getByRole('button', { name: 'Client' }));
    expect(screen.getByRole('button', { name: 'Client' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Showing 2 of 5 users')).toBeInTheDocument();
    await user.type(search, 'maya');
    expect(screen.getByText('No users found')).toBeInTheDocument();
    expect(screen.getByText('Showing 0 of 5 users')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Coach' }));
    expect(screen.getByText('Showing 1 of 5 users')).toBeInTheDocument();
  });

  it('says when the statistics or the users cannot be loaded', async () => {
    renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({
        'GET /admin/stats': { status: 403, body: {} },
        'GET /admin/users': { status: 403, body: {} },
      }),
    });
    expect((await screen.findAllByText('Failed to load statistics')).length).toBeGreaterThan(0);
    expect((await screen.findAllByText('Failed to load users')).length).toBeGreaterThan(0);
  });

  it("shows a client's details with their profile, and says when nothing changed", async () => {
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({
        'GET /admin/users/client-1': detail(users[2], {
          total_bookings: 4,
          profile: { user_id: 'client-1', age: 15, grade: null, sport: 'Basketball', skill_level: 'beginner', profile_picture_url: null },
        }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Casey Jordan' }));
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    expect(dialog).toHaveTextContent('client-1');
    expect(await within(dialog).findByText('4')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Total Locations0');
    expect(dialog).toHaveTextContent('Age15');
    expect(dialog).toHaveTextContent('GradeNot set');
    expect(dialog).toHaveTextContent('SportBasketball');
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Casey Jordan');

    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    expect(await screen.findByText('No changes to save')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('sends only the changed fields, an emptied phone as null, and a password of 6 or more', async () => {
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({
        'GET /admin/users/c0ffee00-0000-4000-8000-000000000001': detail(users[1], { total_locations: 2 }),
        'PUT /admin/users/c0ffee00-0000-4000-8000-000000000001': users[1],
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Maya Thompson' }));
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    await user.clear(within(dialog).getByLabelText('Phone (optional)'));
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Gym' }));
    const password = within(dialog).getByLabelText('New Password (optional)');
    await user.type(password, 'Courtside');
    expect(within(dialog).getByText('Password must be at least 10 characters.')).toBeInTheDocument();
    await user.type(password, '-renewed-2026');
    expect(within(dialog).queryByText('Password must be at least 10 characters.')).not.toBeInTheDocument();
    const before = calls.filter((c) => c.path === '/admin/stats').length;
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));

    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ phone: null, role: 'gym', password: 'Courtside-renewed-2026' });
    await waitFor(() => expect(calls.filter((c) => c.path === '/admin/stats').length).toBeGreaterThan(before));
  });

  it('leaves a short password out of the update', async () => {
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({
        'GET /admin/users/client-2': detail(users[3]),
        'PUT /admin/users/client-2': { status: 409, body: { detail: 'That email is already taken' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Dana Lee' }));
    const dialog = await screen.findByRole('dialog', { name: 'User Details' });
    const email = within(dialog).getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'maya@coach.test');
    await user.type(within(dialog).getByLabelText('New Password (optional)'), 'Courtside');
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    expect(await screen.findByText('That email is already taken')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ email: 'maya@coach.test' });
  });

  it('says when user details cannot be loaded', async () => {
    const { user } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({ 'GET /admin/users/client-2': { status: 404, body: {} } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Dana Lee' }));
    expect(await screen.findByText('Failed to load user details')).toBeInTheDocument();
  });

  it('creates a user as a client by default, checking the required fields first', async () => {
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({ 'POST /admin/users': { status: 201, body: users[3] } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveTextContent('Client');
    const submit = within(dialog).getByRole('button', { name: 'Create User' });

    await user.type(within(dialog).getByLabelText('Email'), 'new@user.test');
    await user.click(submit);
    expect(await screen.findByText('Email, password, and full name are required')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Full Name'), 'New Person');
    await user.type(within(dialog).getByLabelText('Password'), 'Courtside');
    await user.click(submit);
    expect(await screen.findByText('Password must be at least 10 characters.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText('Password'), '-fixture-2026');
    await user.click(submit);
    expect(await screen.findByText('User created successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      email: 'new@user.test',
      password: 'Courtside-fixture-2026',
      full_name: 'New Person',
      phone: null,
      role: 'client',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's reason, else a fallback, when creating fails", async () => {
    const { user } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({ 'POST /admin/users': { status: 500, body: {} } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });
    await user.type(within(dialog).getByLabelText('Email'), 'x@y.test');
    await user.type(within(dialog).getByLabelText('Password'), 'Courtside-fixture-2026');
    await user.type(within(dialog).getByLabelText('Full Name'), 'X Y');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Failed to create user')).toBeInTheDocument();
  });

  it('confirms and deletes a user, then refreshes the list and the counts', async () => {
    let gone = false;
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({
        'GET /admin/users': () => (gone ? users.filter((u) => u.user_id !== 'gym-1') : users),
        'GET /admin/stats': () => ({ ...stats, total_users: gone ? 4 : 5, total_gyms: gone ? 0 : 1 }),
        'DELETE /admin/users/gym-1': () => {
          gone = true;
          return { status: 204 };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Downtown Athletic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(dialog).toHaveTextContent('Downtown Athletic');
    expect(dialog).toHaveTextContent('front@gym.test');
    expect(dialog).toHaveTextContent('gym');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Downtown Athletic' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm Deletion' })).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    expect(await screen.findByText('Showing 4 of 4 users')).toBeInTheDocument();
    const gyms = within(screen.getByRole('group', { name: 'Gyms' }));
    expect(await gyms.findByText('0')).toBeInTheDocument();
  });

  it("shows the server's reason when a delete is refused", async () => {
    const { user } = renderApp('/admin/dashboard', {
      user: admin,
      api: adminApi({ 'DELETE /admin/users/client-1': { status: 403, body: { detail: 'An admin cannot be deleted' } } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Casey Jordan' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm Deletion' })).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('An admin cannot be deleted')).toBeInTheDocument();
  });
});
