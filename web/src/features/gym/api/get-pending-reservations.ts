import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { CourtReservation } from './types';

/** GET /api/gym/pending-reservations: coaches' requests waiting for this gym. */
export const PENDING_RESERVATIONS_KEY = '/gym/pending-reservations';

export const getPendingReservations = () => api.get<CourtReservation[]>(PENDING_RESERVATIONS_KEY);

/** Requests expire at their start on the server's clock: read the list again every minute. */
export const PENDING_REFRESH_MS = 60_000;

export function usePendingReservations() {
  return useSWR<CourtReservation[]>(PENDING_RESERVATIONS_KEY, getPendingReservations, {
    refreshInterval: PENDING_REFRESH_MS,
    onError: (error) => console.error('Failed to load pending reservations', error),
  });
}

/** The requests still waiting at `now`: pending, and not yet at their start (then they expire). */
export function stillPending(reservations: CourtReservation[] | undefined, now: Date): CourtReservation[] {
  return (reservations ?? []).filter(
    (r) => r.status === 'pending' && !(Date.parse(r.starts_at) <= now.getTime()),
  );
}
