import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { GYM_LOCATIONS_KEY } from './get-gym-locations';
import type { GymLocation } from './types';

/** What the location form sends: every field, null coordinates when not given. */
export type GymLocationInput = Complete<Schemas['GymLocationBody']>;

/** POST /api/gym/locations, then refresh the gym's locations. */
export async function createGymLocation(input: GymLocationInput) {
  const created = await api.post<GymLocation>(GYM_LOCATIONS_KEY, input);
  await mutate(GYM_LOCATIONS_KEY);
  return created;
}
