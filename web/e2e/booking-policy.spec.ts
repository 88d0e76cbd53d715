import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { coachWithWeeklySlot, registerViaApi, weekdayOf, type Session } from './support/api';
import { localDateFromToday } from './support/coach';
import { signIn } from './support/session';

/**
 * Issue 16 in the browser: the coach sets a booking policy on the dashboard card; a client's
 * booking calendar then disables the dates too soon, too far ahead and past; the client, in
 * another zone than the coach's Austin court, sees the session with the court's zone named, the
 * coach in Austin sees it bare, and both see the same instant.
 */

async function openSelect(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** "Wed, Jul 1, 2026", as the app shows a YYYY-MM-DD date. */
function shown(date: string) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y, m - 1, d).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
}

/** The day's button in the booking calendar, turning to the month that shows it. */
async function calendarDay(dialog: Locator, date: string) {
  const day = dialog.locator(`[data-day="${date}"] button`);
  await expect(dialog.getByRole('grid')).toBeVisible();
  // The calendar runs from this month to the policy's last day; its buttons say when they cannot go on.
  const turn = async (name: RegExp) => {
    const button = dialog.getByRole('button', { name });
    if ((await button.getAttribute('aria-disabled')) === 'true') return false;
    await button.click();
    return true;
  };
  for (let i = 0; i < 3 && !(await day.isVisible()); i += 1) if (!(await turn(/previous month/i))) break;
  for (let i = 0; i < 3 && !(await day.isVisible()); i += 1) if (!(await turn(/next month/i))) break;
  await expect(day).toBeVisible();
  return day;
}

test.describe("the coach's booking policy", () => {
  test.describe.configure({ mode: 'serial' });
  // The coach's court is in Austin; the coach's browser too.
  test.use({ timezoneId: 'America/Chicago' });
  let coach: Session;
  let client: Session;
  let soon: string;
  let allowed: string;
  let tooFar: string;

  test('the coach sets the policy in hours and days, and it stays', async ({ page, request }) => {
    await page.goto('/'); // dates in the browser's calendar
    soon = await localDateFromToday(page, 1); // the slot's first date: tomorrow, 18:00
    allowed = await localDateFromToday(page, 8);
    tooFar = await localDateFromToday(page, 15);
    ({ coach } = await coachWithWeeklySlot(request, weekdayOf(soon)));

    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const card = page.getByRole('region', { name: 'Booking policy' });
    const shown = card.getByTestId('booking-policy');
    // The defaults, in words.
    await expect(shown).toContainText('Minimum noticeNone');
    await expect(shown).toContainText('Book up to365 days ahead');
    await expect(shown).toContainText('Answer within2 days');
    await expect(shown).toContainText('Free cancellation until24 hours before');

    await card.getByRole('button', { name: 'Edit Policy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Booking Policy' });
    await dialog.getByLabel('Minimum notice', { exact: true }).fill('3');
    await openSelect(page, dialog, 'Minimum notice unit', 'Days');
    // Out of range first: the field says so, nothing is sent.
    await dialog.getByLabel('How far ahead (days)').fill('1000');
    await dialog.getByRole('button', { name: 'Save Policy' }).click();
    await expect(dialog.getByText('How far ahead must be a whole number of days between 1 and 730')).toBeVisible();
    await dialog.getByLabel('How far ahead (days)').fill('14');
    await dialog.getByLabel('Answer requests within', { exact: true }).fill('12');
    await openSelect(page, dialog, 'Answer requests within unit', 'Hours');
    await dialog.getByLabel('Free cancellation until', { exact: true }).fill('2');
    await openSelect(page, dialog, 'Free cancellation until unit', 'Days');
    await dialog.getByRole('button', { name: 'Save Policy' }).click();
    await expect(page.getByText('Booking policy saved')).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.reload();
    await expect(shown).toContainText('Minimum notice3 days');
    await expect(shown).toContainText('Book up to14 days ahead');
    await expect(shown).toContainText('Answer within12 hours');
    await expect(shown).toContainText('Free cancellation until2 days before');
    const saved = await request.get('/api/coach/policy', { headers: { Authorization: `Bearer ${coach.token}` } });
    expect(await saved.json()).toEqual({
      min_notice_minutes: 4320,
      max_advance_days: 14,
      response_window_minutes: 720,
      cancellation_window_minutes: 2880,
      // The fees the coach did not touch keep their defaults.
      late_cancellation_fee_percent: 50,
      no_show_fee_percent: 100,
    });
  });

  test.describe('a client in New York', () => {
    test.use({ timezoneId: 'America/New_York' });

    test('sees the policy, and only the dates it allows can be picked', async ({ page, request }) => {
      client = await registerViaApi(request, 'client');
      await signIn(page, client);
      await page.goto(`/coach/${coach.user.user_id}`);
      // The coach's page says the policy before any slot is chosen.
      const onPage = page.getByTestId('coach-policy');
      await expect(onPage).toContainText('Book at least 3 days ahead');
      await expect(onPage).toContainText('Free cancellation until 2 days before');
      await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm Your Booking' });
      const policy = dialog.getByRole('list', { name: 'Booking policy' });
      await expect(policy).toContainText('Book at least 3 days ahead');
      await expect(policy).toContainText('Book up to 14 days ahead');
      await expect(policy).toContainText('The coach answers within 12 hours');
      await expect(policy).toContainText('Free cancellation until 2 days before');
      // The first date the policy allows is chosen.
      const selected = dialog.getByText(/^Selected:/);
      await expect(selected).toHaveText(`Selected: ${shown(allowed)}`);

      // Too soon and too far: neither can be chosen (aria-disabled), each says why on focus.
      const note = dialog.getByTestId('day-note');
      for (const [date, why] of [
        [soon, 'Too soon'], // sooner than 3 days
        [tooFar, 'Too far ahead'], // beyond 14 days
      ]) {
        const refused = await calendarDay(dialog, date);
        await expect(refused).toBeDisabled();
        await expect(refused).toHaveAttribute('title', why);
        await refused.focus();
        await expect(note).toHaveText(`${shown(date)} cannot be booked: ${why}`);
        await refused.press('Enter');
        await expect(selected).toHaveText(`Selected: ${shown(allowed)}`);
      }
      const day = await calendarDay(dialog, allowed);
      await expect(day).toBeEnabled();
      // 18:00 at the Austin court, named for a reader in New York.
      await expect(dialog.getByText(/^18:00 – 19:00 C[SD]T$/)).toBeVisible();
      await day.click();
      await dialog.getByRole('button', { name: 'Confirm Booking' }).click();
      await expect(page.getByText('Booking confirmed! Check your dashboard.')).toBeVisible();

      const booking = page.getByTestId('booking').filter({ hasText: coach.user.full_name });
      await expect(booking.locator('time')).toHaveAttribute('datetime', allowed);
      await expect(booking.getByTestId('booking-time')).toHaveText(/^18:00 – 19:00 C[SD]T$/);
    });

    test('the server refuses a date the policy forbids, naming the limit', async ({ request }) => {
      const response = await request.post('/api/bookings', {
        headers: { Authorization: `Bearer ${client.token}` },
        data: { coach_id: coach.user.user_id, slot_id: await firstSlotId(request, coach), booking_date: soon },
      });
      expect(response.status()).toBe(409);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/ahead/);
    });
  });

  test('the coach in Austin sees the same session on the court clock, bare', async ({ page, request }) => {
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const booking = page.getByTestId('booking').filter({ hasText: client.user.full_name });
    await expect(booking.locator('time')).toHaveAttribute('datetime', allowed);
    await expect(booking.getByTestId('booking-time')).toHaveText('18:00 – 19:00');
    // One instant for both sides.
    const read = async (session: Session) => {
      const response = await request.get('/api/bookings', { headers: { Authorization: `Bearer ${session.token}` } });
      const [first] = (await response.json()) as { starts_at: string; time_zone: string }[];
      return first;
    };
    const [mine, theirs] = await Promise.all([read(coach), read(client)]);
    expect(mine.starts_at).toBe(theirs.starts_at);
    expect(mine.time_zone).toBe('America/Chicago');
  });
});

async function firstSlotId(request: APIRequestContext, coach: Session) {
  const response = await request.get(`/api/availability/coach/${coach.user.user_id}`, {
    headers: { Authorization: `Bearer ${coach.token}` },
  });
  const [slot] = (await response.json()) as { slot_id: string }[];
  return slot.slot_id;
}

test.describe('a request the coach does not answer in time', () => {
  test('expires on its own, and both dashboards show it expired without a reload', async ({ page, request }) => {
    // One minute's window, the scheduler's pass (5 s) and the list's minute re-read.
    test.setTimeout(240_000);
    await page.goto('/');
    const date = await localDateFromToday(page, 2);
    const { coach } = await coachWithWeeklySlot(request, weekdayOf(date));
    const headers = (session: Session) => ({ Authorization: `Bearer ${session.token}` });
    const policy = await request.put('/api/coach/policy', {
      headers: headers(coach),
      data: { min_notice_minutes: 0, max_advance_days: 365, response_window_minutes: 1, cancellation_window_minutes: 1440 },
    });
    expect(policy.ok(), await policy.text()).toBeTruthy();
    const client = await registerViaApi(request, 'client');
    const created = await request.post('/api/bookings', {
      headers: headers(client),
      data: { coach_id: coach.user.user_id, slot_id: await firstSlotId(request, coach), booking_date: date },
    });
    expect(created.status(), await created.text()).toBe(201);

    await signIn(page, client);
    await page.goto('/client/dashboard');
    const booking = page.getByTestId('booking').filter({ hasText: coach.user.full_name });
    await expect(booking.getByTestId('booking-status')).toHaveText('pending');
    await expect(booking.getByTestId('booking-status')).toHaveText('expired', { timeout: 180_000 });
    await expect(booking.getByRole('button', { name: 'Cancel Booking' })).toHaveCount(0);

    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const request_ = page.getByTestId('booking').filter({ hasText: client.user.full_name });
    await expect(request_.getByTestId('booking-status')).toHaveText('expired');
    await expect(request_.getByRole('button')).toHaveCount(0);
  });
});
