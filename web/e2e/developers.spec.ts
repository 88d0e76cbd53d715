import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, type Session } from './support/api';
import { expectAccessible } from './support/screen';
import { signIn } from './support/session';

/**
 * The Developers page (issue 37), through the browser against the real mesh: a coach makes an API
 * token that a script then uses (for exactly its scope, and no longer once revoked), and a webhook
 * whose test event reaches a receiver this spec runs on 127.0.0.1, signed as Standard Webhooks
 * says, and shows as delivered in the log. The e2e mesh allows loopback receivers
 * (WEBHOOK_ALLOW_LOOPBACK=true, a development and test setting).
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers 204 and keeps what it was sent. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/courtside-events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether one of the `webhook-signature` header's `v1,<base64>` entries is the HMAC-SHA256 of
 * `id.timestamp.body` under `secret` ("whsec_" + base64 of the key), as Standard Webhooks says. */
function signedWith(secret: string, delivery: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const id = String(delivery.headers['webhook-id']);
  const timestamp = String(delivery.headers['webhook-timestamp']);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest();
  return String(delivery.headers['webhook-signature'] ?? '')
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'))
    .some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
}

async function openDevelopers(page: Page, coach: Session) {
  await signIn(page, coach);
  await page.goto('/coach/dashboard');
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Developers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Developers' })).toBeVisible();
}

test('a coach’s API token reads their bookings, is refused elsewhere, and stops at once when revoked', async ({
  page,
  request,
}) => {
  const coach = await registerViaApi(request, 'coach');
  await openDevelopers(page, coach);
  await expect(page.getByText('No API tokens yet')).toBeVisible();
  await expectAccessible(page, '/developers with nothing yet');

  await page.getByRole('button', { name: 'New Token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API Token' });
  await dialog.getByLabel('Name').fill('Club spreadsheet');
  await dialog.getByRole('group', { name: 'Bookings' }).getByLabel('Read').check();
  await dialog.getByRole('button', { name: 'Create Token' }).click();
  // The same dialog, now named for what it shows.
  const created = page.getByRole('dialog', { name: 'Token created' });
  const shown = created.getByRole('textbox', { name: 'Your new token' });
  await expect(shown).toHaveValue(/^cst_/);
  await expect(created.getByText('Copy it now: you will not see it again.')).toBeVisible();
  await expectAccessible(page, 'a new token, shown once');
  const secret = await shown.inputValue();
  await created.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('list', { name: 'API tokens' }).getByRole('listitem').filter({ hasText: 'Club spreadsheet' });
  await expect(row.getByRole('list', { name: 'Scopes of Club spreadsheet' })).toHaveText('bookings:read');
  await expect(row).toContainText(secret.slice(0, 8));

  const asScript = { Authorization: `Bearer ${secret}` };
  const bookings = await request.get('/api/bookings', { headers: asScript });
  expect(bookings.status(), await bookings.text()).toBe(200);
  const me = await request.get('/api/auth/me', { headers: asScript });
  expect(me.status(), await me.text()).toBe(403);
  expect(((await me.json()) as { detail: string }).detail).toMatch(/API token cannot/);

  // Its last use shows once the page reads the list again.
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('Last used', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await row.getByRole('button', { name: 'Revoke Club spreadsheet' }).click();
  await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Revoke Token' }).click();
  await expect(page.getByText('Token revoked')).toBeVisible();
  await expect(page.getByText('No API tokens yet')).toBeVisible();
  const after = await request.get('/api/bookings', { headers: asScript });
  expect(after.status(), await after.text()).toBe(401);
});

test.describe('a coach’s webhook', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  test.beforeAll(async () => {
    receiver = await startReceiver();
  });

  test.afterAll(async () => {
    await receiver.close();
  });

  test('receives the signed test event, which shows as delivered in the log, and its replay with the same id', async ({
    page,
    request,
  }) => {
    const coach = await registerViaApi(request, 'coach');
    await openDevelopers(page, coach);

    await page.getByRole('button', { name: 'New Webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Webhook' });
    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByLabel('Every bookings event').check();
    await dialog.getByLabel('Description (optional)').fill('E2E receiver');
    await dialog.getByRole('button', { name: 'Create Webhook' }).click();
    const created = page.getByRole('dialog', { name: 'Webhook created' });
    const shown = created.getByRole('textbox', { name: 'Signing secret' });
    await expect(shown).toHaveValue(/^whsec_/);
    const secret = await shown.inputValue();
    await created.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('listitem', { name: receiver.url });
    await expect(row.getByText('Enabled')).toBeVisible();
    await row.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText('Test event sent')).toBeVisible();

    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const [test] = receiver.received;
    const event = JSON.parse(test.body) as { id: string; type: string; timestamp: string };
    expect(event.type).toBe('webhook.test');
    expect(test.headers['webhook-id']).toBe(event.id);
    expect(Math.abs(Number(test.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(signedWith(secret, test), `webhook-signature ${String(test.headers['webhook-signature'])}`).toBe(true);

    await row.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    const delivery = log.getByTestId('delivery').filter({ hasText: event.id });
    await expect(delivery.getByTestId('delivery-status')).toHaveText('Delivered', { timeout: 30_000 });
    await expect(delivery.getByRole('list', { name: 'Attempts' })).toContainText('HTTP 204');
    await expectAccessible(page, 'the delivery log');

    await delivery.getByRole('button', { name: `Replay webhook.test ${event.id}` }).click();
    await expect(page.getByText('Event sent again')).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThan(1);
    expect(receiver.received[1].headers['webhook-id']).toBe(event.id);
    expect(signedWith(secret, receiver.received[1])).toBe(true);
    await expect(log.getByTestId('delivery').filter({ hasText: event.id })).toHaveCount(2);
  });
});
