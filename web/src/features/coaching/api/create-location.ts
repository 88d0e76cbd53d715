import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { coachLocationsKey } from './get-coach-locations';
import { MY_LOCATIONS_KEY } from './get-my-locations';
import type { CoachLocation } from './types';

/** What the location form sends: every field, null coordinates when not given. */
export type LocationInput = Complete<Schemas['LocationBody']>;

/** POST /api/locations, then refresh the coach's lists (and the directory, which shows cities). */
export async function createLocation(coachId: string, input: LocationInput) {
  const created = await api.post<CoachLocation>('/locations', input);
  await Promise.all([
    mutate(MY_LOCATIONS_KEY),
    mutate(coachLocationsKey(coachId)),
    mutate('/coaches'),
  ]);
  return created;
}
