import { expect, test } from '@playwright/test';
import { registerViaApi } from './support/api';
import { signIn } from './support/session';

test.describe('landing page', () => {
  for (const name of ['Login', 'Get Started', 'Book a Session', 'Become a Coach', 'Host Your Courts', 'List Your Facility', 'Start Your Journey', 'List Your Gym']) {
    test(`"${name}" leads to /login`, async ({ page }) => {
      await page.goto('/');
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    });
  }

  test('the Expert Coaches card leads to /expert-coaches', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: /Expert Coaches/ }).click();
    await expect(page).toHaveURL(/\/expert-coaches$/);
    await expect(page.getByPlaceholder('Search by name or specialty...')).toBeVisible();
  });

  test('the other three feature cards are not links', async ({ page }) => {
    await page.goto('/');
    for (const title of ['Flexible Scheduling', 'Multiple Locations', 'Easy Payments']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
      await expect(page.getByRole('link', { name: new RegExp(title) })).toHaveCount(0);
    }
  });

  test('shows the gym pitch and the 2025 footer', async ({ page }) => {
    await page.goto('/');
    for (const point of ['Maximize Court Utilization', 'Approve Every Reservation', 'Simple Management']) {
      await expect(page.getByRole('heading', { name: point })).toBeVisible();
    }
    await expect(page.getByText(/© 2025/)).toBeVisible();
  });

  test('a signed-in coach sees Dashboard, which opens the coach dashboard', async ({ page, request }) => {
    const coach = await registerViaApi(request, 'coach');
    await signIn(page, coach);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Get Started' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/coach\/dashboard$/);
  });
});
