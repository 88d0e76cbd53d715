import { MapPin } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { CoachLocation } from '../api/types';
import { courtLabel } from '../utils/slot-labels';

/** "Training Locations": shown by the page only when the coach has locations. */
export function TrainingLocationsCard({ locations }: { locations: CoachLocation[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Training Locations</CardTitle>
        <CardDescription>Where this coach offers sessions</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 sm:grid-cols-2">
          {locations.map((location) => (
            <li key={location.location_id} className="flex gap-3 rounded-lg border bg-muted/40 p-4">
              <MapPin className="mt-0.5 size-5 shrink-0 text-court-700" aria-hidden="true" />
              <div className="min-w-0 text-sm">
                <p className="font-semibold text-navy-900">{location.name}</p>
                <p className="text-muted-foreground">{location.address}</p>
                {courtLabel(location.court_number) && (
                  <p className="text-muted-foreground">{courtLabel(location.court_number)}</p>
                )}
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
