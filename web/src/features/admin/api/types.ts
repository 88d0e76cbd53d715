/** Shapes of the admin screens as /api sends them (SPEC.md §3). */
import type { Role, User } from '@/lib/auth';

export type { Role, User };

export const ROLES: readonly Role[] = ['admin', 'coach', 'client', 'gym'];

export interface WeekActivity {
  /** The Monday starting the week, YYYY-MM-DD. */
  week_start: string;
  signups: number;
  bookings: number;
}

export interface AdminStats {
  total_users: number;
  total_coaches: number;
  total_gyms: number;
  total_bookings: number;
  /** The last weeks, oldest first. */
  activity: WeekActivity[];
}

/** A client's profile as the admin's user detail carries it. */
export interface UserProfile {
  user_id: string;
  age: number | null;
  grade: string | null;
  sport: string | null;
  skill_level: string | null;
  profile_picture_url: string | null;
}

export interface UserDetail extends User {
  total_bookings: number;
  total_locations: number;
  profile: UserProfile | null;
}
