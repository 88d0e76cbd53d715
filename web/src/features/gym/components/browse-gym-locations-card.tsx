import { Building2, CalendarDays, Clock, Eye, List, Loader2, MapPin, Search } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { useCourtReservations } from '../api/get-court-reservations';
import { useCourts } from '../api/get-courts';
import { useGymLocations } from '../api/get-gym-locations';
import { useOpenAvailability } from '../api/get-open-availability';
import { requestCourtReservation } from '../api/request-court-reservation';
import type { CourtAvailability, GymLocation } from '../api/types';
import { filterGymLocations } from '../utils/filter-locations';
import { byDateAndTime, courtTypeLabel, timeRange } from './court-labels';

type View = { kind: 'closed' } | { kind: 'browse'; query: string } | { kind: 'detail'; location: GymLocation };

/**
 * "Browse Gym Locations" on the coach dashboard: search every gym's locations, browse them, and
 * open one to see its courts and request its open court time.
 */
export function BrowseGymLocationsCard({ className }: { className?: string }) {
  const { data: locations, isLoading } = useGymLocations();
  const [query, setQuery] = React.useState('');
  const [view, setView] = React.useState<View>({ kind: 'closed' });
  const all = locations ?? [];
  const matching = filterGymLocations(all, query);

  function onSearch(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setView({ kind: 'browse', query });
  }

  function onViewAll() {
    setQuery('');
    setView({ kind: 'browse', query: '' });
  }

  const close = () => setView({ kind: 'closed' });

  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Browse Gym Locations</CardTitle>
        <CardDescription>Find gyms with courts you can rent for your sessions.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading gym locations" />
          </div>
        ) : !all.length ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No gym locations available yet.
          </p>
        ) : (
          <>
            <form onSubmit={onSearch} className="flex flex-col gap-2 sm:flex-row" role="search">
              <div className="relative flex-1">
                <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
                <Input
                  aria-label="Search gym locations"
                  placeholder="Search by gym, location, city or state..."
                  className="pl-9"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                />
              </div>
              <div className="flex gap-2">
                <Button type="submit" variant="accent" className="flex-1 sm:flex-none">
                  <Search aria-hidden="true" />
                  Search Gyms
                </Button>
                <Button type="button" variant="outline" className="flex-1 sm:flex-none" onClick={onViewAll}>
                  <List aria-hidden="true" />
                  View All
                </Button>
              </div>
            </form>
            <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="gym-location-counts">
              <span className="font-semibold text-navy-900">{all.length}</span> gym{' '}
              {all.length === 1 ? 'location' : 'locations'} available
              {query.trim() ? (
                <>
                  {' · '}
                  <span className="font-semibold text-navy-900">{matching.length}</span> matching your search
                </>
              ) : null}
            </p>
          </>
        )}
      </CardContent>

      <Dialog open={view.kind === 'browse'} onOpenChange={(open) => (open ? undefined : close())}>
        <DialogContent className="sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>Gym Locations</DialogTitle>
            <DialogDescription>
              {view.kind === 'browse' && view.query.trim()
                ? `Locations matching "${view.query.trim()}"`
                : 'Every gym location on Courtside'}
            </DialogDescription>
          </DialogHeader>
          {view.kind === 'browse' ? (
            <LocationList
              locations={filterGymLocations(all, view.query)}
              onDetails={(location) => setView({ kind: 'detail', location })}
            />
          ) : null}
        </DialogContent>
      </Dialog>

      <Dialog open={view.kind === 'detail'} onOpenChange={(open) => (open ? undefined : close())}>
        <DialogContent className="sm:max-w-2xl">
          {view.kind === 'detail' ? <LocationDetails location={view.location} /> : null}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function LocationList({
  locations,
  onDetails,
}: {
  locations: GymLocation[];
  onDetails: (location: GymLocation) => void;
}) {
  if (!locations.length) {
    return (
      <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
        No locations found matching your search.
      </p>
    );
  }
  return (
    <ul aria-label="Gym locations" className="grid gap-3">
      {locations.map((location) => (
        <li
          key={location.location_id}
          data-testid="gym-location"
          className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="min-w-0 text-sm">
            <p className="font-semibold text-navy-900">{location.name}</p>
            <p className="flex items-center gap-1.5 text-navy-700">
              <Building2 className="size-4 shrink-0" aria-hidden="true" />
              {location.gym_name}
            </p>
            <p className="flex items-center gap-1.5 text-muted-foreground">
              <MapPin className="size-4 shrink-0" aria-hidden="true" />
              {location.city}, {location.state}
            </p>
          </div>
          <Button
            variant="outline"
            size="sm"
            className="self-start sm:self-center"
            aria-label={`View Details of ${location.name}`}
            onClick={() => onDetails(location)}
          >
            <Eye aria-hidden="true" />
            View Details
          </Button>
        </li>
      ))}
    </ul>
  );
}

function LocationDetails({ location }: { location: GymLocation }) {
  const { data: courts, isLoading: loadingCourts } = useCourts(location.location_id);
  const { data: open, isLoading: loadingOpen } = useOpenAvailability(location.location_id);
  const { data: mine } = useCourtReservations();
  const slots = React.useMemo(() => [...(open ?? [])].sort(byDateAndTime), [open]);
  // Court time this coach already asked for stays open until the gym answers: say so.
  const requested = new Set(mine?.filter((r) => r.status === 'pending').map((r) => r.availability_id));

  return (
    <div className="grid gap-5">
      <DialogHeader>
        <DialogTitle>{location.name}</DialogTitle>
        <DialogDescription>{location.gym_name}</DialogDescription>
      </DialogHeader>
      <div className="flex gap-3 text-sm">
        <MapPin className="mt-0.5 size-5 shrink-0 text-court-700" aria-hidden="true" />
        <div>
          <p className="text-navy-900">{location.address}</p>
          <p className="text-muted-foreground">
            {location.city}, {location.state}
          </p>
        </div>
      </div>

      <section aria-labelledby="detail-courts" className="space-y-2">
        <h3 id="detail-courts" className="text-sm font-bold text-navy-900">
          Courts
        </h3>
        {loadingCourts ? (
          <Spinner className="size-5" label="Loading courts" />
        ) : !courts?.length ? (
          <p className="text-sm text-muted-foreground">No courts listed yet</p>
        ) : (
          <ul aria-label="Courts" className="grid gap-2 sm:grid-cols-2">
            {courts.map((court) => (
              <li key={court.court_id} className="flex items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm">
                <span className="font-medium text-navy-900">{court.court_name}</span>
                <Badge variant="secondary">{courtTypeLabel(court.court_type)}</Badge>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="detail-open-time" className="space-y-2">
        <h3 id="detail-open-time" className="text-sm font-bold text-navy-900">
          Open Court Time
        </h3>
        {loadingOpen ? (
          <Spinner className="size-5" label="Loading open court time" />
        ) : !slots.length ? (
          <p className="text-sm text-muted-foreground">No open court time right now.</p>
        ) : (
          <ul aria-label="Open court time" className="grid gap-2">
            {slots.map((slot) => (
              <OpenSlot
                key={slot.availability_id}
                slot={slot}
                locationId={location.location_id}
                requested={requested.has(slot.availability_id)}
              />
            ))}
          </ul>
        )}
      </section>

      <p className="rounded-lg bg-muted/60 p-3 text-sm text-navy-800">
        Contact the gym to inquire about court availability and reservation.
      </p>
    </div>
  );
}

function OpenSlot({
  slot,
  locationId,
  requested,
}: {
  slot: CourtAvailability;
  locationId: string;
  requested: boolean;
}) {
  const [requesting, setRequesting] = React.useState(false);

  async function onRequest() {
    setRequesting(true);
    try {
      await requestCourtReservation(slot.availability_id, locationId);
      toast.success('Court reservation requested');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to request reservation'));
    } finally {
      setRequesting(false);
    }
  }

  return (
    <li data-testid="open-court-time" className="flex items-center justify-between gap-3 rounded-md border px-3 py-2 text-sm">
      <div className="min-w-0">
        <p className="font-medium text-navy-900">{slot.court_name}</p>
        <p className="flex flex-wrap gap-x-3 text-muted-foreground">
          <span className="inline-flex items-center gap-1.5">
            <CalendarDays className="size-3.5" aria-hidden="true" />
            {formatDisplayDate(slot.date)}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Clock className="size-3.5" aria-hidden="true" />
            {timeRange(slot)}
          </span>
        </p>
      </div>
      {requested ? (
        <Badge variant="warning">Requested</Badge>
      ) : (
      <Button
        size="sm"
        variant="accent"
        disabled={requesting}
        aria-label={`Request ${slot.court_name} on ${formatDisplayDate(slot.date)} ${timeRange(slot)}`}
        onClick={() => void onRequest()}
      >
        {requesting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        Request
      </Button>
      )}
    </li>
  );
}
