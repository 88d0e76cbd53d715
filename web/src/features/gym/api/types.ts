/**
 * Shapes of the gym context, from the OpenAPI document (see `@/lib/api-types`; ARCHITECTURE.md's
 * reservation flow).
 */
import { enumValues, type Complete, type Schemas } from '@/lib/api-types';

export type GymProfile = Schemas['GymProfile'];

/** A gym's location; a gym lists its own, a coach every gym's. */
export type GymLocation = Complete<Schemas['GymLocation']>;

export type CourtType = Schemas['CourtType'];

export const COURT_TYPES: readonly CourtType[] = enumValues<CourtType>({
  basketball: true,
  volleyball: true,
  'multi-purpose': true,
});

export type Court = Schemas['Court'];

/** One block of court time a gym offers; is_reserved once a request for it is approved. */
export type CourtAvailability = Schemas['CourtAvailability'];

export type ReservationStatus = Schemas['ReservationStatus'];

/** A coach's request for court time (the coach's list, the gym's pending list). */
export type CourtReservation = Schemas['CourtReservation'];
