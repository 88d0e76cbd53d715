import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { CourtReservation } from './types';

/** GET /api/coach/court-reservations: the signed-in coach's requests for court time. */
export const COURT_RESERVATIONS_KEY = '/coach/court-reservations';

export const getCourtReservations = () => api.get<CourtReservation[]>(COURT_RESERVATIONS_KEY);

export function useCourtReservations() {
  return useSWR<CourtReservation[]>(COURT_RESERVATIONS_KEY, getCourtReservations, {
    // Pending requests expire at their start on the server's clock.
    refreshInterval: 60_000,
    onError: (error) => console.error('Failed to load court reservations', error),
  });
}
