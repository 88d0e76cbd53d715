/**
 * A gym's places and court time for component tests: Downtown Athletic's Main Hall (loc-1) in
 * Chicago's zone, Court A (court-1), an hour of court time (av-1) and a coach's request for it
 * (r-1), from 09:00 to 10:00 on `date` unless told otherwise.
 */
import type { Court, CourtAvailability, CourtReservation, GymLocation } from '@/features/gym/api/types';
import { zonedInstant } from '@/lib/zoned-time';

type Times = { date?: string; start_time?: string; end_time?: string; starts_at?: string; ends_at?: string };

export function gymFixtures(date: string) {
  /** starts_at and ends_at from the date and times on Chicago's wall clock, unless given. */
  const instants = (o: Times) => {
    const day = o.date ?? date;
    return {
      starts_at: o.starts_at ?? zonedInstant(day, o.start_time ?? '09:00', 'America/Chicago')!.toISOString(),
      ends_at: o.ends_at ?? zonedInstant(day, o.end_time ?? '10:00', 'America/Chicago')!.toISOString(),
    };
  };

  const location = (overrides: Partial<GymLocation> = {}): GymLocation => ({
    location_id: 'loc-1',
    gym_id: 'gym-1',
    gym_name: 'Downtown Athletic',
    name: 'Main Hall',
    address: '1 Court Way',
    city: 'Austin',
    state: 'TX',
    latitude: null,
    longitude: null,
    time_zone: 'America/Chicago',
    ...overrides,
  });

  const court = (overrides: Partial<Court> = {}): Court => ({
    court_id: 'court-1',
    location_id: 'loc-1',
    court_name: 'Court A',
    court_type: 'basketball',
    ...overrides,
  });

  const availability = (overrides: Partial<CourtAvailability> = {}): CourtAvailability => ({
    availability_id: 'av-1',
    court_id: 'court-1',
    location_id: 'loc-1',
    date,
    start_time: '09:00',
    end_time: '10:00',
    is_reserved: false,
    location_name: 'Main Hall',
    court_name: 'Court A',
    time_zone: 'America/Chicago',
    reservation_id: null,
    ...overrides,
    ...instants(overrides),
  });

  const reservation = (overrides: Partial<CourtReservation> = {}): CourtReservation => ({
    reservation_id: 'r-1',
    availability_id: 'av-1',
    coach_id: 'coach-1',
    gym_id: 'gym-1',
    coach_name: 'Maya Thompson',
    gym_name: 'Downtown Athletic',
    location_name: 'Main Hall',
    court_name: 'Court A',
    date,
    start_time: '09:00',
    end_time: '10:00',
    status: 'pending',
    time_zone: 'America/Chicago',
    cancellation_reason: null,
    ...overrides,
    ...instants(overrides),
  });

  return { location, court, availability, reservation };
}
