import { MapPin } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatAmount } from '@/lib/format';
import type { CoachListing } from '../api/types';
import { bioOrFallback } from '../utils/filter-coaches';
import { CoachCardTop } from './coach-card-top';

/** A coach on the public /expert-coaches page: booking starts with signing in. */
export function PublicCoachCard({ coach }: { coach: CoachListing }) {
  const firstLocation = coach.locations?.[0];
  return (
    <Card className="flex h-full flex-col p-6 transition hover:shadow-md" data-testid="coach-card">
      <CoachCardTop coach={coach} specialties={4} />
      {firstLocation ? (
        <p className="mt-3 flex items-center gap-1.5 text-sm text-muted-foreground">
          <MapPin className="size-4 shrink-0" aria-hidden="true" />
          {firstLocation.city}, {firstLocation.state}
        </p>
      ) : null}
      <p className="mt-3 line-clamp-3 text-sm leading-relaxed text-navy-700">{bioOrFallback(coach.bio)}</p>
      <div className="mt-auto flex items-center justify-between gap-3 pt-5">
        <p className="text-xl font-extrabold text-navy-900">${formatAmount(coach.hourly_rate)}/hr</p>
        <Button asChild variant="accent">
          <Link to={paths.login.getHref()}>Book Now</Link>
        </Button>
      </div>
    </Card>
  );
}
