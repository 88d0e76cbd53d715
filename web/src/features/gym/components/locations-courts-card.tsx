import { Plus } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { LocationsCard } from '@/components/cards/adding-cards';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { DialogForm, TextField, useSave } from '@/components/forms/dialog-form';
import { SelectField } from '@/components/forms/select-field';
import { PlaceForm } from '@/components/places/place-form';
import { PlaceSummary } from '@/components/places/place-summary';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { createCourt } from '../api/create-court';
import { createGymLocation } from '../api/create-gym-location';
import { useCourts } from '../api/get-courts';
import { useGymLocations } from '../api/get-gym-locations';
import { COURT_TYPES, type CourtType, type GymLocation } from '../api/types';
import { courtTypeLabel, locationOptions } from './court-labels';

/** "Locations & Courts" on the gym dashboard: the gym's locations, each with its courts. */
export function LocationsCourtsCard({ className }: { className?: string }) {
  const { data: locations, isLoading } = useGymLocations();
  // The Add Court dialog: closed (undefined), or open for a location ('' when none is chosen yet).
  const [courtFor, setCourtFor] = React.useState<string | undefined>(undefined);
  // The card's own Add Court: with a single location there is nothing to choose, so it is chosen.
  const onlyLocation = locations?.length === 1 ? locations[0].location_id : '';

  return (
    <LocationsCard
      className={className}
      title={<>Locations &amp; Courts</>}
      description="Your facilities and the courts coaches can rent."
      moreActions={
        <>
          <Button variant="outline" size="sm" onClick={() => setCourtFor(onlyLocation)}>
            <Plus aria-hidden="true" />
            Add Court
          </Button>
          <DialogWhileOpen
            open={courtFor !== undefined}
            onOpenChange={(open) => (open ? undefined : setCourtFor(undefined))}
          >
            {(close) => <CourtForm locations={locations ?? []} initialLocationId={courtFor ?? ''} onSaved={close} />}
          </DialogWhileOpen>
        </>
      }
      form={(close) => (
        <PlaceForm
          idPrefix="gym-location"
          description="A facility of your gym. Coaches browse locations by city and state."
          namePlaceholder="Downtown Center"
          create={createGymLocation}
          onSaved={close}
        />
      )}
      loading={isLoading}
      isEmpty={!locations?.length}
    >
      <ul aria-label="Gym locations" className="grid gap-3">
        {locations?.map((location) => (
          <LocationItem
            key={location.location_id}
            location={location}
            onAddCourt={() => setCourtFor(location.location_id)}
          />
        ))}
      </ul>
    </LocationsCard>
  );
}

function LocationItem({ location, onAddCourt }: { location: GymLocation; onAddCourt: () => void }) {
  const { data: courts, isLoading } = useCourts(location.location_id);
  return (
    <li data-testid="gym-location" className="rounded-lg border p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PlaceSummary
          name={location.name}
          address={location.address}
          detail={[`${location.city}, ${location.state}`, location.time_zone].filter(Boolean).join(' · ')}
        />
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
  const { saving, save } = useSave(onSaved);

  function onSubmit() {
    if (!locationId) {
      toast.error('Please select a location first');
      return;
    }
    void save(
      () => createCourt(locationId, { court_name: name, court_type: type }),
      'Court added successfully',
      'Failed to add court',
    );
  }

  return (
    <DialogForm
      title="Add Court"
      description="A court at one of your locations."
      submitLabel="Save Court"
      saving={saving}
      onSubmit={onSubmit}
    >
      <SelectField
        id="court-location"
        label="Location"
        value={locationId}
        onChange={setLocationId}
        options={locationOptions(locations)}
        placeholder="Select a location"
      />
      <TextField id="court-name" label="Court Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Court 1" />
      <SelectField
        id="court-type"
        label="Court Type"
        value={type}
        onChange={(value) => setType(value as CourtType)}
        options={COURT_TYPES.map((courtType) => ({ value: courtType, label: courtTypeLabel(courtType) }))}
      />
    </DialogForm>
  );
}
