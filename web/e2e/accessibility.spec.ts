import { expect, test } from '@playwright/test';
import { coachWithWeeklySlot, gymWithRequestedCourtTime, registerViaApi } from './support/api';
import { localDateFromToday } from './support/coach';
import { expectAccessible } from './support/screen';
import { signIn, signInAsAdmin } from './support/session';

/**
 * Every screen, signed out and signed in as each role, with its data loaded: axe-core finds no
 * WCAG 2.1 A/AA violation (contrast, names, roles, focus). The phone projects check the same
 * screens on the phone layout (phone.spec.ts).
 */

test('the public pages have no WCAG 2.1 AA violation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, '/');

  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expectAccessible(page, '/login');
  await page.getByRole('tab', { name: 'Register' }).click();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  await expectAccessible(page, '/login, Register');

  await page.goto('/expert-coaches');
  await expect(page.getByTestId('coach-card').first().or(page.getByText('No coaches found'))).toBeVisible();
  await expectAccessible(page, '/expert-coaches');

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectAccessible(page, 'the 404 page');
});

test('a client’s screens and the booking dialog have no WCAG 2.1 AA violation', async ({ page, request }) => {
  const client = await registerViaApi(request, 'client', undefined, { card: false });
  await signIn(page, client);
  const { coach } = await coachWithWeeklySlot(request, 'Wednesday');

  await page.goto('/client/dashboard');
  await expect(page.getByText('No bookings yet')).toBeVisible();
  await expect(page.getByText('No cards yet. Add one to book paid sessions.')).toBeVisible();
  await expectAccessible(page, '/client/dashboard');
  // Stripe's card element (localstripe's mock on the test mesh) in the Add a card dialog.
  await page.getByRole('button', { name: 'Add Card' }).click();
  await expect(page.getByTestId('card-element').getByPlaceholder('number')).toBeVisible();
  await expectAccessible(page, 'the Add a card dialog');
  await page.keyboard.press('Escape');

  // A receipt that does not exist yet: its empty state.
  await page.goto('/bookings/00000000-0000-4000-8000-000000000000/receipt');
  await expect(page.getByText('No receipt yet')).toBeVisible();
  await expectAccessible(page, 'a receipt before anything was charged');

  await page.goto('/coaches');
  await expect(page.getByTestId('coach-card').first()).toBeVisible();
  await expectAccessible(page, '/coaches');

  await page.goto(`/coach/${coach.user.user_id}`);
  await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).click();
  await expect(page.getByRole('dialog', { name: 'Confirm Your Booking' })).toBeVisible();
  await expect(page.getByText('Add a card first', { exact: true })).toBeVisible();
  await expectAccessible(page, 'the booking dialog');
  // A paid slot and no card: the card form in place.
  await page.getByRole('button', { name: 'Add a card' }).click();
  await expect(page.getByTestId('card-element').getByPlaceholder('number')).toBeVisible();
  await expectAccessible(page, 'the booking dialog with the card form');
});

test('the coach dashboard has no WCAG 2.1 AA violation', async ({ page, request }) => {
  const { coach } = await coachWithWeeklySlot(request, 'Friday');
  await signIn(page, coach);
  await page.goto('/coach/dashboard');
  await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
  await expect(page.getByTestId('earnings-figures')).toBeVisible();
  await expectAccessible(page, '/coach/dashboard');
  await page.getByRole('button', { name: 'Edit Policy' }).click();
  await expect(page.getByLabel('Late cancellation fee (%)')).toBeVisible();
  await expectAccessible(page, 'the Edit Booking Policy dialog with its fees');
});

test('the gym dashboard, with a request waiting, has no WCAG 2.1 AA violation', async ({ page, request }) => {
  await page.goto('/');
  const { gym } = await gymWithRequestedCourtTime(request, await localDateFromToday(page, 2));
  await signIn(page, gym);
  await page.goto('/gym/dashboard');
  await expect(page.getByTestId('pending-reservation')).toHaveCount(1);
  await expect(page.getByRole('list', { name: /^Courts at / })).toBeVisible();
  await expectAccessible(page, '/gym/dashboard');
});

test('the admin dashboard and its user dialog have no WCAG 2.1 AA violation', async ({ page, request, baseURL }) => {
  await signInAsAdmin(page, request, baseURL);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Sign-ups and bookings per week' })).toBeAttached();
  await expect(page.getByRole('group', { name: 'Revenue', exact: true })).toBeVisible();
  await expect(page.getByTestId('admin-payment').first().or(page.getByText('No payments match these filters.'))).toBeVisible();
  await expectAccessible(page, '/admin/dashboard');
  await page.getByRole('button', { name: /^Edit / }).first().click();
  await expect(page.getByRole('dialog', { name: 'User Details' })).toBeVisible();
  await expectAccessible(page, 'the User Details dialog');
});
