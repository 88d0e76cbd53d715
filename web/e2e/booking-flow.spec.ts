import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { coachWithWeeklySlot, registerViaApi, weekdayOf, type Session } from './support/api';
import { localDateFromToday } from './support/coach';
import { signIn } from './support/session';

/**
 * The booking journey through the browser: a client finds a coach, books a slot on a date they
 * pick, the coach approves, the client cancels. Then the same booking from a browser in Los
 * Angeles and in Auckland, where the booked date must be the picked date (no shift through UTC),
 * and a client's profile with a picture.
 */

/**
 * As the client: find the coach on /coaches, open their page, pick `date` in the booking
 * calendar (not the default one) and confirm. Ends on the client dashboard.
 */
async function bookThroughUi(page: Page, coachName: string, date: string) {
  await page.goto('/coaches');
  await page.getByLabel('Name or specialty').fill(coachName);
  const card = page.getByTestId('coach-card').filter({ has: page.getByRole('heading', { name: coachName }) });
  await card.getByRole('link', { name: 'View Profile' }).click();
  await expect(page.getByRole('heading', { name: coachName })).toBeVisible();

  await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Your Booking' });
  await expect(dialog.getByText(`Select a date for your session with ${coachName}`)).toBeVisible();
  const day = dialog.locator(`[data-day="${date}"] button`);
  // The picked date may be in next month's page of the calendar.
  if (!(await day.isVisible())) await dialog.getByRole('button', { name: /next month/i }).click();
  await day.click();
  const [y, m, d] = date.split('-').map(Number);
  const shown = new Date(y, m - 1, d).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
  await expect(dialog.getByText(`Selected: ${shown}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm Booking' }).click();
  await expect(page.getByText('Booking confirmed! Check your dashboard.')).toBeVisible();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
}

function bookingOf(page: Page, coachName: string) {
  return page.getByTestId('booking').filter({ hasText: coachName });
}

async function bookingsViaApi(request: APIRequestContext, session: Session) {
  const response = await request.get('/api/bookings', { headers: { Authorization: `Bearer ${session.token}` } });
  expect(response.ok()).toBeTruthy();
  return (await response.json()) as { booking_date: string; status: string; coach_name: string }[];
}

test.describe('a client books, the coach approves, the client cancels', () => {
  test.describe.configure({ mode: 'serial' });
  let coach: Session;
  let client: Session;
  let coachName: string;
  let picked: string;

  test('the client finds the coach, books a picked date and sees it pending', async ({ page, request }) => {
    client = await registerViaApi(request, 'client');
    await signIn(page, client);
    picked = await localDateFromToday(page, 9);
    const arranged = await coachWithWeeklySlot(request, weekdayOf(picked));
    coach = arranged.coach;
    coachName = coach.user.full_name;

    await bookThroughUi(page, coachName, picked);
    const booking = bookingOf(page, coachName);
    await expect(booking.getByTestId('booking-status')).toHaveText('pending');
    await expect(booking.locator('time')).toHaveAttribute('datetime', picked);
    await expect(booking.getByTestId('booking-time')).toHaveText(/^18:00 – 19:00( [A-Z][A-Za-z0-9+:-]*)?$/);
    await expect(booking).toContainText(arranged.locationName);
    // Nine days ahead: the $60 hour is held six days before it (issue 33), nothing yet.
    await expect(booking.getByTestId('booking-payment')).toHaveText('$60.00Not held yet');
  });

  test('the coach sees the request and approves it', async ({ page }) => {
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const booking = page.getByTestId('booking').filter({ hasText: client.user.full_name });
    await expect(booking.locator('time')).toHaveAttribute('datetime', picked);
    await booking.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Booking approved!')).toBeVisible();
    await expect(booking.getByRole('button', { name: 'Approve' })).toBeHidden();
    await expect(booking.getByTestId('payment-status')).toHaveText('Not held yet'); // held six days before
  });

  test('the client sees it confirmed, cancels it, and the cancel button goes', async ({ page }) => {
    await signIn(page, client);
    await page.goto('/client/dashboard');
    const booking = bookingOf(page, coachName);
    await expect(booking.getByTestId('booking-status')).toHaveText('confirmed');
    await booking.getByRole('button', { name: 'Cancel Booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    // Nine days ahead: outside the default 24-hour window, so no late warning.
    await expect(dialog.getByRole('button', { name: 'Cancel Booking' })).toBeEnabled();
    await expect(dialog.getByTestId('late-cancellation-warning')).toHaveCount(0);
    await dialog.getByLabel('Reason for the coach (optional)').fill('Tournament moved');
    await dialog.getByRole('button', { name: 'Cancel Booking' }).click();
    await expect(page.getByText('Booking cancelled successfully')).toBeVisible();
    await expect(booking.getByTestId('booking-status')).toHaveText('cancelled');
    await expect(booking.getByTestId('cancellation-note')).toHaveText('Cancelled by the client: Tournament moved');
    await expect(booking.getByTestId('late-cancellation')).toHaveCount(0);
    await expect(booking.getByRole('button', { name: 'Cancel Booking' })).toHaveCount(0);
  });
});

for (const timezoneId of ['America/Los_Angeles', 'Pacific/Auckland']) {
  test.describe(`booking from a browser in ${timezoneId}`, () => {
    test.use({ timezoneId });

    test('the booked date is the picked date', async ({ page, request }) => {
      const client = await registerViaApi(request, 'client');
      await signIn(page, client);
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);
      const picked = await localDateFromToday(page, 10);
      const { coach } = await coachWithWeeklySlot(request, weekdayOf(picked));

      await bookThroughUi(page, coach.user.full_name, picked);
      await expect(bookingOf(page, coach.user.full_name).locator('time')).toHaveAttribute('datetime', picked);
      const [stored] = await bookingsViaApi(request, client);
      expect(stored.booking_date).toBe(picked);
    });
  });
}

/** A 1×1 PNG, the smallest real image the server will take. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test('a client creates a profile with a picture and sees it', async ({ page, request }) => {
  const client = await registerViaApi(request, 'client');
  await signIn(page, client);
  await page.goto('/client/dashboard');
  await expect(page.getByRole('heading', { name: `Welcome back, ${client.user.full_name.split(' ')[0]}!` })).toBeVisible();
  await expect(page.getByText('No bookings yet')).toBeVisible();

  await page.getByRole('button', { name: 'Create Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Profile' });
  await dialog.getByLabel('Age').fill('16');
  await dialog.getByLabel('Grade').fill('11th');
  await dialog.getByLabel('Sport').fill('Volleyball');
  await dialog.getByRole('combobox', { name: 'Skill Level' }).click();
  await page.getByRole('option', { name: 'Advanced' }).click();

  // Refused before any upload: not an image.
  await dialog.getByLabel('Profile Picture').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  await expect(page.getByText('Please select an image file')).toBeVisible();

  await dialog.getByLabel('Profile Picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Profile picture uploaded successfully')).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'Profile picture' })).toHaveAttribute('src', /^\/uploads\//);
  await dialog.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByText('Profile saved successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  const picture = page.getByRole('img', { name: 'Profile picture' });
  await expect(picture).toHaveAttribute('src', /^\/uploads\//);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await expect(page.getByText('Volleyball')).toBeVisible();
  await expect(page.getByText('Advanced')).toBeVisible();

  // It stays after a reload, and the next save is an edit.
  await page.reload();
  await expect(page.getByRole('img', { name: 'Profile picture' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
});
