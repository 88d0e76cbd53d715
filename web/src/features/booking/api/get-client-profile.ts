import useSWR from 'swr';
import { api, isNotFound } from '@/lib/api-client';
import { enumValues, type Complete, type Schemas } from '@/lib/api-types';

export type SkillLevel = Schemas['SkillLevel'];

export const SKILL_LEVELS: readonly SkillLevel[] = enumValues<SkillLevel>({
  beginner: true,
  intermediate: true,
  advanced: true,
});

/** SPEC §3 "Client profile"; every field but the id may be empty (null). */
export type ClientProfile = Complete<Schemas['ClientProfile']>;

/** GET /api/client/profile/{user_id}. */
export const clientProfileKey = (userId: string) => `/client/profile/${encodeURIComponent(userId)}`;

/** The profile, or null when the client has none yet (the server's 404, SPEC §4). */
export async function getClientProfile(userId: string): Promise<ClientProfile | null> {
  try {
    return await api.get<ClientProfile>(clientProfileKey(userId));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export function useClientProfile(userId: string) {
  // SPEC §8: a failed profile fetch is only logged.
  return useSWR<ClientProfile | null>(clientProfileKey(userId), () => getClientProfile(userId), {
    onError: (error) => console.error('Failed to load profile', error),
  });
}
