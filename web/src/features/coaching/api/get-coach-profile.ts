import useSWR, { type SWRConfiguration } from 'swr';
import { api, isNotFound } from '@/lib/api-client';
import type { CoachProfile } from './types';

export type { CoachProfile };

/** GET /api/coach/profile/{coachId}. */
export const coachProfileKey = (coachId: string) => `/coach/profile/${encodeURIComponent(coachId)}`;

/** The profile, or null when the coach has none yet (the server's 404, SPEC §4). */
export async function getCoachProfile(coachId: string): Promise<CoachProfile | null> {
  try {
    return await api.get<CoachProfile>(coachProfileKey(coachId));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

export function useCoachProfile(
  coachId: string | undefined,
  config?: SWRConfiguration<CoachProfile | null>,
) {
  return useSWR<CoachProfile | null>(
    coachId ? coachProfileKey(coachId) : null,
    () => getCoachProfile(coachId as string),
    config,
  );
}
