import { expect, test, type Locator, type Page } from '@playwright/test';
import { addCardViaApi, coachWithWeeklySlot, FIXTURE_PASSWORD, gymWithRequestedCourtTime, registerViaApi, uniqueEmail, uniqueTag, weekdayOf, type Session } from './support/api';
import { localDateFromToday } from './support/coach';
import { expectGoodScreen } from './support/screen';
import { signIn, signInAsAdmin } from './support/session';

/**
 * Courtside on a phone (the phone-360 and phone-390 projects: touch, mobile): the core journeys
 * by tapping, and on every screen and open dialog on the way, no sideways panning, dialogs inside
 * the screen and no WCAG 2.1 A/AA violation.
 */

/** Opens the header's menu sheet and checks it; returns it. */
async function openMenu(page: Page, what: string) {
  await page.getByRole('button', { name: 'Menu' }).tap();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expectGoodScreen(page, `${what} with its menu open`);
  return menu;
}

async function closeDialog(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close' }).tap();
  await expect(dialog).toBeHidden();
}

/** Opens each dialog by the button of that name, checks it, and closes it again. */
async function checkDialogs(page: Page, owner: string, buttons: string[]) {
  for (const name of buttons) {
    await page.getByRole('button', { name, exact: true }).first().tap();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expectGoodScreen(page, `the ${owner}'s ${name} dialog`);
    await closeDialog(dialog);
  }
}

test.describe('the public pages on a phone', () => {
  test('the landing page, its menu, the login and register forms and the coach directory fit and read well', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectGoodScreen(page, '/');
    const menu = await openMenu(page, '/');
    await menu.getByRole('link', { name: 'Get Started' }).tap();
    await expect(page).toHaveURL(/\/login$/);

    await expect(page.getByRole('tab', { name: 'Login' })).toBeVisible();
    await expectGoodScreen(page, '/login');
    await page.getByRole('tab', { name: 'Register' }).tap();
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
    await expectGoodScreen(page, '/login, Register');

    await page.goto('/expert-coaches');
    await expect(page.getByRole('heading', { name: 'All Coaches' })).toBeVisible();
    await expect(page.getByTestId('coach-card').first().or(page.getByText('No coaches found'))).toBeVisible();
    await expectGoodScreen(page, '/expert-coaches');
    const directoryMenu = await openMenu(page, '/expert-coaches');
    await expect(directoryMenu.getByRole('link', { name: 'Login / Sign Up' })).toBeVisible();

    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expectGoodScreen(page, 'the 404 page');
  });
});

test.describe('a client registers, books and cancels; the coach approves in between', () => {
  test.describe.configure({ mode: 'serial' });
  let coach: Session;
  let clientToken: string;
  let clientName: string;
  let picked: string;

  test('a new client registers, finds a coach and books a slot through the dialog', async ({ page, request }) => {
    clientName = `Phone client ${uniqueTag()}`;
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Register' }).tap();
    await page.getByLabel('Full Name').fill(clientName);
    await page.getByLabel('Email').fill(uniqueEmail('phone'));
    await page.getByLabel('Phone (Optional)').fill('555-0100');
    await page.getByLabel('Password').fill(FIXTURE_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).tap();
    await expect(page).toHaveURL(/\/client\/dashboard$/);
    await expect(page.getByText('No bookings yet')).toBeVisible();
    await expectGoodScreen(page, '/client/dashboard');
    clientToken = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    // A paid session needs a saved card (issue 33): the phone's card dialog is payments-phone.spec.ts's.
    await addCardViaApi(request, { token: clientToken });

    await page.getByRole('button', { name: 'Create Profile' }).tap();
    const profile = page.getByRole('dialog', { name: 'Create Profile' });
    await expect(profile.getByLabel('Age')).toBeVisible();
    await expectGoodScreen(page, 'the client profile dialog');
    await closeDialog(profile);

    picked = await localDateFromToday(page, 9);
    ({ coach } = await coachWithWeeklySlot(request, weekdayOf(picked)));
    const coachName = coach.user.full_name;

    const menu = await openMenu(page, '/client/dashboard');
    await expect(menu.getByText(clientName)).toBeVisible();
    await menu.getByRole('link', { name: 'Find Coaches' }).tap();
    await expect(page).toHaveURL(/\/coaches$/);
    await page.getByLabel('Name or specialty').fill(coachName);
    const card = page.getByTestId('coach-card').filter({ has: page.getByRole('heading', { name: coachName }) });
    await expect(card).toBeVisible();
    await expectGoodScreen(page, '/coaches');
    await card.getByRole('link', { name: 'View Profile' }).tap();

    await expect(page.getByRole('heading', { name: coachName })).toBeVisible();
    await expectGoodScreen(page, '/coach/{id}');
    await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Confirm Your Booking' });
    await expect(dialog.getByText(`Select a date for your session with ${coachName}`)).toBeVisible();
    await expectGoodScreen(page, 'the booking dialog');
    // All seven columns and both month arrows are on the screen.
    const weekdays = dialog.locator('.rdp-weekday');
    await expect(weekdays).toHaveCount(7);
    for (const weekday of await weekdays.all()) await expect(weekday).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByRole('button', { name: /next month/i })).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByRole('button', { name: /previous month/i })).toBeInViewport({ ratio: 1 });

    const day = dialog.locator(`[data-day="${picked}"] button`);
    if (!(await day.isVisible())) await dialog.getByRole('button', { name: /next month/i }).tap();
    await day.tap();
    const confirm = dialog.getByRole('button', { name: 'Confirm Booking' });
    await expect(confirm).toBeInViewport({ ratio: 1 });
    await confirm.tap();
    await expect(page.getByText('Booking confirmed! Check your dashboard.')).toBeVisible();
    await expect(page).toHaveURL(/\/client\/dashboard$/);
    const booking = page.getByTestId('booking').filter({ hasText: coachName });
    await expect(booking.getByTestId('booking-status')).toHaveText('pending');
    await expectGoodScreen(page, '/client/dashboard with a booking');
  });

  test('the coach approves the request', async ({ page }) => {
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const booking = page.getByTestId('booking').filter({ hasText: clientName });
    await expect(booking.getByRole('button', { name: 'Approve' })).toBeVisible();
    await expectGoodScreen(page, '/coach/dashboard');
    await checkDialogs(page, 'coach', ['Edit Profile', 'Edit Policy', 'Add Location', 'Add Availability', 'Search Gyms']);
    await booking.getByRole('button', { name: 'Approve' }).tap();
    await expect(page.getByText('Booking approved!')).toBeVisible();
    await expect(booking.getByRole('button', { name: 'Approve' })).toBeHidden();
  });

  test('the client cancels the confirmed booking and logs out from the menu', async ({ page }) => {
    await page.goto('/');
    await page.evaluate((token) => localStorage.setItem('token', token), clientToken);
    await page.goto('/client/dashboard');
    const booking = page.getByTestId('booking').filter({ hasText: coach.user.full_name });
    await expect(booking.getByTestId('booking-status')).toHaveText('confirmed');
    await booking.getByRole('button', { name: 'Cancel Booking' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await expect(dialog.getByRole('button', { name: 'Cancel Booking' })).toBeEnabled();
    await expectGoodScreen(page, 'the Cancel this booking? dialog');
    await dialog.getByRole('button', { name: 'Cancel Booking' }).tap();
    await expect(page.getByText('Booking cancelled successfully')).toBeVisible();
    await expect(booking.getByTestId('booking-status')).toHaveText('cancelled');

    const menu = await openMenu(page, '/client/dashboard');
    await menu.getByRole('button', { name: 'Logout' }).tap();
    await expect(page).toHaveURL(/\/$/);
  });
});

test('a gym approves a coach’s court request on a phone', async ({ page, request }) => {
  const date = await (async () => {
    await page.goto('/');
    return localDateFromToday(page, 3);
  })();
  const { gym, coach } = await gymWithRequestedCourtTime(request, date);
  await signIn(page, gym);
  await page.goto('/gym/dashboard');
  const pending = page.getByTestId('pending-reservation').filter({ hasText: coach.user.full_name });
  await expect(pending).toContainText('07:00 – 08:30');
  await expect(page.getByRole('region', { name: 'Court schedule' })).toBeVisible();
  await expectGoodScreen(page, '/gym/dashboard');
  await checkDialogs(page, 'gym', ['Edit Profile', 'Add Location', 'Add Availability']);

  const location = page.getByTestId('gym-location').first();
  await location.getByRole('button', { name: /^Add Court to / }).tap();
  const addCourt = page.getByRole('dialog', { name: 'Add Court' });
  await expect(addCourt.getByRole('combobox', { name: 'Location' })).toHaveText(/Riverside/);
  await expectGoodScreen(page, 'the Add Court dialog');
  await closeDialog(addCourt);

  await pending.getByRole('button', { name: 'Approve' }).tap();
  await expect(page.getByText('Reservation approved!')).toBeVisible();
  await expect(page.getByRole('heading', { name: /Pending Court Reservations/ })).toHaveCount(0);

  // The coach looks that gym location up in detail, from the gym search, on the phone too.
  await signIn(page, coach);
  await page.goto('/coach/dashboard');
  await page.getByRole('button', { name: 'View All' }).tap();
  const list = page.getByRole('dialog', { name: 'Gym Locations' });
  await expect(list).toBeVisible();
  await list.getByRole('button', { name: /^View Details of Riverside/ }).first().tap();
  const details = page.getByRole('dialog');
  await expect(details.getByText('900 Riverside Dr').first()).toBeVisible();
  await expectGoodScreen(page, 'the gym location details dialog');
  await closeDialog(details);
});

test('the admin edits a user on a phone', async ({ page, request, baseURL }) => {
  const user = await registerViaApi(request, 'client', `Phone edit ${uniqueTag()}`);
  await signInAsAdmin(page, request, baseURL);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Activity', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  await expectGoodScreen(page, '/admin/dashboard');

  await page.getByPlaceholder('Search by name, email, or ID...').fill(user.user.email);
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: user.user.email });
  const edit = row.getByRole('button', { name: `Edit ${user.user.full_name}` });
  // The table scrolls sideways inside its card, but its actions stay on the screen: brought into
  // view by scrolling the page down only, the row's Edit button is wholly visible.
  await row.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
  expect(await page.evaluate(() => document.querySelector('table[aria-label="Users"]')?.parentElement?.scrollLeft)).toBe(0);
  await expect(edit).toBeInViewport({ ratio: 1 });
  await edit.tap();
  const details = page.getByRole('dialog', { name: 'User Details' });
  await expect(details).toContainText('Total Bookings');
  await expectGoodScreen(page, 'the User Details dialog');
  await details.getByLabel('Full Name').fill(`${user.user.full_name} Renamed`);
  const update = details.getByRole('button', { name: 'Update User' });
  await expect(update).toBeInViewport({ ratio: 1 });
  await update.tap();
  await expect(page.getByText('User updated successfully')).toBeVisible();
  await expect(row).toContainText(`${user.user.full_name} Renamed`);

  await row.getByRole('button', { name: `Delete ${user.user.full_name} Renamed` }).tap();
  const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await expect(confirm).toContainText(user.user.email);
  await expectGoodScreen(page, 'the Confirm Deletion dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).tap();
  await expect(confirm).toBeHidden();

  await page.getByRole('button', { name: 'Create User' }).tap();
  const create = page.getByRole('dialog', { name: 'Create New User' });
  await expect(create.getByLabel('Email')).toBeVisible();
  await expectGoodScreen(page, 'the Create New User dialog');
});
