/** Shapes of the coaching context, from the OpenAPI document (see `@/lib/api-types`). */
import type { Complete, Schemas } from '@/lib/api-types';

/** A coach as the directory and its searches list them; `distance` (miles) only from a nearby search. */
export type CoachListing = Schemas['CoachListing'];

export type CoachProfile = Schemas['CoachProfile'];

/** A coach's own training location. */
export type CoachLocation = Complete<Schemas['Location']>;

export type SlotType = Schemas['SlotType'];

/** A slot; its `slot_type` is "recurring", or anything else meaning a one-off date (SPEC §3). */
export type AvailabilitySlot = Complete<Schemas['Slot']>;
