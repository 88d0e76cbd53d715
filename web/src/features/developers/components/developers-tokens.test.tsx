import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { coachDashboardApi, clientDashboardApi } from '@/testing/dashboards';
import { apiToken, developersApi } from '@/testing/developers-fixtures';
import type { RecordedCall } from '@/testing/mock-api';
import { currentPath, makeUser, renderApp } from '@/testing/test-utils';
import type { ApiToken } from '../api/types';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });
const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin' });
const SECRET = 'cst_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

/** The page's first render loads its lazy chunk: on a busy machine, seconds. */
const LOADED = { timeout: 30_000 };

const openDevelopers = (api: Record<string, unknown>, user = coach) =>
  renderApp('/developers', { user, api: developersApi(api) });

const writes = (calls: RecordedCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path);

describe('the Developers page in the navigation', { timeout: 90_000 }, () => {
  it('is linked from a coach’s header and opens at /developers', async () => {
    const { user, router } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi(developersApi()),
    });
    const nav = await screen.findByRole('navigation', { name: 'Account' }, LOADED);

    await user.click(within(nav).getByRole('link', { name: 'Developers' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Developers' }, LOADED)).toBeInTheDocument();
    expect(currentPath(router)).toBe('/developers');
    expect(screen.getAllByRole('link', { name: 'Developers' })[0]).toHaveAttribute('aria-current', 'page');
  });

  it('is not offered to a client, and sends one who types the address to their dashboard', async () => {
    const client = makeUser({ user_id: 'client-1', role: 'client' });
    const { router } = renderApp('/developers', { user: client, api: clientDashboardApi() });

    expect(await screen.findByText('Find Coaches', undefined, LOADED)).toBeInTheDocument();
    expect(currentPath(router)).toBe('/client/dashboard');
    expect(screen.queryByRole('link', { name: 'Developers' })).not.toBeInTheDocument();
  });
});

describe('API tokens', { timeout: 90_000 }, () => {
  it('lists each token with its name, prefix, scopes, dates and last use', async () => {
    openDevelopers({
      'GET /tokens': [
        apiToken({
          token_id: 't-2',
          name: 'CRM sync',
          prefix: 'cst_Zz9y',
          scopes: ['bookings:read', 'court_requests:read'],
          expires_at: '2027-01-31T23:59:59Z',
          last_used_at: '2026-11-27T18:05:00Z',
        }),
        apiToken(),
      ],
    });

    const list = await screen.findByRole('list', { name: 'API tokens' }, LOADED);
    const [crm, sheet] = within(list).getAllByRole('listitem').filter((li) => li.parentElement === list);
    expect(crm).toHaveTextContent('CRM sync');
    expect(crm).toHaveTextContent('cst_Zz9y…');
    expect(within(crm).getByRole('list', { name: 'Scopes of CRM sync' })).toHaveTextContent(
      'bookings:readcourt_requests:read',
    );
    expect(crm).toHaveTextContent(/Expires Jan 31, 2027/);
    expect(crm).toHaveTextContent(/Last used Nov 27, 2026/);
    expect(sheet).toHaveTextContent('Created Nov 2, 2026 · Never expires · Never used');
  });

  it('says when there are none yet', async () => {
    openDevelopers({});
    expect(await screen.findByText('No API tokens yet', undefined, LOADED)).toBeInTheDocument();
  });

  it('creates a token with the chosen scopes and expiry, and shows its secret once to copy', async () => {
    let tokens: ApiToken[] = [];
    const { user, calls } = openDevelopers({
      'GET /tokens': () => tokens,
      'POST /tokens': ({ body }: RecordedCall) => {
        const made = apiToken({ ...(body as Partial<ApiToken>), token_id: 'new', prefix: 'cst_a1B2' });
        tokens = [made];
        return { status: 201, body: { ...made, token: SECRET } };
      },
    });
    // After user-event's set-up, which puts a clipboard of its own in place.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    await user.click(await screen.findByRole('button', { name: 'New Token' }, LOADED));
    const dialog = await screen.findByRole('dialog', { name: 'New API Token' });
    expect(within(dialog).queryByRole('group', { name: 'Admin' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'Club spreadsheet');
    await user.click(within(within(dialog).getByRole('group', { name: 'Court requests' })).getByLabelText('Read'));
    await user.click(within(within(dialog).getByRole('group', { name: 'Bookings' })).getByLabelText('Read'));
    await user.type(within(dialog).getByLabelText('Expires on (optional)'), '2027-01-31');
    await user.click(within(dialog).getByRole('button', { name: 'Create Token' }));

    const shown = await within(dialog).findByRole('textbox', { name: 'Your new token' });
    expect(shown).toHaveValue(SECRET);
    expect(shown).toHaveAttribute('readonly');
    expect(shown).toHaveAccessibleDescription('Copy it now: you will not see it again.');
    const [sent] = writes(calls, 'POST', '/tokens');
    expect(sent.body).toEqual({
      name: 'Club spreadsheet',
      // In the form's order, whatever order they were ticked in.
      scopes: ['bookings:read', 'court_requests:read'],
      expires_at: new Date(2027, 0, 31, 23, 59, 59).toISOString(),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(await screen.findByText('Token copied')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const list = await screen.findByRole('list', { name: 'API tokens' });
    expect(list).toHaveTextContent('Club spreadsheet');
    // The secret is nowhere on the page once the dialog is gone.
    expect(document.body).not.toHaveTextContent(SECRET);
  });

  it('offers the admin scopes to an admin', async () => {
    const { user } = openDevelopers({}, admin);
    await user.click(await screen.findByRole('button', { name: 'New Token' }, LOADED));
    const dialog = await screen.findByRole('dialog', { name: 'New API Token' });
    const group = within(dialog).getByRole('group', { name: 'Admin' });
    expect(within(group).getByLabelText('Read')).toBeInTheDocument();
    expect(within(group).getByLabelText('Write')).toBeInTheDocument();
  });

  it('asks for a scope before sending, and shows the server’s reason when it refuses', async () => {
    const { user, calls } = openDevelopers({
      'POST /tokens': { status: 409, body: { detail: 'You have 20 live tokens already: revoke one first.' } },
    });
    await user.click(await screen.findByRole('button', { name: 'New Token' }, LOADED));
    const dialog = await screen.findByRole('dialog', { name: 'New API Token' });
    await user.type(within(dialog).getByLabelText('Name'), 'One more');

    await user.click(within(dialog).getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByText('Please choose at least one scope')).toBeInTheDocument();
    expect(writes(calls, 'POST', '/tokens')).toHaveLength(0);

    await user.click(within(within(dialog).getByRole('group', { name: 'Profile' })).getByLabelText('Write'));
    await user.click(within(dialog).getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByText('You have 20 live tokens already: revoke one first.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('One more');
    expect(within(dialog).queryByRole('textbox', { name: 'Your new token' })).not.toBeInTheDocument();
  });

  it('revokes a token only once confirmed', async () => {
    let tokens = [apiToken()];
    const { user, calls } = openDevelopers({
      'GET /tokens': () => tokens,
      'DELETE /tokens/token-1': () => {
        tokens = [];
        return { status: 204 };
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Revoke Club spreadsheet' }, LOADED));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    expect(dialog).toHaveTextContent('Scripts using Club spreadsheet (cst_a1B2…) stop working at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep Token' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writes(calls, 'DELETE', '/tokens/token-1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke Club spreadsheet' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke Token' }));

    expect(await screen.findByText('Token revoked')).toBeInTheDocument();
    expect(await screen.findByText('No API tokens yet')).toBeInTheDocument();
    expect(writes(calls, 'DELETE', '/tokens/token-1')).toHaveLength(1);
  });

  it('says so when the tokens cannot be read, and tries again', async () => {
    let failing = true;
    const { user } = openDevelopers({
      'GET /tokens': () =>
        failing ? { status: 503, body: { detail: 'The identity service is unavailable right now.' } } : [apiToken()],
    });

    const alert = await screen.findByRole('alert', undefined, LOADED);
    expect(alert).toHaveTextContent('The identity service is unavailable right now.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));

    expect(await screen.findByRole('list', { name: 'API tokens' })).toHaveTextContent('Club spreadsheet');
  });
});
