/**
 * Which calendar dates a slot can be booked on. The server refuses a date that does not fit the
 * slot (its weekday for a recurring slot, its date for a one-time slot) or is in the past, so the
 * calendar disables those days instead of letting a booking fail.
 */
import { formatLocalDate, parseLocalDate, startOfLocalDay, weekdayOf } from '@/lib/dates';

/** The parts of a slot that decide its dates. */
export interface BookableSlot {
  slot_type: string;
  day_of_week: string | null;
  specific_date: string | null;
}

const isRecurring = (slot: BookableSlot) => slot.slot_type === 'recurring';

/** True when `date` (a local day) fits the slot, ignoring whether it is in the past. */
export function slotFitsDate(slot: BookableSlot, date: Date): boolean {
  if (isRecurring(slot)) {
    return weekdayOf(date).toLowerCase() === (slot.day_of_week ?? '').trim().toLowerCase();
  }
  return formatLocalDate(date) === slot.specific_date;
}

/** True when the calendar should offer `date` for this slot, given today. */
export function isBookableDate(slot: BookableSlot, date: Date, today: Date = new Date()): boolean {
  return startOfLocalDay(date) >= startOfLocalDay(today) && slotFitsDate(slot, date);
}

/**
 * The date the dialog starts on: today when today fits; otherwise the slot's next date (the next
 * matching weekday, or the one-time date if it is still ahead); undefined when there is none.
 */
export function defaultBookingDate(slot: BookableSlot, today: Date = new Date()): Date | undefined {
  const start = startOfLocalDay(today);
  if (isRecurring(slot)) {
    for (let i = 0; i < 7; i += 1) {
      const candidate = new Date(start.getFullYear(), start.getMonth(), start.getDate() + i);
      if (slotFitsDate(slot, candidate)) return candidate;
    }
    return undefined;
  }
  const date = parseLocalDate(slot.specific_date);
  return date && date >= start ? date : undefined;
}

/** The request's booking_date: the local calendar date picked, never shifted to UTC. */
export const toBookingDate = formatLocalDate;
