import type { AvailabilitySlot, CoachLocation } from '../api/types';
import { WEEKDAYS } from '@/lib/dates';

export const isRecurring = (slot: Pick<AvailabilitySlot, 'slot_type'>) => slot.slot_type === 'recurring';

/** "Every Monday" for a recurring slot, otherwise its specific_date (SPEC §2). */
export function slotWhen(slot: AvailabilitySlot): string {
  return isRecurring(slot) ? `Every ${slot.day_of_week ?? ''}`.trim() : (slot.specific_date ?? '');
}

/** "start_time - end_time". */
export const slotTime = (slot: Pick<AvailabilitySlot, 'start_time' | 'end_time'>) =>
  `${slot.start_time} - ${slot.end_time}`;

/** "name - court_number", or "Location TBD" when the slot's location is not among `locations`. */
export function slotLocation(slot: AvailabilitySlot, locations: CoachLocation[] | undefined): string {
  const location = slot.location_id
    ? locations?.find((l) => l.location_id === slot.location_id)
    : undefined;
  return location ? `${location.name} - ${location.court_number}` : 'Location TBD';
}

/** "Court 2" for a court_number of "2"; one that already says "Court …" as it is; "" for none. */
export function courtLabel(courtNumber: string | null | undefined): string {
  const court = (courtNumber ?? '').trim();
  if (!court) return '';
  return /^court\b/i.test(court) ? court : `Court ${court}`;
}

/** Recurring slots by weekday then start; then one-time slots by date then start. */
export function sortSlots(slots: AvailabilitySlot[]): AvailabilitySlot[] {
  const dayIndex = (day: string | null) =>
    WEEKDAYS.findIndex((d) => d.toLowerCase() === (day ?? '').toLowerCase());
  return [...slots].sort((a, b) => {
    const ra = isRecurring(a);
    const rb = isRecurring(b);
    if (ra !== rb) return ra ? -1 : 1;
    const byWhen = ra
      ? dayIndex(a.day_of_week) - dayIndex(b.day_of_week)
      : (a.specific_date ?? '').localeCompare(b.specific_date ?? '');
    return byWhen || a.start_time.localeCompare(b.start_time);
  });
}

/**
 * The IANA zone a slot's times are written in: its location's, else the coach profile's (issue 16:
 * "the zone of a slot that has no location"); undefined while neither is known.
 */
export function slotTimeZone(
  slot: { location_id: string | null },
  locations: CoachLocation[] | undefined,
  coachTimeZone: string | null | undefined,
): string | undefined {
  const location = slot.location_id ? locations?.find((l) => l.location_id === slot.location_id) : undefined;
  return location?.time_zone || coachTimeZone || undefined;
}
