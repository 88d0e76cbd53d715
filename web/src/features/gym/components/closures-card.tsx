import { DoorClosed, Loader2, Trash2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { mutate } from 'swr';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { createClosure, deleteClosure, useClosures, type Closure } from '../api/closures';
import { useGymLocations } from '../api/get-gym-locations';
import { PENDING_RESERVATIONS_KEY } from '../api/get-pending-reservations';

/** "Jul 1, 2026 – Jul 3, 2026", or one date. */
function span(closure: Closure) {
  const start = formatDisplayDate(closure.start_date);
  return closure.start_date === closure.end_date ? start : `${start} – ${formatDisplayDate(closure.end_date)}`;
}

/**
 * The gym's "Closures": per location, the dates it is closed on (a tournament, repairs). Court
 * time on them is not offered, and requests pending on them are denied with the reason.
 */
export function ClosuresCard({ className }: { className?: string }) {
  const { data: locations, isLoading } = useGymLocations();
  return (
    <Card className={className} role="region" aria-labelledby="closures-title">
      <CardHeader>
        <CardTitle id="closures-title">Closures</CardTitle>
        <CardDescription>Close a location for some dates: its court time is not offered then.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isLoading ? (
          <div className="flex justify-center py-4">
            <Spinner label="Loading locations" />
          </div>
        ) : !locations?.length ? (
          <EmptyState icon={<DoorClosed />} title="No locations yet" description="Add a location to close it for some dates." />
        ) : (
          locations.map((location) => (
            <LocationClosures key={location.location_id} locationId={location.location_id} name={location.name} />
          ))
        )}
      </CardContent>
    </Card>
  );
}

function LocationClosures({ locationId, name }: { locationId: string; name: string }) {
  const { data: closures } = useClosures(locationId);
  const [start, setStart] = React.useState('');
  const [end, setEnd] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [saving, setSaving] = React.useState(false);
  const ids = `closure-${locationId}`;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!start || !end) {
      toast.error('Please choose the first and last closed day');
      return;
    }
    setSaving(true);
    try {
      const made = await createClosure(locationId, { start_date: start, end_date: end, reason });
      const n = made.denied_reservations.length;
      toast.success(n ? `${name} closed. ${n} pending request${n === 1 ? '' : 's'} declined.` : `${name} closed`);
      // The requests it declined leave the pending list.
      await mutate(PENDING_RESERVATIONS_KEY);
      setStart('');
      setEnd('');
      setReason('');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to add the closure'));
    } finally {
      setSaving(false);
    }
  }

  async function remove(closure: Closure) {
    try {
      await deleteClosure(locationId, closure.closure_id);
      toast.success(`${name} reopened`);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to remove the closure'));
    }
  }

  return (
    <section aria-label={`${name} closures`} className="grid gap-3 rounded-lg border p-4">
      <h3 className="font-semibold text-navy-900">Closures of {name}</h3>
      <form onSubmit={(e) => void submit(e)} className="grid gap-3 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end">
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-start`}>First closed day</Label>
          <Input id={`${ids}-start`} type="date" value={start} onChange={(e) => setStart(e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-end`}>Last closed day</Label>
          <Input id={`${ids}-end`} type="date" value={end} min={start || undefined} onChange={(e) => setEnd(e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-reason`}>Reason (optional)</Label>
          <Input id={`${ids}-reason`} maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Close Location
        </Button>
      </form>
      {closures?.length ? (
        <ul aria-label={`Closed dates of ${name}`} className="grid gap-2">
          {closures.map((closure) => (
            <li key={closure.closure_id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>
                <span className="font-medium">{span(closure)}</span>
                {closure.reason ? ` · ${closure.reason}` : ''}
              </span>
              <Button variant="outline" size="sm" onClick={() => void remove(closure)} aria-label={`Reopen ${name} ${span(closure)}`}>
                <Trash2 aria-hidden="true" />
                Reopen
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">Open on every date.</p>
      )}
    </section>
  );
}
