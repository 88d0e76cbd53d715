import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { CourtReservation } from './types';

/** GET /api/gym/pending-reservations: coaches' requests waiting for this gym. */
export const PENDING_RESERVATIONS_KEY = '/gym/pending-reservations';

export const getPendingReservations = () => api.get<CourtReservation[]>(PENDING_RESERVATIONS_KEY);

export function usePendingReservations() {
  return useSWR<CourtReservation[]>(PENDING_RESERVATIONS_KEY, getPendingReservations, {
    onError: (error) => console.error('Failed to load pending reservations', error),
  });
}
