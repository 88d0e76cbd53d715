import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { gymProfileKey } from './get-gym-profile';
import type { GymProfile } from './types';

export interface GymProfileInput {
  gym_name: string;
  description: string;
  phone: string;
}

/** POST /api/gym/profile for the first save, PUT afterwards (SPEC §4). */
export async function saveGymProfile(userId: string, input: GymProfileInput, exists: boolean) {
  const saved = exists
    ? await api.put<GymProfile>('/gym/profile', input)
    : await api.post<GymProfile>('/gym/profile', input);
  await mutate(gymProfileKey(userId), saved, { revalidate: true });
  return saved;
}
