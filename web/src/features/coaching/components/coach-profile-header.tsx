import type * as React from 'react';
import { Card } from '@/components/ui/card';
import { formatAmount } from '@/lib/format';
import type { CoachProfile } from '../api/types';
import { CoachAvatar } from './coach-avatar';
import { RatingSummary } from './rating-summary';
import { SpecialtyBadges } from './specialty-badges';

/** The top card of /coach/{id}: who the coach is, their rate, specialties and bio; `actions`
 * (a client's "Message coach") under the rate. */
export function CoachProfileHeader({ profile, actions }: { profile: CoachProfile; actions?: React.ReactNode }) {
  return (
    <Card className="overflow-hidden">
      <div className="h-20 bg-gradient-to-r from-navy-900 via-navy-700 to-court-600" aria-hidden="true" />
      <div className="px-6 pb-6">
        <CoachAvatar name={profile.coach_name} className="-mt-10 size-20 border-4 border-white text-3xl" />
        <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-2xl font-extrabold tracking-tight text-navy-900">{profile.coach_name}</h1>
            <p className="text-sm text-muted-foreground">{profile.years_experience} years experience</p>
            <RatingSummary average={profile.rating_average} count={profile.rating_count} />
          </div>
          <div className="flex flex-col gap-2 sm:items-end">
            <p className="text-3xl font-extrabold text-navy-900">
              ${formatAmount(profile.hourly_rate)}
              <span className="text-base font-medium text-muted-foreground">/hour</span>
            </p>
            {actions}
          </div>
        </div>
        <div className="mt-5">
          <SpecialtyBadges specialties={profile.specialties ?? []} />
        </div>
        <section aria-labelledby="about-heading" className="mt-6">
          <h2 id="about-heading" className="text-sm font-bold uppercase tracking-wider text-muted-foreground">
            About
          </h2>
          <p className="mt-2 whitespace-pre-line leading-relaxed text-navy-800">{profile.bio}</p>
        </section>
      </div>
    </Card>
  );
}
