import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { clientProfileKey, type ClientProfile, type SkillLevel } from './get-client-profile';

/** What the profile form sends: every field, null when empty. */
export type ClientProfileInput = Complete<Omit<Schemas['ClientProfileBody'], 'skill_level'>> & {
  skill_level: SkillLevel | null;
};

/** What the profile form holds: text, as typed. */
export interface ClientProfileForm {
  age: string;
  grade: string;
  sport: string;
  skill_level: SkillLevel | '';
  profile_picture_url: string;
}

const orNull = (text: string) => (text.trim() ? text.trim() : null);

/** SPEC §5: age parsed to an integer; empty fields sent as null. */
export function toClientProfileInput(form: ClientProfileForm): ClientProfileInput {
  const age = Number.parseInt(form.age, 10);
  return {
    age: Number.isFinite(age) ? age : null,
    grade: orNull(form.grade),
    sport: orNull(form.sport),
    skill_level: form.skill_level || null,
    profile_picture_url: orNull(form.profile_picture_url),
  };
}

/** POST /api/client/profile for the first save, PUT afterwards (SPEC §4). */
export async function saveClientProfile(userId: string, input: ClientProfileInput, exists: boolean) {
  const saved = exists
    ? await api.put<ClientProfile>('/client/profile', input)
    : await api.post<ClientProfile>('/client/profile', input);
  await mutate(clientProfileKey(userId), saved, { revalidate: true });
  return saved;
}
