import { expect, test } from '@playwright/test';
import { apiPost, FIXTURE_PASSWORD, registerViaApi, uniqueEmail, type User } from './support/api';
import { DASHBOARD_OF, signIn, signInAsAdmin } from './support/session';

/**
 * Issue 21 in the browser: a person sees where they are signed in and signs every other device out
 * (its token stops working at once); an admin's action shows in the dashboard's Activity log.
 */
test.describe('signed-in devices and the activity log', () => {
  test('a client signs every other device out from the account menu', async ({ page, request }) => {
    const client = await registerViaApi(request, 'client');
    // A second device: the same person signs in elsewhere.
    const other = await request.post('/api/auth/login', {
      data: { email: client.user.email, password: client.password },
      headers: { 'User-Agent': 'Other Device/1.0' },
    });
    expect(other.status()).toBe(200);
    const otherToken = ((await other.json()) as { token: string }).token;

    await signIn(page, client);
    await page.goto(DASHBOARD_OF.client);
    await page.getByRole('button', { name: 'Signed-in devices' }).click();
    const panel = page.getByRole('dialog', { name: 'Signed-in devices' });
    await expect(panel.getByText('Other Device/1.0')).toBeVisible();
    await panel.getByRole('button', { name: 'Sign out all other devices' }).click();
    await expect(page.getByText('Signed out of every other device')).toBeVisible();
    await expect(panel.getByText('Other Device/1.0')).toBeHidden();

    const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${otherToken}` } });
    expect(me.status()).toBe(401);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Signed-in devices' })).toBeVisible();
  });

  test("an admin's new user shows in the Activity log", async ({ page, request, baseURL }) => {
    const admin = await signInAsAdmin(page, request, baseURL);
    const email = uniqueEmail('audited');
    await apiPost<User>(request, admin.token, '/admin/users', {
      email,
      password: FIXTURE_PASSWORD,
      full_name: 'Audited Person',
      role: 'client',
    });

    await page.goto(DASHBOARD_OF.admin);
    const log = page.getByRole('list', { name: 'Admin actions' });
    await expect(log.getByText(`${admin.user.full_name} created ${email}`)).toBeVisible();
  });
});
