/** Small, readable server data for component tests. */
import type { Booking } from '@/features/booking/api/get-bookings';
import type { PaymentMethod } from '@/features/booking/api/payments';
import type { CalendarDay, Unbookable } from '@/features/booking/api/get-coach-calendar';
import type {
  AvailabilitySlot,
  CoachListing,
  CoachLocation,
  CoachProfile,
} from '@/features/coaching/api/types';

export function coachListing(overrides: Partial<CoachListing> = {}): CoachListing {
  return {
    coach_id: 'coach-1',
    coach_name: 'Maya Thompson',
    years_experience: 8,
    specialties: ['Shooting', 'Defense'],
    locations: [{ city: 'Austin', state: 'TX' }],
    bio: 'Former college guard.',
    hourly_rate: 65,
    distance: null,
    rating_average: null,
    rating_count: 0,
    ...overrides,
  };
}

export function coachProfile(overrides: Partial<CoachProfile> = {}): CoachProfile {
  return {
    coach_id: 'coach-1',
    coach_name: 'Maya Thompson',
    bio: 'Former college guard who loves teaching footwork.',
    specialties: ['Shooting', 'Defense'],
    hourly_rate: 65,
    years_experience: 8,
    time_zone: 'America/Chicago',
    rating_average: null,
    rating_count: 0,
    rating_distribution: [0, 0, 0, 0, 0],
    ...overrides,
  };
}

export function coachLocation(overrides: Partial<CoachLocation> = {}): CoachLocation {
  return {
    location_id: 'loc-1',
    name: 'Eastside Rec',
    address: '12 Court St',
    court_number: '2',
    city: 'Austin',
    state: 'TX',
    latitude: 30.26,
    longitude: -97.74,
    time_zone: 'America/Chicago',
    ...overrides,
  };
}

export function slot(overrides: Partial<AvailabilitySlot> = {}): AvailabilitySlot {
  return {
    slot_id: 'slot-1',
    slot_type: 'recurring',
    day_of_week: 'Friday',
    specific_date: null,
    start_time: '17:00',
    end_time: '18:00',
    location_id: 'loc-1',
    ...overrides,
  };
}

/** One occurrence of slot `slotId` on `date` in a coach's calendar (17:00-18:00 in Chicago),
 * bookable unless a `reason` is given. */
export function calendarDay(date: string, reason: Unbookable | null = null, slotId = 'weekly'): CalendarDay {
  return {
    slot_id: slotId,
    date,
    start_time: '17:00',
    end_time: '18:00',
    time_zone: 'America/Chicago',
    starts_at: `${date}T22:00:00Z`,
    ends_at: `${date}T23:00:00Z`,
    location_name: 'Eastside Rec',
    bookable: reason === null,
    reason,
  };
}

/** Casey Jordan's pending session with Maya Thompson, 17:00-18:00 in Chicago on a Friday far
 * ahead (2099-03-14, free to cancel until the day before). */
export function booking(overrides: Partial<Booking> = {}): Booking {
  return {
    booking_id: 'b-1',
    coach_id: 'coach-1',
    coach_name: 'Maya Thompson',
    client_id: 'client-1',
    client_name: 'Casey Jordan',
    slot_id: 'slot-1',
    booking_date: '2025-03-14',
    start_time: '17:00',
    end_time: '18:00',
    location_name: 'Eastside Rec',
    time_zone: 'America/Chicago',
    starts_at: '2099-03-14T22:00:00Z',
    ends_at: '2099-03-14T23:00:00Z',
    status: 'pending',
    payment_status: 'pending',
    price_cents: 6500,
    currency: 'usd',
    amount_paid_cents: 0,
    amount_refunded_cents: 0,
    created_at: '2025-03-01T10:00:00Z',
    late_cancellation: false,
    free_cancellation_until: '2099-03-13T22:00:00Z',
    cancelled_by: null,
    cancellation_reason: null,
    rescheduled_from: null,
    rescheduled_to: null,
    review: null,
    ...overrides,
  };
}

/** The same session on 14 March 2025 itself (past for a test's clock after it). */
export const booking2025 = (overrides: Partial<Booking> = {}): Booking =>
  booking({
    starts_at: '2025-03-14T22:00:00Z',
    ends_at: '2025-03-14T23:00:00Z',
    free_cancellation_until: '2025-03-13T22:00:00Z',
    ...overrides,
  });

/** Casey's Visa ending 4242, their default card. */
export function paymentMethod(overrides: Partial<PaymentMethod> = {}): PaymentMethod {
  return {
    payment_method_id: 'pm-visa',
    brand: 'visa',
    last4: '4242',
    exp_month: 12,
    exp_year: 2034,
    is_default: true,
    ...overrides,
  };
}
