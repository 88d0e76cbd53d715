import type { CoachListing } from '../api/types';

/** SPEC §5: a case-insensitive substring match on the name or any specialty. */
export function matchesCoach(coach: CoachListing, text: string): boolean {
  const term = text.trim().toLowerCase();
  if (!term) return true;
  return (
    coach.coach_name.toLowerCase().includes(term) ||
    (coach.specialties ?? []).some((s) => s.toLowerCase().includes(term))
  );
}

export function filterCoaches(coaches: CoachListing[], text: string): CoachListing[] {
  return coaches.filter((coach) => matchesCoach(coach, text));
}

/** The public page's banner: how many coaches, their years together, distinct specialties. */
export function directoryStats(coaches: CoachListing[]) {
  const specialties = new Set(
    coaches.flatMap((c) => (c.specialties ?? []).map((s) => s.trim().toLowerCase())).filter(Boolean),
  );
  return {
    coaches: coaches.length,
    years: coaches.reduce((sum, c) => sum + (Number(c.years_experience) || 0), 0),
    specialties: specialties.size,
  };
}

/** SPEC §2: the bio shown when a coach has written none. */
export const BIO_FALLBACK = 'Professional coach dedicated to helping athletes achieve their goals.';

export const bioOrFallback = (bio: string | null | undefined) => (bio?.trim() ? bio : BIO_FALLBACK);
