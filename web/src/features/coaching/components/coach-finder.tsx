import { Crosshair, List, Loader2, MapPin, Search, SearchX } from 'lucide-react';
import * as React from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { geocodePlace } from '../api/geocode';
import { useCoaches, useFilteredCoaches } from '../api/get-coaches';
import { cityCoachesKey, searchCoachesByCity, useCityCoaches, type CityParams } from '../api/search-coaches-city';
import {
  NEARBY_RADIUS_MILES,
  nearbyCoachesKey,
  searchCoachesNearby,
  useNearbyCoaches,
  type NearbyParams,
} from '../api/search-coaches-nearby';
import type { CoachListing } from '../api/types';
import { anyFilter, filterParams, readFilters, writeFilters, type DirectoryFilters } from '../utils/directory-filters';
import { filterCoaches } from '../utils/filter-coaches';
import { CoachCardSkeletons } from './coach-card-skeletons';
import { CoachSearchCard } from './coach-search-card';
import { DirectoryFiltersBar } from './directory-filters-bar';

/** SPEC §4 "Coach search mode": all, nearby or city. */
type SearchMode =
  | { kind: 'all' }
  | { kind: 'nearby'; params: NearbyParams; /** A place name, or null for "your location". */ place: string | null }
  | { kind: 'city'; params: CityParams };

/** The /coaches search: text filter, a place search, Find Near Me and Show All. */
export function CoachFinder() {
  const { mutate } = useSWRConfig();
  const [mode, setMode] = React.useState<SearchMode>({ kind: 'all' });
  const [text, setText] = React.useState('');
  const [city, setCity] = React.useState('');
  const [state, setState] = React.useState('');
  const [busy, setBusy] = React.useState<null | 'place' | 'near'>(null);

  // Specialty, price, rating and order live in the URL (shareable, kept on reload); the server
  // applies them to the directory and to both searches.
  const [query, setQuery] = useSearchParams();
  const filters = readFilters(query);
  const params = filterParams(filters);
  const filtered = anyFilter(filters);
  const setFilters = (next: DirectoryFilters) => setQuery(writeFilters(query, next), { replace: true });
  const onLoadError = () => toast.error('Failed to load coaches', { id: 'load-coaches' });

  const whole = useCoaches({ onError: onLoadError });
  const some = useFilteredCoaches(mode.kind === 'all' && filtered ? params : null, {
    onError: onLoadError,
    keepPreviousData: true,
  });
  const all = filtered ? some : whole;
  const nearby = useNearbyCoaches(mode.kind === 'nearby' ? mode.params : null, { keepPreviousData: true }, params);
  const byCity = useCityCoaches(mode.kind === 'city' ? mode.params : null, { keepPreviousData: true }, params);
  const active = mode.kind === 'all' ? all : mode.kind === 'nearby' ? nearby : byCity;
  const coaches = filterCoaches(active.data ?? [], text);

  /** Runs a search and keeps its result in the SWR cache under the search's key. */
  async function load(key: string, search: Promise<CoachListing[]>) {
    return ((await mutate(key, search, { revalidate: false })) ?? []) as CoachListing[];
  }

  async function runNearby(params: NearbyParams, place: string | null) {
    const found = await load(nearbyCoachesKey(params, filterParams(filters)), searchCoachesNearby(params, filterParams(filters)));
    setMode({ kind: 'nearby', params, place });
    return found;
  }

  async function onPlaceSearch(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const params = { city: city.trim(), state: state.trim() };
    if (!params.city && !params.state) {
      toast.error('Please enter a city or state');
      return;
    }
    setBusy('place');
    try {
      // Geocoding is best effort: without a match (or without the service) search by city.
      const place = await geocodePlace(params.city, params.state).catch(() => null);
      if (place?.found && place.lat !== null && place.lng !== null) {
        const name = place.name || [params.city, params.state].filter(Boolean).join(', ');
        try {
          const found = await runNearby({ lat: place.lat, lng: place.lng, radius: NEARBY_RADIUS_MILES }, name);
          toast.success(`Found ${found.length} coaches near ${name}`);
        } catch (error) {
          toast.error(errorMessage(error, 'Failed to find nearby coaches'));
        }
        return;
      }
      try {
        const found = await load(cityCoachesKey(params, filterParams(filters)), searchCoachesByCity(params, filterParams(filters)));
        setMode({ kind: 'city', params });
        toast.success(`Found ${found.length} coaches`);
      } catch (error) {
        toast.error(errorMessage(error, 'Failed to search coaches'));
      }
    } finally {
      setBusy(null);
    }
  }

  function onFindNearMe() {
    if (!('geolocation' in navigator) || !navigator.geolocation) {
      toast.error('Geolocation is not supported by your browser');
      return;
    }
    setBusy('near');
    navigator.geolocation.getCurrentPosition(
      async (position) => {
        try {
          const found = await runNearby(
            { lat: position.coords.latitude, lng: position.coords.longitude, radius: NEARBY_RADIUS_MILES },
            null,
          );
          toast.success(`Found ${found.length} coaches within 25 miles`);
        } catch (error) {
          toast.error(errorMessage(error, 'Failed to find nearby coaches'));
        } finally {
          setBusy(null);
        }
      },
      () => {
        setBusy(null);
        toast.error('Unable to get your location. Please enable location services.');
      },
      { timeout: 15_000, maximumAge: 300_000 },
    );
  }

  function onShowAll() {
    setMode({ kind: 'all' });
    setCity('');
    setState('');
    void all.mutate();
  }


  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="space-y-5 pt-6">
          <div className="space-y-2">
            <Label htmlFor="coach-filter">Name or specialty</Label>
            <div className="relative">
              <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
              <Input
                id="coach-filter"
                type="search"
                placeholder="Search by name or specialty..."
                value={text}
                onChange={(e) => setText(e.target.value)}
                className="pl-9"
              />
            </div>
          </div>
          <form onSubmit={onPlaceSearch} aria-label="Search by location" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
            <div className="space-y-2">
              <Label htmlFor="coach-city">City</Label>
              <Input id="coach-city" value={city} onChange={(e) => setCity(e.target.value)} placeholder="e.g. Austin" autoComplete="address-level2" />
            </div>
            <div className="space-y-2">
              <Label htmlFor="coach-state">State</Label>
              <Input id="coach-state" value={state} onChange={(e) => setState(e.target.value)} placeholder="e.g. TX" autoComplete="address-level1" />
            </div>
            <Button type="submit" variant="accent" disabled={busy !== null}>
              {busy === 'place' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <MapPin aria-hidden="true" />}
              Search Location
            </Button>
          </form>
          <DirectoryFiltersBar filters={filters} onChange={setFilters} />
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={onFindNearMe} disabled={busy !== null}>
              {busy === 'near' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Crosshair aria-hidden="true" />}
              Find Near Me
            </Button>
            <Button variant="outline" onClick={onShowAll} disabled={busy !== null}>
              <List aria-hidden="true" />
              Show All
            </Button>
          </div>
        </CardContent>
      </Card>

      <ModeBanner mode={mode} count={active.data?.length} />

      {active.isLoading ? (
        <CoachCardSkeletons label="Loading coaches" />
      ) : coaches.length === 0 ? (
        <EmptyState icon={<SearchX />} title="No coaches found" description="Try adjusting your search criteria" />
      ) : (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {coaches.map((coach) => (
            <li key={coach.coach_id}>
              <CoachSearchCard coach={coach} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ModeBanner({ mode, count }: { mode: SearchMode; count: number | undefined }) {
  let text: string;
  if (mode.kind === 'all') {
    text = 'Showing all coaches';
  } else if (mode.kind === 'nearby') {
    text = `Showing coaches within ${mode.params.radius ?? NEARBY_RADIUS_MILES} miles of ${mode.place ?? 'your location'}`;
  } else {
    text = `Showing coaches in ${[mode.params.city, mode.params.state].filter(Boolean).join(', ')}`;
  }
  return (
    <div
      role="status"
      aria-label="Search mode"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-court-200 bg-court-50 px-4 py-3 text-sm text-court-900"
    >
      <span className="font-semibold">{text}</span>
      {count !== undefined ? <span className="text-court-800">{count} total</span> : null}
    </div>
  );
}
