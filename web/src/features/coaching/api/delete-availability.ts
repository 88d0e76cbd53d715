import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { coachAvailabilityKey } from './get-coach-availability';
import type { AvailabilitySlot } from './types';

/** DELETE /api/availability/{slotId} (204), removing the slot from the list at once. */
export async function deleteAvailability(coachId: string, slotId: string) {
  const key = coachAvailabilityKey(coachId);
  await mutate<AvailabilitySlot[]>(
    key,
    async (current) => {
      await api.delete(`/availability/${encodeURIComponent(slotId)}`);
      return (current ?? []).filter((slot) => slot.slot_id !== slotId);
    },
    {
      optimisticData: (current) => (current ?? []).filter((slot) => slot.slot_id !== slotId),
      rollbackOnError: true,
      revalidate: true,
    },
  );
}
