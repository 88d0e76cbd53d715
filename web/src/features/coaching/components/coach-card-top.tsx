/** The top of a coach's card in the directory and on the public page: who, how long, how rated,
 * and their first specialties. */
import type { CoachListing } from '../api/types';
import { CoachAvatar } from './coach-avatar';
import { RatingSummary } from './rating-summary';
import { SpecialtyBadges } from './specialty-badges';

export function CoachCardTop({ coach, specialties }: { coach: CoachListing; specialties: number }) {
  return (
    <>
      <div className="flex items-center gap-4">
        <CoachAvatar name={coach.coach_name} />
        <div className="min-w-0">
          <h3 className="truncate text-lg font-bold">{coach.coach_name}</h3>
          <p className="text-sm text-muted-foreground">{coach.years_experience} years experience</p>
          <RatingSummary average={coach.rating_average} count={coach.rating_count} />
        </div>
      </div>
      <div className="mt-4">
        <SpecialtyBadges specialties={coach.specialties ?? []} limit={specialties} />
      </div>
    </>
  );
}
