import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { attempt, delivery, developersApi, webhook } from '@/testing/developers-fixtures';
import type { RecordedCall } from '@/testing/mock-api';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Webhook, WebhookDelivery } from '../api/types';

const gym = makeUser({ user_id: 'gym-1', role: 'gym', full_name: 'Hoops Downtown' });
const WHSEC = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';
const LOADED = { timeout: 30_000 };

const openDevelopers = (api: Record<string, unknown>) => renderApp('/developers', { user: gym, api: developersApi(api) });

const calledWith = (calls: RecordedCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path);

/** The row of the webhook at `url`. */
const rowOf = async (url: string) => screen.findByRole('listitem', { name: url }, LOADED);

describe('webhooks', { timeout: 90_000 }, () => {
  it('lists each webhook with its address, kinds and whether it is on, and why not', async () => {
    openDevelopers({
      'GET /webhooks': [
        webhook(),
        webhook({
          webhook_id: 'hook-2',
          url: 'https://old.example.com/hook',
          enabled: false,
          disabled_reason: 'failing for 24 hours (last: HTTP 500)',
          description: '',
        }),
      ],
    });

    const first = await rowOf('https://crm.example.com/courtside');
    expect(within(first).getByText('Enabled')).toBeInTheDocument();
    expect(within(first).getByRole('list', { name: 'Events' })).toHaveTextContent('booking.createdbooking.cancelled');
    expect(first).toHaveTextContent('Front desk CRM');
    const second = await rowOf('https://old.example.com/hook');
    expect(within(second).getByText('Disabled')).toBeInTheDocument();
    expect(second).toHaveTextContent('Turned off: failing for 24 hours (last: HTTP 500)');
  });

  it('creates a webhook for the chosen kinds, checks the address first, and shows the secret once', async () => {
    let hooks: Webhook[] = [];
    const { user, calls } = openDevelopers({
      'GET /webhooks': () => hooks,
      'POST /webhooks': ({ body }: RecordedCall) => {
        const made = webhook({ ...(body as Partial<Webhook>), webhook_id: 'hook-9' });
        hooks = [made];
        return { status: 201, body: { ...made, secret: WHSEC } };
      },
    });

    await user.click(await screen.findByRole('button', { name: 'New Webhook' }, LOADED));
    const dialog = await screen.findByRole('dialog', { name: 'New Webhook' });
    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'http://desk.example.com/events');
    await user.click(within(dialog).getByLabelText('Every court requests event'));
    const bookings = within(dialog).getByRole('group', { name: 'Bookings' });
    await user.click(within(bookings).getByLabelText('No-show'));
    await user.type(within(dialog).getByLabelText('Description (optional)'), 'Front desk');
    await user.click(within(dialog).getByRole('button', { name: 'Create Webhook' }));
    expect(await screen.findByText('The address must start with https://')).toBeInTheDocument();
    expect(calledWith(calls, 'POST', '/webhooks')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Endpoint URL'));
    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://desk.example.com/events');
    await user.click(within(dialog).getByRole('button', { name: 'Create Webhook' }));

    expect(await within(dialog).findByRole('textbox', { name: 'Signing secret' })).toHaveValue(WHSEC);
    expect(dialog).toHaveTextContent('Copy it now: you will not see it again.');
    expect(calledWith(calls, 'POST', '/webhooks')[0].body).toEqual({
      url: 'https://desk.example.com/events',
      event_types: [
        'booking.no_show',
        'court_request.created',
        'court_request.approved',
        'court_request.denied',
        'court_request.cancelled',
        'court_request.expired',
      ],
      description: 'Front desk',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await rowOf('https://desk.example.com/events')).toBeInTheDocument();
  });

  it('turns a group’s box half on when some of its kinds are chosen', async () => {
    const { user } = openDevelopers({});
    await user.click(await screen.findByRole('button', { name: 'New Webhook' }, LOADED));
    const dialog = await screen.findByRole('dialog', { name: 'New Webhook' });
    const payments = within(dialog).getByRole('group', { name: 'Payments' });

    await user.click(within(payments).getByLabelText('Refunded'));
    expect(within(payments).getByLabelText('Every payments event')).toBePartiallyChecked();
    await user.click(within(payments).getByLabelText('Every payments event'));
    expect(within(payments).getByLabelText('Every payments event')).toBeChecked();
    expect(within(payments).getByLabelText('Captured')).toBeChecked();
    await user.click(within(payments).getByLabelText('Every payments event'));
    expect(within(payments).getByLabelText('Refunded')).not.toBeChecked();
  });

  it('edits a webhook and turns a disabled one back on', async () => {
    const disabled = webhook({ enabled: false, disabled_reason: 'failing for 24 hours' });
    let hooks = [disabled];
    const { user, calls } = openDevelopers({
      'GET /webhooks': () => hooks,
      'PUT /webhooks/hook-1': ({ body }: RecordedCall) => {
        hooks = [{ ...disabled, ...(body as Partial<Webhook>), disabled_reason: null }];
        return hooks[0];
      },
    });

    await user.click(within(await rowOf(disabled.url)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Webhook' });
    expect(dialog).toHaveTextContent('Turned off because: failing for 24 hours. Turning it on again clears that failure.');
    expect(within(dialog).getByLabelText('Endpoint URL')).toHaveValue(disabled.url);
    expect(within(within(dialog).getByRole('group', { name: 'Bookings' })).getByLabelText('Created')).toBeChecked();
    await user.click(within(within(dialog).getByRole('group', { name: 'Reviews' })).getByLabelText('Posted'));
    await user.click(within(dialog).getByLabelText('Enabled'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Webhook saved')).toBeInTheDocument();
    expect(calledWith(calls, 'PUT', '/webhooks/hook-1')[0].body).toEqual({
      url: disabled.url,
      event_types: ['booking.created', 'booking.cancelled', 'review.posted'],
      description: 'Front desk CRM',
      enabled: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(await rowOf(disabled.url)).getByText('Enabled')).toBeInTheDocument();
  });

  it('deletes a webhook only once confirmed', async () => {
    let hooks = [webhook()];
    const { user, calls } = openDevelopers({
      'GET /webhooks': () => hooks,
      'DELETE /webhooks/hook-1': () => {
        hooks = [];
        return { status: 204 };
      },
    });

    await user.click(within(await rowOf(webhook().url)).getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Webhook' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calledWith(calls, 'DELETE', '/webhooks/hook-1')).toHaveLength(0);

    await user.click(within(await rowOf(webhook().url)).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Webhook' }));

    expect(await screen.findByText('No webhooks yet')).toBeInTheDocument();
    expect(calledWith(calls, 'DELETE', '/webhooks/hook-1')).toHaveLength(1);
  });

  it('rotates the secret once confirmed and shows the new one with the old one’s overlap', async () => {
    const { user, calls } = openDevelopers({
      'GET /webhooks': [webhook()],
      'POST /webhooks/hook-1/rotate-secret': { secret: WHSEC, previous_valid_until: '2026-11-29T20:31:00Z' },
    });

    await user.click(within(await rowOf(webhook().url)).getByRole('button', { name: 'Rotate secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(calledWith(calls, 'POST', '/webhooks/hook-1/rotate-secret')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate Secret' }));

    expect(await within(dialog).findByRole('textbox', { name: 'Signing secret' })).toHaveValue(WHSEC);
    expect(dialog).toHaveAccessibleName('New signing secret');
    expect(dialog).toHaveTextContent(/The previous secret also signs deliveries until Nov 29, 2026/);
  });

  it('sends a test event and shows the delivery log: each attempt’s code, latency and error, and Replay', async () => {
    const failed = delivery({
      delivery_id: 'd-1',
      event_id: 'evt_0001',
      event_type: 'booking.created',
      status: 'failed',
      attempts: [
        attempt({ status_code: 500, latency_ms: 87, error: 'HTTP 500 from the receiver' }),
        attempt({ attempted_at: '2026-11-28T20:31:05Z', status_code: null, latency_ms: 5000, error: 'timed out after 5 s' }),
      ],
    });
    let log: WebhookDelivery[] = [failed];
    const { user, calls } = openDevelopers({
      'GET /webhooks': [webhook()],
      'POST /webhooks/hook-1/test': () => {
        const test = delivery({ delivery_id: 'd-2', event_id: 'evt_test', event_type: 'webhook.test' });
        log = [test, ...log];
        return { status: 202, body: test };
      },
      'GET /webhooks/hook-1/deliveries': () => log,
      'POST /webhooks/hook-1/deliveries/d-1/replay': () => {
        const again = delivery({ delivery_id: 'd-3', event_id: 'evt_0001', attempts: [attempt({ latency_ms: 12 })] });
        log = [again, ...log];
        return { status: 202, body: again };
      },
    });

    const row = await rowOf(webhook().url);
    await user.click(within(row).getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText('Test event sent')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Delivery log' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delivery log' });
    const deliveries = await within(dialog).findByRole('list', { name: 'Deliveries' });
    const [test, old] = within(deliveries).getAllByTestId('delivery');
    expect(test).toHaveTextContent('webhook.test');
    expect(within(test).getByTestId('delivery-status')).toHaveTextContent('Delivered');
    expect(within(test).getByRole('list', { name: 'Attempts' })).toHaveTextContent('HTTP 200');
    expect(within(old).getByTestId('delivery-status')).toHaveTextContent('Failed');
    const attempts = within(within(old).getByRole('list', { name: 'Attempts' })).getAllByRole('listitem');
    expect(attempts[0]).toHaveTextContent(/HTTP 500\s*87 ms\s*HTTP 500 from the receiver/);
    expect(attempts[1]).toHaveTextContent(/No answer\s*5000 ms\s*timed out after 5 s/);
    expect(calledWith(calls, 'GET', '/webhooks/hook-1/deliveries')[0].query.get('limit')).toBe('20');

    await user.click(within(old).getByRole('button', { name: 'Replay booking.created evt_0001' }));

    expect(await screen.findByText('Event sent again')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getAllByTestId('delivery')).toHaveLength(3));
    expect(within(dialog).getAllByTestId('delivery')[0]).toHaveTextContent('evt_0001');
  });

  it('reads the log again while a delivery is pending, until it is delivered', async () => {
    let reads = 0;
    const { user } = openDevelopers({
      'GET /webhooks': [webhook()],
      'GET /webhooks/hook-1/deliveries': () => {
        reads += 1;
        return reads === 1
          ? [delivery({ status: 'pending', attempts: [], next_attempt_at: '2026-11-28T20:31:05Z' })]
          : [delivery()];
      },
    });
    await user.click(within(await rowOf(webhook().url)).getByRole('button', { name: 'Delivery log' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delivery log' });
    expect(await within(dialog).findByTestId('delivery-status')).toHaveTextContent('Pending');
    expect(within(dialog).getByText('Not tried yet.')).toBeInTheDocument();

    await waitFor(() => expect(within(dialog).getByTestId('delivery-status')).toHaveTextContent('Delivered'), {
      timeout: 10_000,
    });
  });

  it('pages through a long log', async () => {
    const all = Array.from({ length: 25 }, (_, i) =>
      delivery({ delivery_id: `d-${i}`, event_id: `evt_${String(i).padStart(4, '0')}` }),
    );
    const { user } = openDevelopers({
      'GET /webhooks': [webhook()],
      'GET /webhooks/hook-1/deliveries': ({ query }: RecordedCall) => {
        const start = Number(query.get('cursor') ?? 0);
        const limit = Number(query.get('limit'));
        const headers: Record<string, string> =
          start + limit < all.length
            ? { Link: `</api/webhooks/hook-1/deliveries?limit=${limit}&cursor=${start + limit}>; rel="next"` }
            : {};
        return { status: 200, body: all.slice(start, start + limit), headers };
      },
    });
    await user.click(within(await rowOf(webhook().url)).getByRole('button', { name: 'Delivery log' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delivery log' });
    await waitFor(() => expect(within(dialog).getAllByTestId('delivery')).toHaveLength(20));

    await user.click(within(dialog).getByRole('button', { name: 'Load more' }));

    await waitFor(() => expect(within(dialog).getAllByTestId('delivery')).toHaveLength(25));
    expect(within(dialog).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
