import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/lib/api-types';
import { courtsKey } from './get-courts';
import type { Court, CourtType } from './types';

/** What the court form sends: a type always chosen. */
export type CourtInput = Omit<Schemas['CourtBody'], 'court_type'> & { court_type: CourtType };

/** POST /api/gym/locations/{location_id}/courts, then refresh that location's courts. */
export async function createCourt(locationId: string, input: CourtInput) {
  const created = await api.post<Court>(courtsKey(locationId), input);
  await mutate(courtsKey(locationId));
  return created;
}
