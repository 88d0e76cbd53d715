import { Loader2, MapPin, Plus } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { TimeZoneField, timeZoneProblem } from '@/components/forms/time-zone-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { createCourt } from '../api/create-court';
import { createGymLocation, toCoordinate } from '../api/create-gym-location';
import { useCourts } from '../api/get-courts';
import { useGymLocations } from '../api/get-gym-locations';
import { COURT_TYPES, type CourtType, type GymLocation } from '../api/types';
import { courtTypeLabel } from './court-labels';

/** "Locations & Courts" on the gym dashboard: the gym's locations, each with its courts. */
export function LocationsCourtsCard({ className }: { className?: string }) {
  const { data: locations, isLoading } = useGymLocations();
  const [addingLocation, setAddingLocation] = React.useState(false);
  // The Add Court dialog: closed (undefined), or open for a location ('' when none is chosen yet).
  const [courtFor, setCourtFor] = React.useState<string | undefined>(undefined);
  // The card's own Add Court: with a single location there is nothing to choose, so it is chosen.
  const onlyLocation = locations?.length === 1 ? locations[0].location_id : '';

  return (
    <Card className={className}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Locations &amp; Courts</CardTitle>
          <CardDescription>Your facilities and the courts coaches can rent.</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => setCourtFor(onlyLocation)}>
            <Plus aria-hidden="true" />
            Add Court
          </Button>
          <Dialog open={addingLocation} onOpenChange={setAddingLocation}>
            <DialogTrigger asChild>
              <Button variant="accent" size="sm">
                <Plus aria-hidden="true" />
                Add Location
              </Button>
            </DialogTrigger>
            <DialogContent>
              {addingLocation ? <LocationForm onSaved={() => setAddingLocation(false)} /> : null}
            </DialogContent>
          </Dialog>
        </div>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading locations" />
          </div>
        ) : !locations?.length ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No locations added yet.
          </p>
        ) : (
          <ul aria-label="Gym locations" className="grid gap-3">
            {locations.map((location) => (
              <LocationItem
                key={location.location_id}
                location={location}
                onAddCourt={() => setCourtFor(location.location_id)}
              />
            ))}
          </ul>
        )}
      </CardContent>
      <Dialog open={courtFor !== undefined} onOpenChange={(open) => (open ? undefined : setCourtFor(undefined))}>
        <DialogContent>
          {courtFor !== undefined ? (
            <CourtForm
              locations={locations ?? []}
              initialLocationId={courtFor}
              onSaved={() => setCourtFor(undefined)}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function LocationItem({ location, onAddCourt }: { location: GymLocation; onAddCourt: () => void }) {
  const { data: courts, isLoading } = useCourts(location.location_id);
  return (
    <li data-testid="gym-location" className="rounded-lg border p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 gap-3">
          <MapPin className="mt-0.5 size-5 shrink-0 text-court-700" aria-hidden="true" />
          <div className="min-w-0 text-sm">
            <p className="font-semibold text-navy-900">{location.name}</p>
            <p className="text-muted-foreground">{location.address}</p>
            <p className="text-muted-foreground">
              {location.city}, {location.state}
              {location.time_zone ? ` · ${location.time_zone}` : ''}
            </p>
          </div>
        </div>
        <Button variant="outline" size="sm" aria-label={`Add Court to ${location.name}`} onClick={onAddCourt}>
          <Plus aria-hidden="true" />
          Add Court
        </Button>
      </div>
      <div className="mt-3 border-t pt-3">
        {isLoading ? (
          <Spinner className="size-5" label="Loading courts" />
        ) : !courts?.length ? (
          <p className="text-sm text-muted-foreground">No courts added yet</p>
        ) : (
          <ul aria-label={`Courts at ${location.name}`} className="flex flex-wrap gap-2">
            {courts.map((court) => (
              <li key={court.court_id} className="inline-flex items-center gap-2 rounded-md bg-muted/60 px-2.5 py-1.5 text-sm">
                <span className="font-medium text-navy-900">{court.court_name}</span>
                <Badge variant="secondary">{courtTypeLabel(court.court_type)}</Badge>
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

const EMPTY_LOCATION = { name: '', address: '', city: '', state: '', latitude: '', longitude: '', time_zone: '' };

function LocationForm({ onSaved }: { onSaved: () => void }) {
  const [form, setForm] = React.useState(EMPTY_LOCATION);
  const [saving, setSaving] = React.useState(false);
  const [zoneError, setZoneError] = React.useState<string | null>(null);
  const set = (name: keyof typeof EMPTY_LOCATION) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = timeZoneProblem(form.time_zone);
    setZoneError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await createGymLocation({
        name: form.name,
        address: form.address,
        city: form.city,
        state: form.state,
        latitude: toCoordinate(form.latitude),
        longitude: toCoordinate(form.longitude),
        time_zone: form.time_zone.trim() || null,
      });
      toast.success('Location added successfully');
      onSaved();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to add location'));
      setSaving(false);
    }
  }

  const text = (
    name: keyof typeof EMPTY_LOCATION,
    label: string,
    props: React.InputHTMLAttributes<HTMLInputElement> = {},
  ) => (
    <div className="space-y-2">
      <Label htmlFor={`gym-location-${name}`}>{label}</Label>
      <Input id={`gym-location-${name}`} value={form[name]} onChange={set(name)} {...props} />
    </div>
  );

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Add Location</DialogTitle>
        <DialogDescription>A facility of your gym. Coaches browse locations by city and state.</DialogDescription>
      </DialogHeader>
      {text('name', 'Name', { placeholder: 'Downtown Center' })}
      {text('address', 'Address', { placeholder: '123 Main St', autoComplete: 'street-address' })}
      <div className="grid grid-cols-2 gap-3">
        {text('city', 'City', { autoComplete: 'address-level2' })}
        {text('state', 'State', { autoComplete: 'address-level1' })}
      </div>
      <div className="grid grid-cols-2 gap-3">
        {text('latitude', 'Latitude (optional)', { type: 'number', step: '0.000001', inputMode: 'decimal' })}
        {text('longitude', 'Longitude (optional)', { type: 'number', step: '0.000001', inputMode: 'decimal' })}
      </div>
      <TimeZoneField
        id="gym-location-time_zone"
        label="Time zone (optional)"
        value={form.time_zone}
        onChange={(time_zone) => setForm((current) => ({ ...current, time_zone }))}
        hint="Left empty, it is found from the coordinates or the city."
        error={zoneError}
      />
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save Location
        </Button>
      </DialogFooter>
    </form>
  );
}

function CourtForm({
  locations,
  initialLocationId,
  onSaved,
}: {
  locations: GymLocation[];
  initialLocationId: string;
  onSaved: () => void;
}) {
  const [locationId, setLocationId] = React.useState(initialLocationId);
  const [name, setName] = React.useState('');
  const [type, setType] = React.useState<CourtType>('basketball');
  const [saving, setSaving] = React.useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!locationId) {
      toast.error('Please select a location first');
      return;
    }
    setSaving(true);
    try {
      await createCourt(locationId, { court_name: name, court_type: type });
      toast.success('Court added successfully');
      onSaved();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to add court'));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Add Court</DialogTitle>
        <DialogDescription>A court at one of your locations.</DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="court-location">Location</Label>
        <Select value={locationId || undefined} onValueChange={setLocationId}>
          <SelectTrigger id="court-location">
            <SelectValue placeholder="Select a location" />
          </SelectTrigger>
          <SelectContent>
            {locations.map((location) => (
              <SelectItem key={location.location_id} value={location.location_id}>
                {location.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="space-y-2">
        <Label htmlFor="court-name">Court Name</Label>
        <Input id="court-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Court 1" />
      </div>
      <div className="space-y-2">
        <Label htmlFor="court-type">Court Type</Label>
        <Select value={type} onValueChange={(value) => setType(value as CourtType)}>
          <SelectTrigger id="court-type">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {COURT_TYPES.map((courtType) => (
              <SelectItem key={courtType} value={courtType}>
                {courtTypeLabel(courtType)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save Court
        </Button>
      </DialogFooter>
    </form>
  );
}
