import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, uniqueTag, type Session } from './support/api';
import { addLocationViaUi, addSlotViaUi, createProfileViaUi, localDateFromToday } from './support/coach';
import { signIn, signOut } from './support/session';

/**
 * One coach sets up shop through the dashboard, then is found everywhere clients look, and a
 * client books them. Serial: each step builds on the one before.
 */
test.describe.configure({ mode: 'serial' });

test.describe('a coach publishes and is found', () => {
  const tag = uniqueTag();
  const coachName = `Coach ${tag}`;
  const specialty = `Skyhook${tag}`;
  const locationName = `Eastside ${tag}`;
  let coach: Session;
  let oneTimeDate: string;

  async function card(page: Page) {
    return page.getByTestId('coach-card').filter({ has: page.getByRole('heading', { name: coachName }) });
  }

  test('the coach creates a profile, a location, a weekly and a one-time slot', async ({ page, request }) => {
    coach = await registerViaApi(request, 'coach', coachName);
    await signIn(page, coach);
    await page.goto('/coach/dashboard');
    await expect(page.getByText('No profile created yet. Click "Create Profile" to get started.')).toBeVisible();
    await expect(page.getByText('No locations added yet.')).toBeVisible();
    await expect(page.getByText('No availability set yet.')).toBeVisible();

    await createProfileViaUi(page, {
      bio: 'Ten years of teaching footwork and finishing at the rim.',
      specialties: `${specialty}, Footwork , Finishing`,
      rate: '55',
      years: '10',
    });
    await expect(page.getByText('$55/hour')).toBeVisible();
    await expect(page.getByText('10 years')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();

    await addLocationViaUi(page, {
      name: locationName,
      address: '500 E Cesar Chavez St',
      court: '3',
      city: 'Austin',
      state: 'TX',
      lat: '30.2638',
      lng: '-97.7395',
    });
    await expect(page.getByText(locationName)).toBeVisible();

    await addSlotViaUi(page, { kind: 'recurring', start: '17:00', end: '18:00', location: `${locationName} - 3` });
    oneTimeDate = await localDateFromToday(page, 10);
    await addSlotViaUi(page, { kind: 'one-time', date: oneTimeDate, start: '08:00', end: '09:30' });

    const slots = page.getByRole('list', { name: 'Availability slots' });
    await expect(slots.getByText('Every Monday')).toBeVisible();
    await expect(slots.getByText(oneTimeDate)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Weekly schedule' }).getByRole('group', { name: 'Monday' })).toContainText('17:00 - 18:00');
  });

  test('the public page finds the coach by name and by specialty', async ({ page }) => {
    await page.goto('/expert-coaches');
    const search = page.getByPlaceholder('Search by name or specialty...');
    await search.fill(coachName);
    await expect(page.getByRole('heading', { name: '1 coaches found' })).toBeVisible();
    const found = await card(page);
    await expect(found).toContainText('10 years experience');
    await expect(found).toContainText('$55/hr');
    await expect(found).toContainText('Austin, TX');
    await search.fill(specialty.toLowerCase());
    await expect(await card(page)).toBeVisible();
    await found.getByRole('link', { name: 'Book Now' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signed-in clients find the coach by name, specialty and city', async ({ page, request }) => {
    const client = await registerViaApi(request, 'client');
    await signIn(page, client);
    await page.goto('/coaches');
    await expect(page.getByRole('heading', { name: 'Find Your Coach' })).toBeVisible();

    const filter = page.getByLabel('Name or specialty');
    await filter.fill(coachName);
    await expect(await card(page)).toBeVisible();
    await filter.fill(specialty);
    await expect(await card(page)).toBeVisible();
    await filter.fill(coachName);

    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('State').fill('TX');
    await page.getByRole('button', { name: 'Search Location' }).click();
    await expect(page.getByText(/^Found \d+ coaches( near .+)?$/)).toBeVisible();
    await expect(await card(page)).toBeVisible();

    await page.getByRole('button', { name: 'Show All' }).click();
    await expect(page.getByRole('status', { name: 'Search mode' })).toContainText('Showing all coaches');
    await (await card(page)).getByRole('link', { name: 'View Profile' }).click();
    await expect(page).toHaveURL(new RegExp(`/coach/${coach.user.user_id}$`));
  });

  test('the detail page shows the profile, the location and both slots, and a client books', async ({ page, request }) => {
    const client = await registerViaApi(request, 'client');
    await signIn(page, client);
    await page.goto(`/coach/${coach.user.user_id}`);

    await expect(page.getByRole('heading', { name: coachName })).toBeVisible();
    await expect(page.getByText('10 years experience')).toBeVisible();
    await expect(page.getByText('Where this coach offers sessions')).toBeVisible();
    await expect(page.getByText(locationName, { exact: true })).toBeVisible();
    await expect(page.getByText(`Book your session with ${coachName}`)).toBeVisible();

    const weekly = page.getByTestId('slot').filter({ hasText: 'Every Monday' });
    await expect(weekly).toContainText('17:00 - 18:00');
    await expect(weekly).toContainText(`${locationName} - 3`);
    const once = page.getByTestId('slot').filter({ hasText: oneTimeDate });
    await expect(once).toContainText('08:00 - 09:30');
    await expect(once).toContainText('Location TBD');

    await weekly.getByRole('button', { name: 'Book This Slot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Your Booking' });
    await expect(dialog.getByText(`Select a date for your session with ${coachName}`)).toBeVisible();
    await expect(dialog.getByText(/^Selected: Mon,/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirm Booking' }).click();
    await expect(page.getByText('Booking confirmed! Check your dashboard.')).toBeVisible();
    await expect(page).toHaveURL(/\/client\/dashboard$/);
  });

  test('the public listing needs no sign-in', async ({ page }) => {
    await page.goto('/');
    await signOut(page);
    await page.goto('/expert-coaches');
    await page.getByPlaceholder('Search by name or specialty...').fill(coachName);
    await expect(await card(page)).toBeVisible();
  });
});
