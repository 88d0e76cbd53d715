import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { coachAvailabilityKey } from './get-coach-availability';
import type { AvailabilitySlot, SlotType } from './types';

export interface AvailabilityInput {
  slot_type: SlotType;
  /** Monday..Sunday; recurring slots only. */
  day_of_week: string | null;
  /** YYYY-MM-DD; one-time slots only. */
  specific_date: string | null;
  start_time: string;
  end_time: string;
  location_id: string | null;
}

/** POST /api/availability, then refresh this coach's slots. */
export async function createAvailability(coachId: string, input: AvailabilityInput) {
  const created = await api.post<AvailabilitySlot>('/availability', input);
  await mutate(coachAvailabilityKey(coachId));
  return created;
}
