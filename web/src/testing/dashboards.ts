/**
 * Every call a role's dashboard makes, answered as for someone with nothing on record yet, for
 * `renderApp`'s `api`. A test passes what it is about in `extra`; the mock fails a test on any
 * call left out, so these lists are the pages' whole traffic.
 */
import { DEFAULT_POLICY } from '@/features/booking/utils/booking-policy';
import { paymentMethod } from './fixtures';
import type { Role } from '@/lib/auth';

type Api = Record<string, unknown>;

/** /coach/dashboard for coach `coachId`: no profile, places, slots, bookings, time off or reviews. */
export function coachDashboardApi(extra: Api = {}, coachId = 'coach-1'): Api {
  return {
    [`GET /coach/profile/${coachId}`]: { status: 404, body: { detail: 'Coach profile not found' } },
    'GET /locations': [],
    [`GET /availability/coach/${coachId}`]: [],
    'GET /bookings': [],
    'GET /coach/policy': DEFAULT_POLICY,
    'GET /coach/exceptions': [],
    [`GET /coach/${coachId}/reviews`]: [],
    'GET /gym/locations': [],
    'GET /coach/court-reservations': [],
    'GET /coach/earnings': { month: '2026-11', currency: 'usd', held_cents: 0, paid_cents: 0, fees_cents: 0, net_cents: 0, lines: [] },
    ...extra,
  };
}

/** /gym/dashboard for gym `gymId`: no profile, locations, open court time or requests. A test
 * that lists a location declares its courts and closures. */
export function gymDashboardApi(extra: Api = {}, gymId = 'gym-1'): Api {
  return {
    [`GET /gym/profile/${gymId}`]: { status: 404, body: { detail: 'Gym profile not found' } },
    'GET /gym/locations': [],
    'GET /gym/court-availability': [],
    'GET /gym/pending-reservations': [],
    ...extra,
  };
}

/** /client/dashboard for client `clientId`: no profile and no bookings; one saved card (Visa
 * 4242, the default), so a paid booking on the way there goes through. */
export function clientDashboardApi(extra: Api = {}, clientId = 'client-1'): Api {
  return {
    'GET /bookings': [],
    'GET /client/payment-methods': [paymentMethod()],
    [`GET /client/profile/${clientId}`]: { status: 404, body: { detail: 'Client profile not found' } },
    ...extra,
  };
}

/**
 * /coach/:coachId as a visitor sees it, beside the coach's profile, places and slots (in `extra`):
 * the default policy, no reviews, and a calendar the page cannot read, so that the booking dialog
 * goes by the slots' own rules (as it does when the calendar fails); a test of the calendar
 * declares one.
 */
export function coachPageApi(extra: Api = {}, coachId = 'coach-1'): Api {
  return {
    [`GET /availability/coach/${coachId}/calendar`]: { status: 404, body: { detail: 'No calendar here' } },
    [`GET /coach/policy/${coachId}`]: DEFAULT_POLICY,
    [`GET /coach/${coachId}/reviews`]: [],
    // The booking dialog of a paid slot shows the card it will be held on: the visitor has one.
    'GET /client/payment-methods': [paymentMethod()],
    ...extra,
  };
}

/** /admin/dashboard: no statistics, users, audit trail or reviews. */
export function adminDashboardApi(extra: Api = {}): Api {
  return {
    'GET /admin/stats': {
      total_users: 0,
      total_coaches: 0,
      total_gyms: 0,
      total_bookings: 0,
      gross_cents: 0,
      fees_cents: 0,
      refunds_cents: 0,
      activity: [],
    },
    'GET /admin/users': [],
    'GET /admin/audit': [],
    'GET /admin/reviews': [],
    'GET /admin/payments': [],
    ...extra,
  };
}

/** The empty dashboard of `role` for the user `userId` (the one a sign-in lands on). */
export function dashboardApi(role: Role, userId: string, extra: Api = {}): Api {
  switch (role) {
    case 'admin':
      return adminDashboardApi(extra);
    case 'coach':
      return coachDashboardApi(extra, userId);
    case 'gym':
      return gymDashboardApi(extra, userId);
    case 'client':
      return clientDashboardApi(extra, userId);
  }
}
