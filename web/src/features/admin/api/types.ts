/** Shapes of the admin screens, from the OpenAPI document (see `@/lib/api-types`). */
import type { Role, User } from '@/lib/auth';
import type { Complete, Schemas } from '@/lib/api-types';

export type { Role, User };

export const ROLES: readonly Role[] = ['admin', 'coach', 'client', 'gym'];

/** One week of the activity chart; `week_start` is the Monday, YYYY-MM-DD. */
export type WeekActivity = Schemas['WeekActivity'];

/** The totals and the last weeks' activity, oldest first; issue 33's revenue in whole cents
 * (every capture, the platform's fees less those refunds returned, every refund). */
export type AdminStats = Schemas['Stats'];

/** The revenue figures of the stats. */
export type RevenueStats = Pick<AdminStats, 'gross_cents' | 'fees_cents' | 'refunds_cents'>;

/** A client's profile as the admin's user detail carries it. */
export type UserProfile = Complete<Schemas['ClientProfile']>;

/** One user with their totals and, for a client, the profile. */
export type UserDetail = User &
  Complete<Pick<Schemas['UserDetail'], 'total_bookings' | 'total_locations'>> & { profile: UserProfile | null };
