import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  apiPost,
  coachWithWeeklySlot,
  NEW_FIXTURE_PASSWORD,
  registerViaApi,
  weekdayOf,
  type Session,
} from './support/api';
import { localDateFromToday } from './support/coach';
import { emailTo, mailUiUrlFor } from './support/mail';
import { signIn } from './support/session';

/**
 * Notifications in the browser: a booking request reaches the coach's open dashboard by itself
 * (the bell's count, a toast, Client Bookings; the notification opens the dashboard at that booking)
 * and the mail catcher, and a forgotten password is reset from the login page through the emailed
 * link.
 */

/** The client's request for the coach's weekly slot on `date`, over the API. */
async function requestBooking(
  request: APIRequestContext,
  client: Session,
  coach: Session,
  date: string,
) {
  const slots = await (await request.get(`/api/availability/coach/${coach.user.user_id}`, {
    headers: { Authorization: `Bearer ${client.token}` },
  })).json() as { slot_id: string }[];
  await apiPost(request, client.token, '/bookings', {
    coach_id: coach.user.user_id,
    slot_id: slots[0].slot_id,
    booking_date: date,
  });
}

test('a booking request reaches the coach’s open dashboard without a reload', async ({ page, request }) => {
  const date = await localDateFromToday(page, 9);
  const { coach } = await coachWithWeeklySlot(request, weekdayOf(date));
  const client = await registerViaApi(request, 'client');
  await signIn(page, coach);
  await page.goto('/coach/dashboard');
  // The welcome is the only notification so far.
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();

  await requestBooking(request, client, coach, date);

  await expect(page.getByText('New booking request')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications, 2 unread' })).toBeVisible();
  await expect(page.getByTestId('booking').filter({ hasText: client.user.full_name })).toBeVisible();

  await page.getByRole('button', { name: 'Notifications, 2 unread' }).click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await panel.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // The notification opens the dashboard at the booking it concerns.
  await panel.getByRole('button', { name: /New booking request/ }).click();
  await expect(page).toHaveURL(/\/coach\/dashboard\?booking=[0-9a-f-]{36}$/);
  const booking = page.getByTestId('booking').filter({ hasText: client.user.full_name });
  await expect(booking).toBeFocused();
  await expect(booking).toHaveAttribute('data-linked');
});

test('the login page leads to a reset link, and a bad link says so', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill('nobody@e2e.test');
  await page.getByRole('button', { name: 'Email me a reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for nobody@e2e.test');

  await page.goto(`/reset-password#token=${'A'.repeat(43)}`);
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('New password', { exact: true }).fill(NEW_FIXTURE_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toContainText('Ask for a new one');
});

test('a booking request lands in the mail catcher for the coach', async ({ page, request, baseURL }) => {
  const mailUi = mailUiUrlFor(baseURL);
  const date = await localDateFromToday(page, 10);
  const { coach } = await coachWithWeeklySlot(request, weekdayOf(date));
  const client = await registerViaApi(request, 'client');

  await requestBooking(request, client, coach, date);

  const email = await emailTo(request, mailUi, coach.user.email, 'New booking request');
  expect(email.text).toContain(`${client.user.full_name} asked to book`);
  expect(email.text).toMatch(/\/coach\/dashboard\?booking=[0-9a-f-]{36}/);
});

test('a forgotten password is reset through the emailed link, and the new one signs in', async ({ page, request, baseURL }) => {
  const mailUi = mailUiUrlFor(baseURL);
  const client = await registerViaApi(request, 'client');
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(client.user.email);
  await page.getByRole('button', { name: 'Email me a reset link' }).click();
  await expect(page.getByRole('status')).toContainText(`If an account exists for ${client.user.email}`);

  const email = await emailTo(request, mailUi, client.user.email, 'Reset your Courtside password');
  // The token rides in the fragment, which no server's log keeps.
  const link = email.text.match(/https?:\/\/\S+\/reset-password#token=[A-Za-z0-9_-]+/)?.[0];
  expect(link, email.text).toBeDefined();
  expect(email.text).not.toContain('?token=');
  // The link names PUBLIC_URL; the page opens on the mesh under test (the same one, by default).
  const { pathname, hash } = new URL(link as string);
  await page.goto(pathname + hash);
  // The page keeps the token and drops it from the address bar.
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.getByLabel('New password', { exact: true }).fill(NEW_FIXTURE_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Sign in with your new password.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(client.user.email);
  await page.getByLabel('Password').fill(NEW_FIXTURE_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Welcome back!')).toBeVisible();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  const old = await request.post('/api/auth/login', { data: { email: client.user.email, password: client.password } });
  expect(old.status()).toBe(401);
});
