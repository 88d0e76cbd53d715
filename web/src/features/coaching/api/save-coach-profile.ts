import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { COACHES_KEY } from './get-coaches';
import { coachProfileKey } from './get-coach-profile';
import type { CoachProfile } from './types';

/** What the profile form sends: every field. */
export type CoachProfileInput = Complete<Schemas['CoachProfileBody']>;

/** What the profile form holds: text, as typed. */
export interface CoachProfileForm {
  bio: string;
  specialties: string;
  hourly_rate: string;
  years_experience: string;
  /** The coach's IANA zone: the browser's for a new profile; empty sends null (kept as it is). */
  time_zone: string;
}

/** SPEC §5: specialties split on commas and trimmed; rate a float and years an integer, 0 if not. */
export function toCoachProfileInput(form: CoachProfileForm): CoachProfileInput {
  const rate = Number.parseFloat(form.hourly_rate);
  const years = Number.parseInt(form.years_experience, 10);
  return {
    bio: form.bio,
    specialties: form.specialties
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    hourly_rate: Number.isFinite(rate) ? rate : 0,
    years_experience: Number.isFinite(years) ? years : 0,
    time_zone: form.time_zone.trim() || null,
  };
}

/** POST /api/coach/profile when there is none yet, PUT when there is (SPEC §4). */
export async function saveCoachProfile(coachId: string, input: CoachProfileInput, exists: boolean) {
  const saved = exists
    ? await api.put<CoachProfile>('/coach/profile', input)
    : await api.post<CoachProfile>('/coach/profile', input);
  await Promise.all([mutate(coachProfileKey(coachId)), mutate(COACHES_KEY)]);
  return saved;
}
