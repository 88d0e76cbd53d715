import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { CourtAvailability } from './types';

export type { CourtAvailability };

/** GET /api/gym/court-availability: every availability of the signed-in gym's courts. */
export const COURT_AVAILABILITY_KEY = '/gym/court-availability';

export const getCourtAvailability = () => api.get<CourtAvailability[]>(COURT_AVAILABILITY_KEY);

export function useCourtAvailability() {
  return useSWR<CourtAvailability[]>(COURT_AVAILABILITY_KEY, getCourtAvailability, {
    onError: (error) => console.error('Failed to load court availability', error),
  });
}
