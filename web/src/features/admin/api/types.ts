/** Shapes of the admin screens, from the OpenAPI document (see `@/lib/api-types`). */
import type { Role, User } from '@/lib/auth';
import type { Complete, Schemas } from '@/lib/api-types';

export type { Role, User };

export const ROLES: readonly Role[] = ['admin', 'coach', 'client', 'gym'];

/** One week of the activity chart; `week_start` is the Monday, YYYY-MM-DD. */
export type WeekActivity = Schemas['WeekActivity'];

/** Issue 33's revenue, in whole cents (TODO: from the document once gateway/openapi.json has it):
 * every capture, the platform's fees less those refunds returned, every refund. */
export interface RevenueStats {
  gross_cents?: number;
  fees_cents?: number;
  refunds_cents?: number;
}

/** The totals and the last weeks' activity, oldest first. */
export type AdminStats = Schemas['Stats'] & RevenueStats;

/** A client's profile as the admin's user detail carries it. */
export type UserProfile = Complete<Schemas['ClientProfile']>;

/** One user with their totals and, for a client, the profile. */
export type UserDetail = User &
  Complete<Pick<Schemas['UserDetail'], 'total_bookings' | 'total_locations'>> & { profile: UserProfile | null };
