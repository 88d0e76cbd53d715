import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COACH_ID, report } from '@/testing/messages-fixtures';
import { renderApp } from '@/testing/test-utils';

describe("The admin's Reports list", () => {
  it('shows each reported message among the ones around it, oldest first', async () => {
    renderApp('/admin/reports', { user: 'admin', api: { 'GET /admin/reports': [report()] } });

    const item = (await screen.findByText('Pat Morgan reported Carla Coach')).closest('li') as HTMLElement;
    expect(item).toHaveTextContent('Reason: Asked me to pay outside Courtside');
    const context = within(item).getByRole('list', { name: 'The reported message from Carla Coach in context' });
    const lines = within(context).getAllByRole('listitem');
    expect(lines.map((l) => l.textContent)).toEqual([
      expect.stringContaining('Hi Carla'),
      expect.stringContaining('Reported:'),
      expect.stringContaining('No thanks.'),
    ]);
    expect(lines[1]).toHaveTextContent('Pay me outside the app or else.');
  });

  it('suspends the sender with a reason, and shows them suspended', async () => {
    let suspended: unknown;
    let reads = 0;
    const { user } = renderApp('/admin/reports', {
      user: 'admin',
      api: {
        'GET /admin/reports': () => {
          reads += 1;
          return [report({ sender: { user_id: COACH_ID, full_name: 'Carla Coach', suspended: reads > 1 } })];
        },
        [`POST /admin/users/${COACH_ID}/suspend`]: ({ body }: { body: unknown }) => {
          suspended = body;
          return { user_id: COACH_ID, suspended_at: '2026-11-28T19:00:00Z' };
        },
        'GET /admin/audit': [],
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Suspend Carla Coach' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Carla Coach?' });
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    await user.clear(reason);
    await user.type(reason, 'Asked clients for cash');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));

    await waitFor(() => expect(suspended).toEqual({ reason: 'Asked clients for cash' }));
    expect(await screen.findByText('Suspended')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend Carla Coach' })).toBeNull();
  });

  it('says so when nothing is reported', async () => {
    renderApp('/admin/reports', { user: 'admin', api: { 'GET /admin/reports': [] } });
    expect(await screen.findByText('No reports')).toBeInTheDocument();
  });

  it('says so when the list cannot be read', async () => {
    renderApp('/admin/reports', { user: 'admin', api: { 'GET /admin/reports': { status: 500, body: {} } } });
    expect(await screen.findByText('Failed to load the reports')).toBeInTheDocument();
  });
});
