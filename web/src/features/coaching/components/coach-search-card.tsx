import { ChevronRight, MapPin, Navigation } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatAmount, formatMiles } from '@/lib/format';
import type { CoachListing } from '../api/types';
import { bioOrFallback } from '../utils/filter-coaches';
import { CoachCardTop } from './coach-card-top';

/** A coach on /coaches: the whole card, or View Profile, opens /coach/{coach_id}. */
export function CoachSearchCard({ coach }: { coach: CoachListing }) {
  const navigate = useNavigate();
  const href = paths.coachDetail.getHref(coach.coach_id);
  const hasDistance = typeof coach.distance === 'number' && Number.isFinite(coach.distance);
  return (
    <Card
      className="flex h-full cursor-pointer flex-col p-6 transition hover:-translate-y-0.5 hover:border-court-300 hover:shadow-md"
      onClick={(event) => {
        // Let the real link handle its own clicks (and modifier-clicks for new tabs).
        if ((event.target as HTMLElement).closest('a')) return;
        navigate(href);
      }}
      data-testid="coach-card"
    >
      <CoachCardTop coach={coach} specialties={3} />
      {coach.locations?.length ? (
        <ul aria-label="Locations" className="mt-3 space-y-1 text-sm text-muted-foreground">
          {coach.locations.map((location, i) => (
            <li key={`${location.city}-${location.state}-${i}`} className="flex items-center gap-1.5">
              <MapPin className="size-4 shrink-0" aria-hidden="true" />
              {location.city}, {location.state}
            </li>
          ))}
        </ul>
      ) : null}
      {hasDistance ? (
        <p className="mt-2 inline-flex items-center gap-1.5 text-sm font-semibold text-court-700">
          <Navigation className="size-4" aria-hidden="true" />
          {formatMiles(coach.distance as number)} miles away
        </p>
      ) : null}
      <p className="mt-3 line-clamp-3 text-sm leading-relaxed text-navy-700">{bioOrFallback(coach.bio)}</p>
      <div className="mt-auto flex items-center justify-between gap-3 pt-5">
        <p className="text-xl font-extrabold text-navy-900">
          ${formatAmount(coach.hourly_rate)}
          <span className="text-sm font-medium text-muted-foreground">/hr</span>
        </p>
        <Button asChild variant="default" size="sm">
          <Link to={href}>
            View Profile
            <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </Card>
  );
}
