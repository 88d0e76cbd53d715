/**
 * Helpers that talk to the real /api directly (no UI), to arrange a test quickly: register a user,
 * create a coach's profile, location and slots.
 */
import { expect, type APIRequestContext } from '@playwright/test';

export type Role = 'client' | 'coach' | 'gym';

export interface User {
  user_id: string;
  email: string;
  full_name: string;
  phone: string | null;
  role: Role | 'admin';
  created_at: string;
}

export interface Session {
  token: string;
  user: User;
  password: string;
}

/** An email no other test run has used. */
export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@e2e.test`;
}

/** A short unique suffix for names that searches must find exactly. */
/** The password every made-up person signs in with: strong enough for the password rule. */
export const FIXTURE_PASSWORD = 'Courtside-fixture-2026';
/** A second strong password, for a reset to one that differs from the first. */
export const NEW_FIXTURE_PASSWORD = 'Courtside-renewed-2026';

export function uniqueTag() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * A new user of `role`, signed in over the API. A client gets a saved card (Visa 4242, their
 * default), so the paid sessions a test books are held on it (issue 33); `{ card: false }` makes
 * a client with none.
 */
export async function registerViaApi(
  request: APIRequestContext,
  role: Role,
  fullName = `E2E ${role} ${uniqueTag()}`,
  options: { card?: boolean } = {},
): Promise<Session> {
  const password = FIXTURE_PASSWORD;
  const response = await request.post('/api/auth/register', {
    data: { email: uniqueEmail(role), password, full_name: fullName, phone: null, role },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { token: string; user: User };
  const session = { ...body, password };
  if (role === 'client' && options.card !== false) await addCardViaApi(request, session);
  return session;
}

/**
 * Saves a card for `client` as the browser would: POST /api/client/payment-methods/setup, then
 * the SetupIntent confirmed with the card's details the way localstripe's Stripe.js does it (the
 * test mesh's js_url is localstripe's, behind nginx's same-origin /stripe/ proxy).
 */
export async function addCardViaApi(request: APIRequestContext, client: Pick<Session, 'token'>, number = '4242424242424242') {
  const config = (await (await request.get('/api/payments/config')).json()) as { publishable_key: string; js_url: string };
  const setup = await apiPost<{ setup_intent_id: string; client_secret: string }>(
    request,
    client.token,
    '/client/payment-methods/setup',
    {},
  );
  const stripeBase = config.js_url.replace(/\/js\.stripe\.com\/v3\/$/, '');
  const confirmed = await request.post(`${stripeBase}/v1/setup_intents/${setup.setup_intent_id}/confirm`, {
    data: {
      key: config.publishable_key,
      use_stripe_sdk: true,
      client_secret: setup.client_secret,
      payment_method_data: {
        type: 'card',
        card: { number, exp_month: '12', exp_year: '2034', cvc: '123' },
        billing_details: { address: { postal_code: '78701' } },
      },
    },
  });
  expect(confirmed.ok(), `confirming the card: ${confirmed.status()} ${await confirmed.text()}`).toBeTruthy();
  // The server keeps a mirror of the client's cards: the new one shows there once it is saved.
  await expect
    .poll(async () => {
      const cards = await request.get('/api/client/payment-methods', { headers: auth(client.token) });
      return cards.ok() ? ((await cards.json()) as { last4: string }[]).map((c) => c.last4) : [];
    })
    .toContain(number.slice(-4));
}

function auth(token: string) {
  return { Authorization: `Bearer ${token}` };
}

export async function apiPost<T>(request: APIRequestContext, token: string, path: string, data: unknown) {
  const response = await request.post(`/api${path}`, { data, headers: auth(token) });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

/** A coach with a profile, a location and a weekly slot on `weekday`, arranged over the API. */
export async function coachWithWeeklySlot(request: APIRequestContext, weekday: string) {
  const tag = uniqueTag();
  const coach = await registerViaApi(request, 'coach', `Coach ${tag}`);
  await apiPost(request, coach.token, '/coach/profile', {
    bio: 'Guards and wings: footwork, finishing and reading the defence.',
    specialties: ['Finishing', `Tag${tag}`],
    hourly_rate: 60,
    years_experience: 7,
  });
  const location = await apiPost<{ location_id: string }>(request, coach.token, '/locations', {
    name: `Westside ${tag}`,
    address: '200 W 2nd St',
    court_number: '4',
    city: 'Austin',
    state: 'TX',
    latitude: 30.2655,
    longitude: -97.7467,
  });
  await apiPost(request, coach.token, '/availability', {
    slot_type: 'recurring',
    day_of_week: weekday,
    specific_date: null,
    start_time: '18:00',
    end_time: '19:00',
    location_id: location.location_id,
  });
  return { coach, locationName: `Westside ${tag}` };
}

/** The weekday name (Monday..Sunday) of a YYYY-MM-DD date. */
export function weekdayOf(date: string) {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
}

/**
 * A gym with a location, a court and court time on `date` 07:00-08:30, and a coach who has asked
 * for that time: the gym's dashboard shows one pending request.
 */
export async function gymWithRequestedCourtTime(request: APIRequestContext, date: string) {
  const tag = uniqueTag();
  const gym = await registerViaApi(request, 'gym', `Gym owner ${tag}`);
  await apiPost(request, gym.token, '/gym/profile', { gym_name: `Hoops ${tag}`, description: 'Four courts.', phone: '512-555-0199' });
  const location = await apiPost<{ location_id: string }>(request, gym.token, '/gym/locations', {
    name: `Riverside ${tag}`,
    address: '900 Riverside Dr',
    city: 'Austin',
    state: 'TX',
    latitude: null,
    longitude: null,
  });
  const court = await apiPost<{ court_id: string }>(request, gym.token, `/gym/locations/${location.location_id}/courts`, {
    court_name: 'Court 1',
    court_type: 'basketball',
  });
  const time = await apiPost<{ availability_id: string }>(request, gym.token, '/gym/court-availability', {
    court_id: court.court_id,
    date,
    start_time: '07:00',
    end_time: '08:30',
  });
  const coach = await registerViaApi(request, 'coach', `Court coach ${tag}`);
  await apiPost(request, coach.token, '/coach/court-reservations', { availability_id: time.availability_id });
  return { gym, coach };
}
