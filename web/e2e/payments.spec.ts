import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPost, registerViaApi, uniqueTag, type Session } from './support/api';
import { addCardViaUi, DECLINED_CARD } from './support/payments';
import { expectAccessible, expectGoodScreen } from './support/screen';
import { signIn, signInAsAdmin } from './support/session';

/**
 * Issue 33 in the browser: a client adds a card through Stripe Elements (localstripe's Stripe.js
 * on the test mesh), books a paid session, and once it has taken place sees it paid and its
 * receipt; the coach sees the money in Earnings; the admin sees it in Payments and refunds part.
 */

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

/** A coach at $60 an hour in Austin. */
async function paidCoach(request: APIRequestContext, name: string) {
  const coach = await registerViaApi(request, 'coach', name);
  await apiPost(request, coach.token, '/coach/profile', {
    bio: 'Footwork, finishing and reading the defence.',
    specialties: ['Finishing'],
    hourly_rate: 60,
    years_experience: 6,
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

interface BookingMoney {
  booking_id: string;
  status: string;
  payment_status: string;
  price_cents: number;
  amount_paid_cents: number;
}

async function bookingsOf(request: APIRequestContext, who: Session) {
  const response = await request.get('/api/bookings', { headers: { Authorization: `Bearer ${who.token}` } });
  expect(response.ok()).toBeTruthy();
  return (await response.json()) as BookingMoney[];
}

test('a card added through Elements pays for a session: held, charged after it, on the receipt and in the earnings', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(420_000);
  const tag = uniqueTag();
  const { coach, locationId } = await paidCoach(request, `Paid ${tag}`);
  let start = austin(2);
  let end = austin(3);
  if (start.date !== end.date) {
    // A slot cannot cross midnight in Austin: wait for the new day there and take its first minutes.
    await new Promise((resolve) => setTimeout(resolve, 120_000));
    start = austin(2);
    end = austin(3);
  }
  await apiPost(request, coach.token, '/availability', {
    slot_type: 'one-time',
    day_of_week: null,
    specific_date: start.date,
    start_time: start.time,
    end_time: end.time,
    location_id: locationId,
  });
  const client = await registerViaApi(request, 'client', `Payer ${tag}`, { card: false });
  await signIn(page, client);

  // The card, through Stripe's card element.
  await page.goto('/client/dashboard');
  const cards = page.locator('#payment-methods');
  await expect(cards.getByText('No cards yet. Add one to book paid sessions.')).toBeVisible();
  await page.getByRole('button', { name: 'Add Card' }).click();
  await expect(page.getByTestId('card-element').getByPlaceholder('number')).toBeVisible();
  await expectAccessible(page, 'the Add a card dialog');
  await page.keyboard.press('Escape');
  const dialog = await addCardViaUi(page);
  await expect(page.getByText('Card added')).toBeVisible();
  await expect(dialog).toBeHidden();
  const card = page.getByTestId('payment-method');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Visa •••• 4242');
  await expect(card).toContainText('Expires 12/34');
  await expect(card).toContainText('Default');

  // The booking: its price, its card and what will happen.
  await page.goto(`/coach/${coach.user.user_id}`);
  await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).click();
  const booking = page.getByRole('dialog', { name: 'Confirm Your Booking' });
  const money = booking.getByRole('region', { name: 'Payment' });
  await expect(money).toContainText('$1.00 for 1 min');
  await expect(money.getByTestId('booking-card')).toHaveText('Card: Visa •••• 4242');
  await expect(money.getByRole('list', { name: 'What will happen' })).toContainText(
    'Held on your card now, charged after the session.',
  );
  await expectAccessible(page, 'the booking dialog with its payment');
  await booking.getByRole('button', { name: 'Confirm Booking' }).click();
  await expect(page.getByText('Booking confirmed! Check your dashboard.')).toBeVisible();

  const [made] = await bookingsOf(request, client);
  expect(made.price_cents).toBe(100);
  const approved = await request.patch(`/api/coach/bookings/${made.booking_id}/approve`, {
    headers: { Authorization: `Bearer ${coach.token}` },
  });
  expect(approved.status()).toBe(200);
  await expect
    .poll(async () => (await bookingsOf(request, client)).find((b) => b.booking_id === made.booking_id)?.payment_status, {
      timeout: 60_000,
    })
    .toBe('authorized');

  // After the session: completed, charged in full.
  await expect
    .poll(
      async () => {
        const now = (await bookingsOf(request, client)).find((b) => b.booking_id === made.booking_id);
        return `${now?.status} ${now?.payment_status} ${now?.amount_paid_cents}`;
      },
      { timeout: 300_000, intervals: [5_000] },
    )
    .toBe('completed paid 100');

  await page.goto('/client/dashboard');
  const row = page.getByTestId('booking').filter({ hasText: `Paid ${tag}` });
  await expect(row.getByTestId('payment-status')).toHaveText('Paid $1.00');
  await row.getByRole('link', { name: /^Receipt: / }).click();
  await expect(page).toHaveURL(new RegExp(`/bookings/${made.booking_id}/receipt$`));
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('Visa •••• 4242');
  await expect(receipt).toContainText(`Paid ${tag}`);
  await expect(receipt.getByTestId('receipt-totals')).toContainText('Total$1.00');
  await expect(receipt.getByTestId('receipt-line').filter({ hasText: 'Charged' })).toContainText('$1.00');
  await expectAccessible(page, 'the receipt');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectGoodScreen(page, 'the receipt on a phone');
  await page.setViewportSize({ width: 1280, height: 720 });

  // The coach's earnings: $1.00 paid, the platform's 10 % fee, $0.90 net.
  await signIn(page, coach);
  await page.goto('/coach/dashboard');
  const figures = page.getByTestId('earnings-figures');
  await expect(figures).toContainText(/Paid in .*\$1\.00/);
  await expect(figures).toContainText('Platform fees$0.10');
  await expect(figures).toContainText('Net$0.90');
  await expect(page.getByTestId('earnings-line')).toContainText('$1.00fee $0.10net $0.90');
  await expectAccessible(page, 'the coach dashboard with earnings');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('heading', { name: 'Earnings' }).scrollIntoViewIfNeeded();
  await expectGoodScreen(page, 'the coach dashboard with earnings on a phone');
  await page.setViewportSize({ width: 1280, height: 720 });

  // The admin: the payment in the list, and a partial refund with a reason.
  await signInAsAdmin(page, request, baseURL);
  await page.goto('/admin/dashboard');
  const payments = page.locator('.rounded-lg').filter({ has: page.getByRole('heading', { name: 'Payments' }) });
  const listed = payments.getByTestId('admin-payment').filter({ hasText: `Payer ${tag}` });
  await expect(listed).toContainText('paid $1.00');
  await listed.getByRole('button', { name: /^Refund / }).click();
  const refund = page.getByRole('dialog', { name: 'Refund' });
  await expect(refund.getByLabel('Amount ($)')).toHaveValue('1.00');
  await expectAccessible(page, 'the Refund dialog');
  await refund.getByLabel('Amount ($)').fill('0.25');
  await refund.getByLabel('Reason').fill('The court lights failed for a few minutes');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByText('Refunded $0.25', { exact: true })).toBeVisible();
  await expect
    .poll(async () => (await bookingsOf(request, client)).find((b) => b.booking_id === made.booking_id)?.payment_status, {
      timeout: 60_000,
    })
    .toBe('partially_refunded');
  await signIn(page, client);
  await page.goto('/client/dashboard');
  await expect(page.getByTestId('booking').filter({ hasText: `Paid ${tag}` }).getByTestId('payment-status')).toHaveText(
    'Refunded $0.25 of $1.00',
  );
});

test('a card the provider refuses is not saved, and a paid slot without a card asks for one first', async ({
  page,
  request,
}) => {
  const tag = uniqueTag();
  const { coach, locationId } = await paidCoach(request, `Strict ${tag}`);
  const day = austin(3 * 24 * 60);
  await apiPost(request, coach.token, '/availability', {
    slot_type: 'one-time',
    day_of_week: null,
    specific_date: day.date,
    start_time: '18:00',
    end_time: '19:00',
    location_id: locationId,
  });
  const client = await registerViaApi(request, 'client', `Declined ${tag}`, { card: false });
  await signIn(page, client);
  await page.goto('/client/dashboard');
  const dialog = await addCardViaUi(page, DECLINED_CARD);
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save Card' })).toBeEnabled();
  await page.keyboard.press('Escape');
  await expect(page.getByText('No cards yet. Add one to book paid sessions.')).toBeVisible();

  await page.goto(`/coach/${coach.user.user_id}`);
  await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).click();
  const booking = page.getByRole('dialog', { name: 'Confirm Your Booking' });
  await expect(booking.getByRole('region', { name: 'Payment' })).toContainText('$60.00 for 60 min');
  await expect(booking.getByText('Add a card first', { exact: true })).toBeVisible();
  await expect(booking.getByRole('button', { name: 'Confirm Booking' })).toBeDisabled();
  // The server agrees: a paid slot and no card is a 402 with a way to add one.
  const refused = await request.post('/api/bookings', {
    headers: { Authorization: `Bearer ${client.token}` },
    data: { coach_id: coach.user.user_id, slot_id: (await slotsOf(request, coach))[0], booking_date: day.date },
  });
  expect(refused.status()).toBe(402);
  expect(((await refused.json()) as { detail: string }).detail).toMatch(/card/i);
});

async function slotsOf(request: APIRequestContext, coach: Session) {
  const response = await request.get(`/api/availability/coach/${coach.user.user_id}`, {
    headers: { Authorization: `Bearer ${coach.token}` },
  });
  return ((await response.json()) as { slot_id: string }[]).map((s) => s.slot_id);
}
