import useSWR from 'swr';
import { api, isNotFound } from '@/lib/api-client';
import type { GymProfile } from './types';

export type { GymProfile };

/** GET /api/gym/profile/{user_id}. */
export const gymProfileKey = (userId: string) => `/gym/profile/${encodeURIComponent(userId)}`;

/** The profile, or null when the gym has none yet (the server's 404, SPEC §4). */
export async function getGymProfile(userId: string): Promise<GymProfile | null> {
  try {
    return await api.get<GymProfile>(gymProfileKey(userId));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export function useGymProfile(userId: string) {
  return useSWR<GymProfile | null>(gymProfileKey(userId), () => getGymProfile(userId), {
    onError: (error) => console.error('Failed to load gym profile', error),
  });
}
