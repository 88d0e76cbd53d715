import { expect, test } from '@playwright/test';
import { apiPost, coachWithWeeklySlot, registerViaApi, weekdayOf } from './support/api';
import { localDateFromToday } from './support/coach';
import { signIn } from './support/session';

/**
 * Notifications in the browser: a booking request reaches the coach's open dashboard by itself
 * (the bell's count, a toast, Client Bookings), and a forgotten password starts from the login page.
 */

test('a booking request reaches the coach’s open dashboard without a reload', async ({ page, request }) => {
  const date = await localDateFromToday(page, 9);
  const { coach } = await coachWithWeeklySlot(request, weekdayOf(date));
  const client = await registerViaApi(request, 'client');
  await signIn(page, coach);
  await page.goto('/coach/dashboard');
  // The welcome is the only notification so far.
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();

  const slots = await (await request.get(`/api/availability/coach/${coach.user.user_id}`, {
    headers: { Authorization: `Bearer ${client.token}` },
  })).json() as { slot_id: string }[];
  await apiPost(request, client.token, '/bookings', {
    coach_id: coach.user.user_id,
    slot_id: slots[0].slot_id,
    booking_date: date,
  });

  await expect(page.getByText('New booking request')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications, 2 unread' })).toBeVisible();
  await expect(page.getByTestId('booking').filter({ hasText: client.user.full_name })).toBeVisible();

  await page.getByRole('button', { name: 'Notifications, 2 unread' }).click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await panel.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
});

test('the login page leads to a reset link, and a bad link says so', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill('nobody@e2e.test');
  await page.getByRole('button', { name: 'Email me a reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for nobody@e2e.test');

  await page.goto(`/reset-password?token=${'A'.repeat(43)}`);
  await page.getByLabel('New password', { exact: true }).fill('brand-new-pw');
  await page.getByLabel('Confirm new password').fill('brand-new-pw');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toContainText('Ask for a new one');
});
