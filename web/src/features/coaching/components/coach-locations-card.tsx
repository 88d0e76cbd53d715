import { LocationsCard } from '@/components/cards/adding-cards';
import { PlaceForm } from '@/components/places/place-form';
import { PlaceSummary } from '@/components/places/place-summary';
import { useUser } from '@/lib/auth';
import { createLocation } from '../api/create-location';
import { useMyLocations } from '../api/get-my-locations';
import { courtLabel } from '../utils/slot-labels';

/** "Gym Locations" on the coach dashboard: where this coach trains, and Add Location. */
export function CoachLocationsCard() {
  const user = useUser();
  const { data: locations, isLoading } = useMyLocations();

  return (
    <LocationsCard
      title="Gym Locations"
      description="The gyms and courts where you run sessions."
      form={(close) => (
        <PlaceForm
          idPrefix="location"
          description="A gym and court where you coach. Coordinates let clients find you nearby."
          namePlaceholder="Eastside Rec Center"
          withCourtNumber
          create={(place) => createLocation(user.user_id, { ...place, court_number: place.court_number ?? '' })}
          onSaved={close}
        />
      )}
      loading={isLoading}
      isEmpty={!locations?.length}
    >
      <ul className="grid gap-3">
        {locations?.map((location) => (
          <li key={location.location_id} className="rounded-lg border p-4">
            <PlaceSummary
              name={location.name}
              address={location.address}
              detail={[`${location.city}, ${location.state}`, courtLabel(location.court_number), location.time_zone]
                .filter(Boolean)
                .join(' · ')}
            />
          </li>
        ))}
      </ul>
    </LocationsCard>
  );
}
