import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiPost, gymWithRequestedCourtTime, type Session } from './support/api';
import { localDateFromToday } from './support/coach';
import { signIn } from './support/session';

/**
 * Closures in the browser: a gym closes a location for some dates from its dashboard's Closures
 * card; the request pending inside them is declined with the closure's reason (the coach sees it
 * denied, and why); the closure is listed, and reopening removes it.
 */

/** The gym's one location, as the API lists it. */
async function onlyLocation(request: APIRequestContext, gym: Session) {
  const response = await request.get('/api/gym/locations', { headers: { Authorization: `Bearer ${gym.token}` } });
  expect(response.status(), await response.text()).toBe(200);
  const locations = (await response.json()) as { location_id: string; name: string }[];
  expect(locations).toHaveLength(1);
  return locations[0];
}

/** A YYYY-MM-DD date as the dashboard shows it ("Mon, Jul 6, 2026"). */
function shown(date: string) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y, m - 1, d).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
}

/** The Closures card's section for `name`. */
function closuresOf(page: Page, name: string) {
  return page.getByRole('region', { name: 'Closures', exact: true }).getByRole('region', { name: `${name} closures`, exact: true });
}

test('closing a location declines the request pending on its dates, with the reason, and lists the closure', async ({ page, request }) => {
  const [first, date, last] = [await localDateFromToday(page, 11), await localDateFromToday(page, 12), await localDateFromToday(page, 13)];
  const { gym, coach } = await gymWithRequestedCourtTime(request, date);
  const location = await onlyLocation(request, gym);
  await signIn(page, gym);
  await page.goto('/gym/dashboard');
  const pending = page.getByTestId('pending-reservation').filter({ hasText: coach.user.full_name });
  await expect(pending).toBeVisible();

  const section = closuresOf(page, location.name);
  await expect(section.getByText('Open on every date.')).toBeVisible();
  await section.getByLabel('First closed day').fill(first);
  await section.getByLabel('Last closed day').fill(last);
  await section.getByLabel('Reason (optional)').fill('Regional tournament');
  await section.getByRole('button', { name: 'Close Location' }).click();

  await expect(page.getByText(`${location.name} closed. 1 pending request declined.`)).toBeVisible();
  await expect(pending).toHaveCount(0);
  const listed = section.getByRole('list', { name: `Closed dates of ${location.name}` }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(`${shown(first)} – ${shown(last)} · Regional tournament`);

  await signIn(page, coach);
  await page.goto('/coach/dashboard');
  const reservation = page.getByTestId('court-reservation');
  await expect(reservation.getByTestId('reservation-status')).toHaveText('denied');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  const declined = panel.getByRole('listitem').filter({ hasText: 'Court request declined' });
  await expect(declined).toContainText(`Reason: this location is closed from ${first} to ${last} (Regional tournament)`);
});

test('a gym reopens a closed location from the Closures card', async ({ page, request }) => {
  const [first, last] = [await localDateFromToday(page, 20), await localDateFromToday(page, 21)];
  const { gym } = await gymWithRequestedCourtTime(request, await localDateFromToday(page, 5));
  const location = await onlyLocation(request, gym);
  await apiPost(request, gym.token, `/gym/locations/${location.location_id}/closures`, {
    start_date: first,
    end_date: last,
    reason: 'Floor repairs',
  });
  await signIn(page, gym);
  await page.goto('/gym/dashboard');
  const section = closuresOf(page, location.name);
  const listed = section.getByRole('list', { name: `Closed dates of ${location.name}` }).getByRole('listitem');
  await expect(listed).toContainText(`${shown(first)} – ${shown(last)} · Floor repairs`);

  await listed.getByRole('button', { name: `Reopen ${location.name} ${shown(first)} – ${shown(last)}` }).click();

  await expect(page.getByText(`${location.name} reopened`)).toBeVisible();
  await expect(section.getByText('Open on every date.')).toBeVisible();
  const left = await request.get(`/api/gym/locations/${location.location_id}/closures`, {
    headers: { Authorization: `Bearer ${gym.token}` },
  });
  expect(await left.json()).toEqual([]);
});
