import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { AuditEntry } from '../api/get-audit';

const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin', email: 'ada@courtside.test' });

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  audit_id: 'a-1',
  at: '2026-11-20T10:00:00Z',
  admin_id: 'admin-1',
  admin_name: 'Ada Admin',
  action: 'user_updated',
  target_type: 'user',
  target_id: 'u-1',
  target_label: 'casey@client.test',
  request_id: 'req-1',
  changes: [],
  ...overrides,
});

const trail: AuditEntry[] = [
  entry({
    audit_id: 'a-3',
    action: 'user_deleted',
    target_label: 'gone@client.test',
    changes: [{ field: 'full_name', old: 'Gone Person', new: null }],
  }),
  entry({
    audit_id: 'a-2',
    changes: [
      { field: 'full_name', old: 'Casey Jordan', new: 'Casey Jordan-Lee' },
      { field: 'password', old: null, new: null },
    ],
  }),
  entry({ audit_id: 'a-1', action: 'user_created', changes: [{ field: 'role', old: null, new: 'coach' }] }),
];

const api = (extra: Record<string, unknown> = {}) =>
  adminDashboardApi({ 'GET /admin/users': [admin], 'GET /admin/audit': trail, ...extra });

describe('the activity log card', () => {
  it('lists admin actions newest first with who, what and the fields changed, never a password', async () => {
    const { calls } = renderApp('/admin/dashboard', { user: admin, api: api() });
    const log = await screen.findByRole('list', { name: 'Admin actions' });
    const items = within(log).getAllByRole('listitem').filter((item) => item.parentElement === log);
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Ada Admin deleted gone@client.test');
    expect(items[0]).toHaveTextContent('Name: Gone Person');
    expect(items[1]).toHaveTextContent('Ada Admin updated casey@client.test');
    expect(items[1]).toHaveTextContent('Name: Casey Jordan → Casey Jordan-Lee');
    expect(items[1]).toHaveTextContent('password changed');
    expect(items[2]).toHaveTextContent('Ada Admin created casey@client.test');
    expect(items[2]).toHaveTextContent('Role: coach');
    expect(items[2]).toHaveTextContent('request req-1');
    expect(calls.find((call) => call.path === '/admin/audit')?.query.get('limit')).toBe('20');
  });

  it('says when there is nothing yet, and reads the log again after an admin action', async () => {
    let reads = 0;
    const { user } = renderApp('/admin/dashboard', {
      user: admin,
      api: api({
        'GET /admin/audit': () => {
          reads += 1;
          return reads === 1 ? [] : [entry({ action: 'user_deleted', target_label: 'casey@client.test' })];
        },
        'GET /admin/users': [admin, makeUser({ user_id: 'u-1', email: 'casey@client.test', full_name: 'Casey Jordan' })],
        'DELETE /admin/users/u-1': { status: 204 },
      }),
    });
    expect(await screen.findByText('No admin actions yet.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Delete Casey Jordan' }));
    await user.click(await screen.findByRole('button', { name: 'Delete User' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Admin actions' })).toHaveTextContent('deleted casey@client.test'));
  });
});
