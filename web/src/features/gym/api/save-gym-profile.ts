import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { gymProfileKey } from './get-gym-profile';
import type { GymProfile } from './types';

/** What the profile form sends: every field. */
export type GymProfileInput = Complete<Schemas['GymProfileBody']>;

/** POST /api/gym/profile for the first save, PUT afterwards (SPEC §4). */
export async function saveGymProfile(userId: string, input: GymProfileInput, exists: boolean) {
  const saved = exists
    ? await api.put<GymProfile>('/gym/profile', input)
    : await api.post<GymProfile>('/gym/profile', input);
  await mutate(gymProfileKey(userId), saved, { revalidate: true });
  return saved;
}
