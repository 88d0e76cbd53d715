import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPost, registerViaApi, uniqueTag, type Session } from './support/api';
import { signIn } from './support/session';

/** Issue 19 in the browser: a client reviews a session that took place; /coaches filters and sorts. */

async function coachAt(request: APIRequestContext, name: string, specialty: string, rate: number) {
  const coach = await registerViaApi(request, 'coach', name);
  await apiPost(request, coach.token, '/coach/profile', {
    bio: 'Footwork and finishing.',
    specialties: [specialty],
    hourly_rate: rate,
    years_experience: 5,
    time_zone: 'America/Chicago',
  });
  const location = await apiPost<{ location_id: string }>(request, coach.token, '/locations', {
    name: `Court ${name}`,
    address: '200 W 2nd St',
    court_number: '1',
    city: 'Austin',
    state: 'TX',
    latitude: 30.2655,
    longitude: -97.7467,
  });
  return { coach, locationId: location.location_id };
}

/** Austin's wall clock `minutes` from now: the date and HH:MM. */
function austin(minutes: number) {
  const at = new Date(Date.now() + minutes * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Chicago',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

async function bookingStatus(request: APIRequestContext, client: Session, bookingId: string) {
  const response = await request.get('/api/bookings', { headers: { Authorization: `Bearer ${client.token}` } });
  const bookings = (await response.json()) as { booking_id: string; status: string }[];
  return bookings.find((b) => b.booking_id === bookingId)?.status;
}

test('a client leaves a review of a session that took place, and the coach shows its stars', async ({ page, request }) => {
  test.setTimeout(300_000);
  const tag = uniqueTag();
  const { coach, locationId } = await coachAt(request, `Rated ${tag}`, `Review${tag}`, 60);
  let start = austin(2);
  let end = austin(3);
  if (start.date !== end.date) {
    // A slot cannot cross midnight in Austin: wait for the new day there and take its first minutes.
    await new Promise((resolve) => setTimeout(resolve, 120_000));
    start = austin(2);
    end = austin(3);
  }
  const slot = await apiPost<{ slot_id: string }>(request, coach.token, '/availability', {
    slot_type: 'one-time',
    day_of_week: null,
    specific_date: start.date,
    start_time: start.time,
    end_time: end.time,
    location_id: locationId,
  });
  const client = await registerViaApi(request, 'client', `Critic ${tag}`);
  const booking = await apiPost<{ booking_id: string }>(request, client.token, '/bookings', {
    coach_id: coach.user.user_id,
    slot_id: slot.slot_id,
    booking_date: start.date,
  });
  const approved = await request.patch(`/api/coach/bookings/${booking.booking_id}/approve`, {
    headers: { Authorization: `Bearer ${coach.token}` },
  });
  expect(approved.status()).toBe(200);
  await expect
    .poll(() => bookingStatus(request, client, booking.booking_id), { timeout: 240_000, intervals: [5_000] })
    .toBe('completed');

  await signIn(page, client);
  await page.goto('/client/dashboard');
  const item = page.getByTestId('booking').filter({ hasText: `Rated ${tag}` });
  await item.getByRole('button', { name: 'Leave a review' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: '5 stars' }).click();
  await dialog.getByLabel('Comment (optional)').fill('Sharp drills, clear feedback.');
  await dialog.getByRole('button', { name: 'Post review' }).click();
  await expect(page.getByText('Thanks for your review!')).toBeVisible();
  await expect(item.getByRole('button', { name: 'Edit review' })).toBeVisible();

  await page.goto(`/coach/${coach.user.user_id}`);
  await expect(page.getByTestId('review').filter({ hasText: 'Sharp drills, clear feedback.' })).toBeVisible();
  // The average reaches the profile through coaching's copy (an event): reload until it shows.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('rating-summary').first()).toHaveText('5.0 · 1 review', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
});

test('the coaches page filters and sorts on the server, kept in the URL', async ({ page, request }) => {
  const tag = uniqueTag();
  const specialty = `Sort${tag}`;
  await coachAt(request, `Cheap ${tag}`, specialty, 40);
  await coachAt(request, `Dear ${tag}`, specialty, 90);
  const client = await registerViaApi(request, 'client', `Looker ${tag}`);
  await signIn(page, client);

  await page.goto(`/coaches?specialty=${specialty}&sort=price`);
  const names = page.getByTestId('coach-card').getByRole('heading');
  await expect(names).toHaveText([`Cheap ${tag}`, `Dear ${tag}`]);
  await expect(page.getByTestId('coach-card').first().getByTestId('rating-summary')).toHaveText('New coach');

  await page.getByLabel('Sort by').selectOption('price_desc');
  await expect(page).toHaveURL(/sort=price_desc/);
  await expect(names).toHaveText([`Dear ${tag}`, `Cheap ${tag}`]);

  await page.getByLabel('Max price ($/hr)').fill('50');
  await expect(page).toHaveURL(/max_rate=50/);
  await expect(names).toHaveText([`Cheap ${tag}`]);

  await page.reload();
  await expect(page.getByLabel('Sort by')).toHaveValue('price_desc');
  await expect(names).toHaveText([`Cheap ${tag}`]);
});
