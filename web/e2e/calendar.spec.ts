import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiPost, coachWithWeeklySlot, registerViaApi, weekdayOf, type Session } from './support/api';
import { localDateFromToday } from './support/coach';
import { expectGoodScreen } from './support/screen';
import { signIn } from './support/session';

/**
 * Sessions in people's own calendars, through the browser: "Add to Calendar" downloads a booking's
 * .ics on both dashboards, and "Subscribe to my calendar" shows the feed's link to copy, whose feed
 * holds the booking, and resets it (after a confirmation) so the old link stops working at once.
 */

/** Downloads the booking's .ics from the dashboard's booking item; answers its name and text. */
async function addToCalendar(page: Page, withWhom: string) {
  const item = page.getByTestId('booking').filter({ hasText: withWhom });
  const button = item.getByRole('button', { name: /^Add to Calendar/ });
  await expect(button).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/** The feed at `url` (the mesh's own origin), fetched as a calendar app would: no token. */
async function fetchFeed(request: APIRequestContext, url: string) {
  return request.get(new URL(url).pathname);
}

test.describe('a booking in the calendars of its client and coach', () => {
  test.describe.configure({ mode: 'serial' });
  let client: Session;
  let coach: Session;
  let bookingId: string;
  let date: string;

  test.beforeAll(async ({ browser, request }) => {
    const page = await browser.newPage();
    date = await localDateFromToday(page, 10);
    await page.close();
    coach = (await coachWithWeeklySlot(request, weekdayOf(date))).coach;
    client = await registerViaApi(request, 'client');
    const slots = await request.get(`/api/availability/coach/${coach.user.user_id}`, {
      headers: { Authorization: `Bearer ${client.token}` },
    });
    const [slot] = (await slots.json()) as { slot_id: string }[];
    const booking = await apiPost<{ booking_id: string }>(request, client.token, '/bookings', {
      coach_id: coach.user.user_id,
      slot_id: slot.slot_id,
      booking_date: date,
    });
    bookingId = booking.booking_id;
  });

  test('the client adds the pending booking to their calendar', async ({ page }) => {
    await signIn(page, client);
    await page.goto('/client/dashboard');

    const file = await addToCalendar(page, coach.user.full_name);

    expect(file.name).toBe(`courtside-session-${date}.ics`);
    expect(file.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(file.text).toContain(`UID:booking-${bookingId}@courtside\r\n`);
    expect(file.text).toContain('STATUS:TENTATIVE\r\n');
    expect(file.text).toContain(`SUMMARY:Coaching session with ${coach.user.full_name}\r\n`);
  });

  test('the coach confirms it and adds it to theirs', async ({ page }) => {
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const item = page.getByTestId('booking').filter({ hasText: client.user.full_name });
    await expect(item.getByRole('button', { name: /^Add to Calendar/ })).toBeHidden();
    await item.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Booking approved!')).toBeVisible();

    const file = await addToCalendar(page, client.user.full_name);

    expect(file.text).toContain(`UID:booking-${bookingId}@courtside\r\n`);
    expect(file.text).toContain('STATUS:CONFIRMED\r\n');
    expect(file.text).toContain(`SUMMARY:Coaching session with ${client.user.full_name}\r\n`);
  });

  test('the client subscribes with the link, then resets it and the old one stops working', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await signIn(page, client);
    await page.goto('/client/dashboard');

    await page.getByRole('button', { name: 'Subscribe to my calendar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Subscribe to my calendar' });
    const link = dialog.getByRole('textbox', { name: 'Calendar link' });
    await expect(link).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const oldUrl = await link.inputValue();
    expect(new URL(oldUrl).origin).toBe(new URL(baseURL ?? '').origin);
    await expect(dialog.getByRole('link', { name: 'Open in my calendar app' })).toHaveAttribute(
      'href',
      oldUrl.replace(/^https?:\/\//, 'webcal://'),
    );
    await expectGoodScreen(page, 'the Subscribe to my calendar dialog');

    await dialog.getByRole('button', { name: 'Copy Link' }).click();
    await expect(page.getByText('Calendar link copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldUrl);

    const feed = await fetchFeed(request, oldUrl);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const body = await feed.text();
    expect(body).toContain(`UID:booking-${bookingId}@courtside\r\n`);
    expect(body).toContain('STATUS:CONFIRMED\r\n');

    await dialog.getByRole('button', { name: 'Reset Link' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset your calendar link?' });
    await expect(confirm.getByText('The current link stops working at once')).toBeVisible();
    await expectGoodScreen(page, 'the reset confirmation');
    await confirm.getByRole('button', { name: 'Keep Current Link' }).click();
    await expect(link).toHaveValue(oldUrl);

    await dialog.getByRole('button', { name: 'Reset Link' }).click();
    await confirm.getByRole('button', { name: 'Reset Link' }).click();
    await expect(page.getByText('Calendar link reset')).toBeVisible();
    await expect(link).not.toHaveValue(oldUrl);
    const newUrl = await link.inputValue();
    expect(newUrl).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);

    expect((await fetchFeed(request, oldUrl)).status()).toBe(404);
    expect((await fetchFeed(request, newUrl)).status()).toBe(200);
  });
});

test('a gym subscribes to its calendar too', async ({ page, request }) => {
  const gym = await registerViaApi(request, 'gym');
  await signIn(page, gym);
  await page.goto('/gym/dashboard');

  await page.getByRole('button', { name: 'Subscribe to my calendar' }).click();

  const link = page.getByRole('dialog').getByRole('textbox', { name: 'Calendar link' });
  await expect(link).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  const feed = await fetchFeed(request, await link.inputValue());
  expect(feed.status()).toBe(200);
  expect(await feed.text()).not.toContain('BEGIN:VEVENT');
});
