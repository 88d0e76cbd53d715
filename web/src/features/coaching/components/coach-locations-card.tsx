import { Loader2, MapPin, Plus } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
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
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { createLocation, toCoordinate } from '../api/create-location';
import { useMyLocations } from '../api/get-my-locations';
import { courtLabel } from '../utils/slot-labels';

/** "Gym Locations" on the coach dashboard: where this coach trains, and Add Location. */
export function CoachLocationsCard() {
  const { data: locations, isLoading } = useMyLocations();
  const [open, setOpen] = React.useState(false);

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Gym Locations</CardTitle>
          <CardDescription>The gyms and courts where you run sessions.</CardDescription>
        </div>
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="accent" size="sm">
              <Plus aria-hidden="true" />
              Add Location
            </Button>
          </DialogTrigger>
          <DialogContent>{open ? <LocationForm onSaved={() => setOpen(false)} /> : null}</DialogContent>
        </Dialog>
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
          <ul className="grid gap-3">
            {locations.map((location) => (
              <li key={location.location_id} className="flex gap-3 rounded-lg border p-4">
                <MapPin className="mt-0.5 size-5 shrink-0 text-court-700" aria-hidden="true" />
                <div className="min-w-0 text-sm">
                  <p className="font-semibold text-navy-900">{location.name}</p>
                  <p className="text-muted-foreground">{location.address}</p>
                  <p className="text-muted-foreground">
                    {[`${location.city}, ${location.state}`, courtLabel(location.court_number), location.time_zone]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

const EMPTY = {
  name: '',
  address: '',
  court_number: '',
  city: '',
  state: '',
  latitude: '',
  longitude: '',
  time_zone: '',
};

function LocationForm({ onSaved }: { onSaved: () => void }) {
  const user = useUser();
  const [form, setForm] = React.useState(EMPTY);
  const [saving, setSaving] = React.useState(false);
  const [zoneError, setZoneError] = React.useState<string | null>(null);
  const set = (name: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [name]: event.target.value }));

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = timeZoneProblem(form.time_zone);
    setZoneError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await createLocation(user.user_id, {
        name: form.name,
        address: form.address,
        court_number: form.court_number,
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

  const text = (name: keyof typeof EMPTY, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div className="space-y-2">
      <Label htmlFor={`location-${name}`}>{label}</Label>
      <Input id={`location-${name}`} value={form[name]} onChange={set(name)} {...props} />
    </div>
  );

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Add Location</DialogTitle>
        <DialogDescription>A gym and court where you coach. Coordinates let clients find you nearby.</DialogDescription>
      </DialogHeader>
      {text('name', 'Name', { placeholder: 'Eastside Rec Center' })}
      {text('address', 'Address', { placeholder: '123 Main St', autoComplete: 'street-address' })}
      <div className="grid gap-3 sm:grid-cols-3">
        {text('court_number', 'Court Number', { placeholder: '2' })}
        {text('city', 'City', { autoComplete: 'address-level2' })}
        {text('state', 'State', { autoComplete: 'address-level1' })}
      </div>
      <div className="grid grid-cols-2 gap-3">
        {text('latitude', 'Latitude (optional)', { type: 'number', step: '0.000001', inputMode: 'decimal' })}
        {text('longitude', 'Longitude (optional)', { type: 'number', step: '0.000001', inputMode: 'decimal' })}
      </div>
      <TimeZoneField
        id="location-time_zone"
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
