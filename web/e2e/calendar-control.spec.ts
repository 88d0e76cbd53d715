import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiPost, coachWithWeeklySlot, registerViaApi, weekdayOf, type Session } from './support/api';
import { localDateFromToday } from './support/coach';
import { signIn } from './support/session';

/**
 * Issue 17 in the browser: the coach takes time off on the dashboard (a booking on those dates is
 * named and cancelled in one click); a client's booking calendar disables the dates the bookable
 * calendar refuses and says why; a client reschedules a booking to a free date.
 */

/** "Wed, Jul 1, 2026", as the app shows a YYYY-MM-DD date. */
function shown(date: string) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y, m - 1, d).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
}

/** The day's button in a calendar, turning to the month that shows it. */
async function calendarDay(dialog: Locator, date: string) {
  const day = dialog.locator(`[data-day="${date}"] button`);
  // The calendar shows once the dialog has found the month to open on.
  await expect(dialog.getByRole('grid')).toBeVisible();
  const turn = async (name: RegExp) => {
    const button = dialog.getByRole('button', { name });
    if ((await button.count()) === 0 || (await button.isDisabled()) || (await button.getAttribute('aria-disabled')) === 'true') {
      return false;
    }
    await button.click();
    return true;
  };
  // The dates of these tests lie ahead: forward first, then back past the month it opened on.
  for (let i = 0; i < 3 && !(await day.isVisible()); i += 1) if (!(await turn(/next month/i))) break;
  for (let i = 0; i < 6 && !(await day.isVisible()); i += 1) if (!(await turn(/previous month/i))) break;
  await expect(day).toBeVisible();
  return day;
}

async function addTimeOff(page: Page, first: string, last: string, reason: string) {
  const card = page.getByRole('region', { name: 'Time off' });
  await card.getByLabel('First day').fill(first);
  await card.getByLabel('Last day').fill(last);
  await card.getByLabel('Reason (optional)').fill(reason);
  await card.getByRole('button', { name: 'Add Time Off' }).click();
  return card;
}

test.describe('calendar control', () => {
  test.describe.configure({ mode: 'serial' });
  test.use({ timezoneId: 'America/Chicago' });
  let coach: Session;
  let firstDate: string; // the weekly slot's first date: free, so the booking dialog starts on it
  let slotDate: string; // a free date of the weekly slot
  let awayDate: string; // the coach's time off
  let takenDate: string; // booked by another client
  let mover: Session;

  test('the coach takes time off, sees the booking on it named, and cancels it in one click', async ({ page, request }) => {
    await page.goto('/');
    firstDate = await localDateFromToday(page, 1);
    slotDate = await localDateFromToday(page, 8);
    awayDate = await localDateFromToday(page, 15);
    takenDate = await localDateFromToday(page, 22);
    ({ coach } = await coachWithWeeklySlot(request, weekdayOf(slotDate)));
    const slots = await (
      await request.get(`/api/availability/coach/${coach.user.user_id}`, { headers: { Authorization: `Bearer ${coach.token}` } })
    ).json();
    const slotId = slots[0].slot_id as string;
    const unlucky = await registerViaApi(request, 'client', `Unlucky ${Date.now().toString(36)}`);
    await apiPost(request, unlucky.token, '/bookings', { coach_id: coach.user.user_id, slot_id: slotId, booking_date: awayDate });
    mover = await registerViaApi(request, 'client');
    await apiPost(request, mover.token, '/bookings', { coach_id: coach.user.user_id, slot_id: slotId, booking_date: takenDate });

    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    const card = await addTimeOff(page, awayDate, awayDate, 'Tournament');
    await expect(page.getByText('Time off added. 1 booking falls in it.')).toBeVisible();
    const item = card.getByTestId('time-off');
    await expect(item).toContainText(shown(awayDate));
    await expect(item).toContainText('Tournament');
    const conflict = item.getByRole('button', { name: new RegExp(`Cancel booking with ${unlucky.user.full_name}`) });
    await expect(conflict).toBeVisible();
    await conflict.click();
    await expect(page.getByText(`Booking with ${unlucky.user.full_name} cancelled`)).toBeVisible();
    await expect(conflict).toBeHidden();
  });

  test("a client's calendar disables the coach's time off and a taken date, and says why", async ({ page, request }) => {
    const client = await registerViaApi(request, 'client');
    await signIn(page, client);
    await page.goto(`/coach/${coach.user.user_id}`);
    await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Your Booking' });
    const selected = dialog.getByText(/^Selected:/);
    await expect(selected).toHaveText(`Selected: ${shown(firstDate)}`);
    const note = dialog.getByTestId('day-note');

    // A refused day cannot be chosen (aria-disabled), yet it takes focus and says why, there and
    // in its name; Enter on it leaves the chosen date as it was.
    const away = await calendarDay(dialog, awayDate);
    await expect(away).toBeDisabled();
    await expect(away).toHaveAttribute('aria-disabled', 'true');
    await expect(away).toHaveAttribute('title', 'Coach away');
    await expect(away).toHaveAccessibleName(/, Coach away$/);
    await expect(dialog.getByRole('list', { name: 'Dates not available' })).toContainText(`${shown(awayDate)}: Coach away`);
    await away.focus();
    await expect(away).toBeFocused();
    await expect(note).toHaveText(`${shown(awayDate)} cannot be booked: Coach away`);
    await away.press('Enter');
    await expect(selected).toHaveText(`Selected: ${shown(firstDate)}`);

    const taken = await calendarDay(dialog, takenDate);
    await expect(taken).toBeDisabled();
    await expect(taken).toHaveAttribute('title', 'Fully booked');
    await taken.hover();
    await expect(note).toHaveText(`${shown(takenDate)} cannot be booked: Fully booked`);
    await taken.click({ force: true }); // a click a person could make: it chooses nothing
    await expect(selected).toHaveText(`Selected: ${shown(firstDate)}`);

    const free = await calendarDay(dialog, slotDate);
    await expect(free).toBeEnabled();
    await free.click();
    await expect(selected).toHaveText(`Selected: ${shown(slotDate)}`);
    await expect(dialog.getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
  });

  test('a client reschedules a booking to a free date', async ({ page }) => {
    await signIn(page, mover);
    await page.goto('/client/dashboard');
    const booking = page.getByTestId('booking').filter({ hasText: shown(takenDate) });
    await booking.getByRole('button', { name: 'Reschedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reschedule' });
    const away = await calendarDay(dialog, awayDate);
    await expect(away).toBeDisabled();
    await expect(away).toHaveAttribute('title', 'Coach away');
    await (await calendarDay(dialog, slotDate)).click();
    await dialog.getByRole('button', { name: 'Move Booking' }).click();
    await expect(page.getByText(`Booking moved to ${shown(slotDate)}`)).toBeVisible();
    await expect(page.getByTestId('booking').filter({ hasText: shown(slotDate) })).toContainText(/pending/i);
    await expect(page.getByTestId('booking').filter({ hasText: shown(takenDate) })).toContainText(/cancelled/i);
  });
});
