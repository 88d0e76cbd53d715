import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  apiPost,
  coachWithWeeklySlot,
  gymWithRequestedCourtTime,
  registerViaApi,
  weekdayOf,
  type Session,
} from './support/api';
import { localDateFromToday } from './support/coach';
import { expectAccessible, expectGoodScreen } from './support/screen';
import { signIn, signInAsAdmin } from './support/session';

/**
 * Conversations (issue 36) in two browsers at once: a client writes to a coach they booked from
 * the coach's page, the coach sees it arrive live (a toast and the Messages count) and answers, and
 * the client sees the answer arrive in the open thread without a reload. Then the client reports
 * the coach's message, and the admin finds it in the Reports list, in context, and suspends them.
 */

/** The client's request for the coach's weekly slot on `date`, over the API: the two now share a
 * booking. */
async function requestBooking(request: APIRequestContext, client: Session, coach: Session, date: string) {
  const slots = (await (
    await request.get(`/api/availability/coach/${coach.user.user_id}`, {
      headers: { Authorization: `Bearer ${client.token}` },
    })
  ).json()) as { slot_id: string }[];
  await apiPost(request, client.token, '/bookings', {
    coach_id: coach.user.user_id,
    slot_id: slots[0].slot_id,
    booking_date: date,
  });
}

/** A page of its own browser context (its own localStorage), signed in as `session`. */
async function pageOf(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, session);
  return page;
}

/** A client and a coach who share a booking, each in their own browser. */
async function clientAndCoach(browser: Browser, request: APIRequestContext, page: Page) {
  const date = await localDateFromToday(page, 9);
  const { coach } = await coachWithWeeklySlot(request, weekdayOf(date));
  const client = await registerViaApi(request, 'client');
  await requestBooking(request, client, coach, date);
  return { client, coach, clientPage: await pageOf(browser, client), coachPage: await pageOf(browser, coach) };
}

/** Opens `path` and waits until its live stream is open (the gateway answers once subscribed), so
 * what is sent next arrives live. */
async function openLive(page: Page, path: string) {
  const streaming = page.waitForResponse((r) => r.url().endsWith('/api/notifications/stream') && r.ok());
  await page.goto(path);
  await streaming;
}

const thread = (page: Page, name: string) => page.getByRole('list', { name: `Messages with ${name}` });

test('a client and a coach exchange messages, each seeing the other’s live', async ({ browser, page, request }) => {
  const { client, coach, clientPage, coachPage } = await clientAndCoach(browser, request, page);
  await openLive(coachPage, '/coach/dashboard');
  await expect(coachPage.getByRole('link', { name: 'Messages', exact: true })).toBeVisible();

  // The client starts the thread from the coach's page.
  await clientPage.goto(`/coach/${coach.user.user_id}`);
  await clientPage.getByRole('link', { name: /^Message coach/ }).click();
  await expect(clientPage).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await expect(clientPage.getByRole('heading', { name: coach.user.full_name })).toBeVisible();
  await clientPage.getByRole('textbox', { name: `Message ${coach.user.full_name}` }).fill('Can we work on my jump shot? https://example.com/clip');
  await clientPage.getByRole('button', { name: 'Send' }).click();
  await expect(thread(clientPage, coach.user.full_name)).toContainText('Can we work on my jump shot?');
  await expectAccessible(clientPage, 'a client’s conversation');

  // The coach's open dashboard learns of it without a reload: a toast and the count.
  await expect(coachPage.getByText(`New message from ${client.user.full_name}`)).toBeVisible();
  await expect(coachPage.getByRole('link', { name: 'Messages, 1 unread' })).toBeVisible();
  await coachPage.getByRole('link', { name: 'Messages, 1 unread' }).click();
  await coachPage.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: new RegExp(client.user.full_name) }).click();
  const coachThread = thread(coachPage, client.user.full_name);
  await expect(coachThread).toContainText('Can we work on my jump shot?');
  // The URL in it is a link, opening elsewhere.
  await expect(coachThread.getByRole('link', { name: 'https://example.com/clip' })).toHaveAttribute(
    'rel',
    'noopener noreferrer nofollow',
  );
  // Opened, it is read: the count goes.
  await expect(coachPage.getByRole('link', { name: 'Messages', exact: true })).toBeVisible();
  await expectAccessible(coachPage, 'a coach’s conversation');

  // The coach answers; the client's open thread shows it without a reload.
  await coachPage.getByRole('textbox', { name: `Message ${client.user.full_name}` }).fill('Sure, bring your own ball.');
  await coachPage.keyboard.press('Enter');
  await expect(coachThread).toContainText('Sure, bring your own ball.');
  await expect(thread(clientPage, coach.user.full_name)).toContainText('Sure, bring your own ball.');
  await expect(clientPage.getByText(`New message from ${coach.user.full_name}`)).toHaveCount(0);

  // On a phone, one column: the thread with a way back to the list, then the list.
  await clientPage.setViewportSize({ width: 360, height: 740 });
  await expect(thread(clientPage, coach.user.full_name)).toBeVisible();
  await expectGoodScreen(clientPage, 'a conversation on a phone');
  // The thread's box clips what overflows, so the page alone would not show a too wide thread.
  const box = await thread(clientPage, coach.user.full_name).boundingBox();
  expect(box && box.x + box.width, 'the thread’s right edge on a 360 px screen').toBeLessThanOrEqual(360);
  await clientPage.getByRole('link', { name: 'All conversations' }).click();
  await expect(clientPage.getByRole('list', { name: 'Conversations' })).toBeVisible();
  await expectGoodScreen(clientPage, 'the conversations on a phone');
});

test('a reported message reaches the admin in context, who suspends its sender', async ({ browser, page, request, baseURL }) => {
  const { client, coach, clientPage, coachPage } = await clientAndCoach(browser, request, page);
  await clientPage.goto(`/messages?with=${coach.user.user_id}`);
  await clientPage.getByRole('textbox', { name: `Message ${coach.user.full_name}` }).fill('Is 6 pm fine?');
  await clientPage.keyboard.press('Enter');
  await expect(thread(clientPage, coach.user.full_name)).toContainText('Is 6 pm fine?');

  // The coach answers from the booking's Message button.
  await coachPage.goto('/coach/dashboard');
  await coachPage
    .getByTestId('booking')
    .filter({ hasText: client.user.full_name })
    .getByRole('link', { name: `Message ${client.user.full_name}` })
    .click();
  await coachPage.getByRole('textbox', { name: `Message ${client.user.full_name}` }).fill('Pay me in cash outside the app.');
  await coachPage.keyboard.press('Enter');

  const clientThread = thread(clientPage, coach.user.full_name);
  await expect(clientThread).toContainText('Pay me in cash outside the app.');
  await clientThread.getByRole('button', { name: new RegExp(`^Report message from ${coach.user.full_name}`) }).click();
  const dialog = clientPage.getByRole('dialog', { name: 'Report this message' });
  await dialog.getByRole('textbox', { name: 'Why are you reporting it?' }).fill('Asks for cash outside Courtside');
  await dialog.getByRole('button', { name: 'Report message' }).click();
  await expect(clientPage.getByText('Message reported')).toBeVisible();

  await signInAsAdmin(page, request, baseURL);
  await page.goto('/admin/dashboard');
  await page.getByRole('link', { name: 'Reports' }).click();
  const report = page.getByRole('listitem').filter({ hasText: `${client.user.full_name} reported ${coach.user.full_name}` });
  await expect(report).toContainText('Reason: Asks for cash outside Courtside');
  await expect(report).toContainText('Is 6 pm fine?');
  await expect(report).toContainText('Reported:');
  await expectAccessible(page, 'the admin’s Reports list');

  await report.getByRole('button', { name: `Suspend ${coach.user.full_name}` }).click();
  await page.getByRole('dialog', { name: `Suspend ${coach.user.full_name}?` }).getByRole('button', { name: 'Suspend' }).click();
  await expect(report.getByText('Suspended')).toBeVisible();
  // Their session ended at once.
  const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${coach.token}` } });
  expect(me.status()).toBe(401);
});

test('a gym writes to a coach from their court request, which the thread links to', async ({ browser, page, request }) => {
  const date = await localDateFromToday(page, 5);
  const { gym, coach } = await gymWithRequestedCourtTime(request, date);
  const gymPage = await pageOf(browser, gym);
  const coachPage = await pageOf(browser, coach);
  await openLive(coachPage, '/messages');
  await expect(coachPage.getByText('No conversations yet')).toBeVisible();

  await gymPage.goto('/gym/dashboard');
  await gymPage
    .getByTestId('pending-reservation')
    .getByRole('link', { name: `Message ${coach.user.full_name}` })
    .click();
  await expect(gymPage.getByText('You share 1 record')).toBeVisible();
  await gymPage.getByRole('textbox', { name: `Message ${coach.user.full_name}` }).fill('How many athletes will you bring?');
  await gymPage.keyboard.press('Enter');
  await expect(thread(gymPage, coach.user.full_name)).toContainText('How many athletes will you bring?');

  // The coach's open Messages page lists the new thread by itself.
  const conversations = coachPage.getByRole('list', { name: 'Conversations' });
  await conversations.getByRole('link', { name: new RegExp(gym.user.full_name) }).click();
  await expect(thread(coachPage, gym.user.full_name)).toContainText('How many athletes will you bring?');
  await coachPage.getByText('You share 1 record').click();
  await expect(coachPage.getByRole('link', { name: /^Court request, / })).toHaveAttribute(
    'href',
    /\/coach\/dashboard\?reservation=[0-9a-f-]{36}$/,
  );
});
