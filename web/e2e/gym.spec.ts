import { expect, test, type Locator, type Page } from '@playwright/test';
import { registerViaApi, uniqueTag, type Session } from './support/api';
import { localDateFromToday } from './support/coach';
import { signIn } from './support/session';

/**
 * The court journey through the browser: a gym sets up its profile, a location, courts and court
 * time; a coach finds the gym, requests the time and sees it pending; the gym approves; the coach
 * sees it approved and the gym sees the time Reserved. Serial: each step builds on the one before.
 */
test.describe.configure({ mode: 'serial' });

test.describe('a gym rents court time to a coach', () => {
  const tag = uniqueTag();
  const gymName = `Hoops ${tag}`;
  const locationName = `Riverside ${tag}`;
  let gym: Session;
  let coach: Session;
  let date: string;

  /** Court 1's row of the week schedule, on the week that holds the court time (this or next). */
  async function courtOneInSchedule(page: Page) {
    const schedule = page.getByRole('region', { name: 'Court schedule' });
    const row = schedule.getByRole('row', { name: /^Court 1/ });
    await expect(row).toBeVisible();
    if (!(await row.getByText(/07:00 – 08:30/).isVisible())) {
      await schedule.getByRole('button', { name: 'Next week' }).click();
    }
    return row;
  }

  async function openSelect(page: Page, scope: Locator, label: string, option: string) {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  test('the gym creates its profile, a location, two courts and court time', async ({ page, request }) => {
    gym = await registerViaApi(request, 'gym', `Gym owner ${tag}`);
    await signIn(page, gym);
    await page.goto('/gym/dashboard');
    await expect(page.getByRole('heading', { name: 'Gym Dashboard' })).toBeVisible();
    await expect(page.getByText('No locations added yet.')).toBeVisible();
    await expect(page.getByText('No availability set yet.')).toBeVisible();
    await expect(page.getByRole('heading', { name: /Pending Court Reservations/ })).toHaveCount(0);

    await page.getByRole('button', { name: 'Create Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Create Profile' });
    await profile.getByLabel('Gym Name').fill(gymName);
    await profile.getByLabel('Description').fill('Four hardwood courts, open late.');
    await profile.getByLabel('Phone').fill('512-555-0199');
    await profile.getByRole('button', { name: 'Save Profile' }).click();
    await expect(page.getByText('Profile created successfully')).toBeVisible();
    await expect(page.getByText('Four hardwood courts, open late.')).toBeVisible();

    // A court needs a location first.
    await page.getByRole('button', { name: 'Add Court', exact: true }).click();
    const noLocation = page.getByRole('dialog', { name: 'Add Court' });
    await noLocation.getByRole('button', { name: 'Save Court' }).click();
    await expect(page.getByText('Please select a location first')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(noLocation).toBeHidden();

    await page.getByRole('button', { name: 'Add Location' }).click();
    const location = page.getByRole('dialog', { name: 'Add Location' });
    await location.getByLabel('Name', { exact: true }).fill(locationName);
    await location.getByLabel('Address').fill('900 Riverside Dr');
    await location.getByLabel('City').fill('Austin');
    await location.getByLabel('State').fill('TX');
    await location.getByRole('button', { name: 'Save Location' }).click();
    await expect(page.getByText('Location added successfully')).toBeVisible();
    await expect(page.getByText('No courts added yet')).toBeVisible();

    for (const [court, type] of [['Court 1', 'Basketball'], ['Court 2', 'Volleyball']] as const) {
      await page.getByRole('button', { name: `Add Court to ${locationName}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Court' });
      await expect(dialog.getByRole('combobox', { name: 'Court Type' })).toHaveText('Basketball');
      await dialog.getByLabel('Court Name').fill(court);
      if (type !== 'Basketball') await openSelect(page, dialog, 'Court Type', type);
      await dialog.getByRole('button', { name: 'Save Court' }).click();
      await expect(page.getByText('Court added successfully').first()).toBeVisible();
      await expect(dialog).toBeHidden();
    }
    const courts = page.getByRole('list', { name: `Courts at ${locationName}` });
    await expect(courts).toContainText('Court 1');
    await expect(courts).toContainText('Volleyball');

    date = await localDateFromToday(page, 3);
    await page.getByRole('button', { name: 'Add Availability' }).click();
    const availability = page.getByRole('dialog', { name: 'Add Availability' });
    await openSelect(page, availability, 'Court', 'Court 1');
    await availability.getByLabel('Date').fill(date);
    await availability.getByLabel('Start Time').fill('07:00');
    await availability.getByLabel('End Time').fill('08:30');
    await availability.getByRole('button', { name: 'Save Availability' }).click();
    await expect(page.getByText('Court availability added successfully')).toBeVisible();

    const entry = page.getByTestId('court-availability').filter({ hasText: 'Court 1' });
    await expect(entry).toContainText('07:00 – 08:30');
    await expect(entry).toContainText('Available');

    await expect(await courtOneInSchedule(page)).toContainText(/07:00 – 08:30( \S+)?Available/);
  });

  test('a coach finds the gym, sees its courts, requests the time and sees it pending', async ({ page, request }) => {
    coach = await registerViaApi(request, 'coach', `Court coach ${tag}`);
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    await expect(page.getByText('No court reservations yet.')).toBeVisible();

    const search = page.getByRole('textbox', { name: 'Search gym locations' });
    await search.fill(gymName.toUpperCase());
    await expect(page.getByTestId('gym-location-counts')).toContainText('1 matching your search');
    await page.getByRole('button', { name: 'Search Gyms' }).click();
    const browse = page.getByRole('dialog', { name: 'Gym Locations' });
    await expect(browse.getByTestId('gym-location')).toHaveCount(1);
    await browse.getByRole('button', { name: `View Details of ${locationName}` }).click();

    const detail = page.getByRole('dialog', { name: locationName });
    await expect(detail).toContainText(gymName);
    await expect(detail).toContainText('900 Riverside Dr');
    await expect(detail).toContainText('Austin, TX');
    await expect(detail.getByRole('list', { name: 'Courts' })).toContainText('Court 2');
    await expect(detail.getByText('Contact the gym to inquire about court availability and reservation.')).toBeVisible();
    const slot = detail.getByTestId('open-court-time').filter({ hasText: '07:00 – 08:30' });
    await slot.getByRole('button', { name: /^Request/ }).click();
    await expect(page.getByText('Court reservation requested')).toBeVisible();
    await expect(slot.getByText('Requested')).toBeVisible();
    await page.keyboard.press('Escape');

    const reservation = page.getByTestId('court-reservation').filter({ hasText: gymName });
    await expect(reservation.getByTestId('reservation-status')).toHaveText('pending');
    await expect(reservation).toContainText(`${locationName} · Court 1`);
    await expect(reservation.getByRole('button', { name: /^Cancel reservation/ })).toBeVisible();
  });

  test('the gym sees the request, approves it, and the court time is Reserved', async ({ page }) => {
    await signIn(page, gym);
    await page.goto('/gym/dashboard');
    const heading = page.getByRole('heading', { name: /Pending Court Reservations/ });
    await expect(heading).toContainText('1');
    const pending = page.getByTestId('pending-reservation').filter({ hasText: coach.user.full_name });
    await expect(pending).toContainText('07:00 – 08:30');
    const row = await courtOneInSchedule(page);
    await expect(row).toContainText(/07:00 – 08:30( \S+)?Pending request/);
    await pending.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Reservation approved!')).toBeVisible();
    await expect(heading).toHaveCount(0);
    const entry = page.getByTestId('court-availability').filter({ hasText: 'Court 1' });
    await expect(entry).toContainText('Reserved');
    await expect(row).toContainText(/07:00 – 08:30( \S+)?Reserved/);
  });

  test('the coach sees the reservation approved', async ({ page }) => {
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const reservation = page.getByTestId('court-reservation').filter({ hasText: gymName });
    await expect(reservation.getByTestId('reservation-status')).toHaveText('approved');
    await expect(reservation.getByRole('button', { name: /^Cancel reservation/ })).toHaveCount(0);
  });

  test('the gym cancels the approved reservation with a reason, and the court time is open again', async ({ page }) => {
    await signIn(page, gym);
    await page.goto('/gym/dashboard');
    const entry = page.getByTestId('court-availability').filter({ hasText: 'Court 1' });
    await expect(entry).toContainText('Reserved');
    await entry.getByRole('button', { name: /^Cancel reservation of Court 1/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this reservation?' });
    await dialog.getByLabel('Reason for the coach (optional)').fill('Floor repairs');
    await dialog.getByRole('button', { name: 'Cancel reservation' }).click();
    await expect(page.getByText('Reservation cancelled', { exact: true })).toBeVisible();
    await expect(entry).toContainText('Available');
    await expect(entry.getByRole('button', { name: /^Cancel reservation/ })).toHaveCount(0);
  });

  test("the coach sees it cancelled, with the gym's reason", async ({ page }) => {
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const reservation = page.getByTestId('court-reservation').filter({ hasText: gymName });
    await expect(reservation.getByTestId('reservation-status')).toHaveText('cancelled');
    await expect(reservation).toContainText('Reason: Floor repairs');
  });
});
