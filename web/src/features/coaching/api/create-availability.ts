import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { coachAvailabilityKey } from './get-coach-availability';
import type { AvailabilitySlot, SlotType } from './types';

/** What the slot form sends: every field, null where it does not apply. */
export type AvailabilityInput = Complete<Omit<Schemas['SlotBody'], 'slot_type'>> & { slot_type: SlotType };

/** POST /api/availability, then refresh this coach's slots. */
export async function createAvailability(coachId: string, input: AvailabilityInput) {
  const created = await api.post<AvailabilitySlot>('/availability', input);
  await mutate(coachAvailabilityKey(coachId));
  return created;
}
