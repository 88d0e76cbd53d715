/** Shapes of the gym context as /api sends them (SPEC.md §3, ARCHITECTURE.md's reservation flow). */

export interface GymProfile {
  gym_id: string;
  gym_name: string;
  description: string;
  phone: string;
}

/** A gym's location; a gym lists its own, a coach every gym's. */
export interface GymLocation {
  location_id: string;
  gym_id: string;
  gym_name: string;
  name: string;
  address: string;
  city: string;
  state: string;
  latitude: number | null;
  longitude: number | null;
}

export type CourtType = 'basketball' | 'volleyball' | 'multi-purpose';

export const COURT_TYPES: readonly CourtType[] = ['basketball', 'volleyball', 'multi-purpose'];

export interface Court {
  court_id: string;
  location_id: string;
  court_name: string;
  court_type: CourtType | string;
}

/** One block of court time a gym offers; is_reserved once a request for it is approved. */
export interface CourtAvailability {
  availability_id: string;
  court_id: string;
  location_id: string;
  /** YYYY-MM-DD */
  date: string;
  start_time: string;
  end_time: string;
  is_reserved: boolean;
  location_name: string;
  court_name: string;
}

export type ReservationStatus = 'pending' | 'approved' | 'denied' | 'cancelled' | (string & {});

/** A coach's request for court time (the coach's list, the gym's pending list). */
export interface CourtReservation {
  reservation_id: string;
  availability_id: string;
  coach_id: string;
  coach_name: string;
  gym_name: string;
  location_name: string;
  court_name: string;
  date: string;
  start_time: string;
  end_time: string;
  status: ReservationStatus;
}
