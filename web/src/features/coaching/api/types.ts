/** Shapes of the coaching context, from the OpenAPI document (see `@/lib/api-types`). */
import type { Complete, Schemas } from '@/lib/api-types';

/** A coach as the directory and its searches list them; `distance` (miles) only from a nearby search. */
export type CoachListing = Schemas['CoachListing'];

export type CoachProfile = Schemas['CoachProfile'];

/** A coach's own training location. */
export type CoachLocation = Complete<Schemas['Location']>;

export type SlotType = Schemas['SlotType'];

/** A slot: "recurring" weekly on its `day_of_week`, or "one-time" on its `specific_date` (SPEC §3). */
export type AvailabilitySlot = Complete<Schemas['Slot']>;
