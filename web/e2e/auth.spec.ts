import { expect, test } from '@playwright/test';
import { FIXTURE_PASSWORD, registerViaApi, uniqueEmail, uniqueTag, type Role } from './support/api';
import { DASHBOARD_OF, signIn } from './support/session';

const ROLE_LABEL: Record<Role, string> = { client: 'Client', coach: 'Coach', gym: 'Gym' };

test.describe('sign-up, sign-in and guards', () => {
  for (const role of ['client', 'coach', 'gym'] as const) {
    test(`registering as ${role} lands on the ${role} dashboard`, async ({ page }) => {
      const name = `Reg ${role} ${uniqueTag()}`;
      await page.goto('/login');
      await page.getByRole('tab', { name: 'Register' }).click();
      await page.getByLabel('Full Name').fill(name);
      await page.getByLabel('Email').fill(uniqueEmail(role));
      await page.getByLabel('Phone (Optional)').fill('555-0100');
      await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
      if (role !== 'client') {
        await page.getByRole('combobox', { name: 'I am a...' }).click();
        await page.getByRole('option', { name: ROLE_LABEL[role] }).click();
      }
      await page.getByRole('button', { name: 'Create Account' }).click();

      await expect(page.getByText('Account created successfully!')).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${DASHBOARD_OF[role]}$`));
      await expect(page.getByText(name)).toBeVisible();
    });
  }

  test('signing in with the form lands a client on the client dashboard', async ({ page, request }) => {
    const client = await registerViaApi(request, 'client');
    await page.goto('/login');
    await page.getByLabel('Email').fill(client.user.email);
    await page.getByLabel('Password').fill(client.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Welcome back!')).toBeVisible();
    await expect(page).toHaveURL(/\/client\/dashboard$/);
  });

  test('a wrong password shows the server reason and stays on /login', async ({ page, request }) => {
    const client = await registerViaApi(request, 'client');
    await page.goto('/login');
    await page.getByLabel('Email').fill(client.user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  for (const role of ['client', 'coach', 'gym'] as const) {
    test(`a signed-in ${role} visiting /login is redirected to their dashboard`, async ({ page, request }) => {
      const session = await registerViaApi(request, role);
      await signIn(page, session);
      await page.goto('/login');
      await expect(page).toHaveURL(new RegExp(`${DASHBOARD_OF[role]}$`));
    });
  }

  test('a signed-out visitor of a dashboard is sent to /login', async ({ page }) => {
    for (const path of Object.values(DASHBOARD_OF)) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
    await page.goto('/coaches');
    await expect(page).toHaveURL(/\/login$/);
  });

  test("another role's dashboard redirects to /login, which returns the user to their own", async ({ page, request }) => {
    const client = await registerViaApi(request, 'client');
    await signIn(page, client);
    const seen: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) seen.push(new URL(frame.url()).pathname);
    });
    await page.goto('/coach/dashboard');
    await expect(page).toHaveURL(/\/client\/dashboard$/);
    expect(seen).toContain('/login');
  });

  test('logout returns to the signed-out landing page', async ({ page, request }) => {
    const coach = await registerViaApi(request, 'coach');
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    await expect(page.getByText(coach.user.full_name)).toBeVisible();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByText('Logged out successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/coach/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });
});
