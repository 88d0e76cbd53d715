/** Shapes of the coaching context as /api sends them (SPEC.md §3). */

/** A coach as the directory and its searches list them. */
export interface CoachListing {
  coach_id: string;
  coach_name: string;
  years_experience: number;
  specialties: string[];
  locations: { city: string; state: string }[];
  /** Miles from the searched point; nearby search only. */
  distance?: number | null;
  bio: string | null;
  hourly_rate: number;
}

export interface CoachProfile {
  coach_id: string;
  coach_name: string;
  bio: string | null;
  specialties: string[];
  hourly_rate: number;
  years_experience: number;
}

/** A coach's own training location. */
export interface CoachLocation {
  location_id: string;
  name: string;
  address: string;
  court_number: string;
  city: string;
  state: string;
  latitude: number | null;
  longitude: number | null;
}

export type SlotType = 'recurring' | 'one-time';

export interface AvailabilitySlot {
  slot_id: string;
  /** "recurring", or anything else meaning a one-off date (SPEC §3). */
  slot_type: SlotType | string;
  day_of_week: string | null;
  specific_date: string | null;
  start_time: string;
  end_time: string;
  location_id: string | null;
}
