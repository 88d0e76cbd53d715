import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { refreshBookings } from './get-bookings';

/** A coach's time off: dates (inclusive) none of their slots can be booked on, with the ids of
 * the active bookings already on them (`conflicts`). */
export type TimeOff = Complete<Schemas['TimeOff']>;

export type TimeOffInput = Schemas['TimeOffBody'];

/** GET /api/coach/exceptions: the signed-in coach's time off that has not ended, soonest first. */
export const TIME_OFF_KEY = '/coach/exceptions';

export const getTimeOff = () => api.get<TimeOff[]>(TIME_OFF_KEY);

export function useTimeOff() {
  return useSWR<TimeOff[]>(TIME_OFF_KEY, getTimeOff);
}

/** POST /api/coach/exceptions; answers the time off with its conflicts. */
export async function createTimeOff(input: TimeOffInput) {
  const reason = input.reason?.trim();
  const made = await api.post<TimeOff>(TIME_OFF_KEY, { ...input, reason: reason ? reason : null });
  await mutate(TIME_OFF_KEY);
  return made;
}

/** DELETE /api/coach/exceptions/{id}: its dates can be booked again. */
export async function deleteTimeOff(exceptionId: string) {
  await api.delete(`${TIME_OFF_KEY}/${encodeURIComponent(exceptionId)}`);
  await mutate(TIME_OFF_KEY);
}

/** After a conflicting booking is cancelled or denied: the bookings and the conflicts change. */
export const refreshTimeOff = () => Promise.all([mutate(TIME_OFF_KEY), refreshBookings()]);
