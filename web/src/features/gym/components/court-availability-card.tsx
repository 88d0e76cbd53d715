import { CalendarDays, Clock, Loader2, Plus } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { CancelWithReasonDialog } from '@/components/dialogs/cancel-with-reason-dialog';
import { Badge } from '@/components/ui/badge';
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
import { formatDisplayDate, formatLocalDate } from '@/lib/dates';
import { useNow } from '@/lib/use-now';
import { createCourtAvailability } from '../api/create-court-availability';
import { useCourtAvailability } from '../api/get-court-availability';
import { useCourts } from '../api/get-courts';
import { useGymLocations } from '../api/get-gym-locations';
import { stillPending, usePendingReservations } from '../api/get-pending-reservations';
import { cancelApprovedReservation } from '../api/review-reservation';
import type { CourtAvailability, GymLocation } from '../api/types';
import { byDateAndTime, timeRange } from './court-labels';
import { CourtWeekSchedule } from './court-week-schedule';

/** "Court Availability" on the gym dashboard: the week per court, the list, and Add Availability. */
export function CourtAvailabilityCard({ className }: { className?: string }) {
  const { data: availability, isLoading } = useCourtAvailability();
  const { data: locations } = useGymLocations();
  const { data: pending } = usePendingReservations();
  const [open, setOpen] = React.useState(false);
  const now = useNow();
  const sorted = React.useMemo(() => [...(availability ?? [])].sort(byDateAndTime), [availability]);

  return (
    <Card className={className}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Court Availability</CardTitle>
          <CardDescription>Court time coaches can request.</CardDescription>
        </div>
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="accent" size="sm">
              <Plus aria-hidden="true" />
              Add Availability
            </Button>
          </DialogTrigger>
          <DialogContent>
            {open ? <AvailabilityForm locations={locations ?? []} onSaved={() => setOpen(false)} /> : null}
          </DialogContent>
        </Dialog>
      </CardHeader>
      <CardContent className="space-y-6">
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading availability" />
          </div>
        ) : !sorted.length ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No availability set yet.
          </p>
        ) : (
          <>
            <CourtWeekSchedule locations={locations ?? []} availability={sorted} pending={stillPending(pending, now)} />
            <ul aria-label="Court availability" className="grid gap-2 sm:grid-cols-2">
              {sorted.map((item) => (
                <AvailabilityItem key={item.availability_id} item={item} now={now} />
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function AvailabilityItem({ item, now }: { item: CourtAvailability; now: Date }) {
  const [cancelling, setCancelling] = React.useState(false);
  // The approved reservation on it can be cancelled until the court time starts.
  const cancellable = item.is_reserved && item.reservation_id !== null && Date.parse(item.starts_at) > now.getTime();

  async function cancel(reason: string) {
    try {
      await cancelApprovedReservation(item.reservation_id as string, reason);
      toast.success('Reservation cancelled');
      setCancelling(false);
      return true;
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to cancel reservation'));
      return false;
    }
  }

  return (
    <li data-testid="court-availability" className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3 text-sm">
      <div className="min-w-0 space-y-0.5">
        <p className="font-semibold text-navy-900">
          {item.location_name} · {item.court_name}
        </p>
        <p className="flex flex-wrap gap-x-3 text-muted-foreground">
          <span className="inline-flex items-center gap-1.5">
            <CalendarDays className="size-3.5" aria-hidden="true" />
            {formatDisplayDate(item.date)}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Clock className="size-3.5" aria-hidden="true" />
            {timeRange(item)}
          </span>
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-end gap-2">
        {item.is_reserved ? <Badge variant="success">Reserved</Badge> : <Badge variant="info">Available</Badge>}
        {cancellable ? (
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:bg-red-50"
            aria-label={`Cancel reservation of ${item.court_name} on ${formatDisplayDate(item.date)} ${timeRange(item)}`}
            onClick={() => setCancelling(true)}
          >
            Cancel reservation
          </Button>
        ) : null}
      </div>
      <CancelWithReasonDialog
        open={cancelling}
        onOpenChange={setCancelling}
        title="Cancel this reservation?"
        description={`${item.location_name} · ${item.court_name}, ${formatDisplayDate(item.date)}, ${timeRange(item)}. The coach is told, and the court time is open again.`}
        reasonLabel="Reason for the coach (optional)"
        keepLabel="Keep reservation"
        confirmLabel="Cancel reservation"
        onConfirm={cancel}
      />
    </li>
  );
}

function AvailabilityForm({ locations, onSaved }: { locations: GymLocation[]; onSaved: () => void }) {
  const [locationId, setLocationId] = React.useState(locations.length === 1 ? locations[0].location_id : '');
  const [courtId, setCourtId] = React.useState('');
  const [date, setDate] = React.useState(() => formatLocalDate(new Date()));
  const [start, setStart] = React.useState('09:00');
  const [end, setEnd] = React.useState('10:00');
  const [saving, setSaving] = React.useState(false);
  const { data: courts, isLoading: loadingCourts } = useCourts(locationId || null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    try {
      await createCourtAvailability({ court_id: courtId, date, start_time: start, end_time: end });
      toast.success('Court availability added successfully');
      onSaved();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to add availability'));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Add Availability</DialogTitle>
        <DialogDescription>A block of time on one court that coaches can request.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="availability-location">Location</Label>
          <Select
            value={locationId || undefined}
            onValueChange={(value) => {
              setLocationId(value);
              setCourtId('');
            }}
          >
            <SelectTrigger id="availability-location">
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
          <Label htmlFor="availability-court">Court</Label>
          <Select value={courtId || undefined} onValueChange={setCourtId} disabled={!locationId || loadingCourts}>
            <SelectTrigger id="availability-court">
              <SelectValue placeholder={locationId && !loadingCourts && !courts?.length ? 'No courts here yet' : 'Select a court'} />
            </SelectTrigger>
            <SelectContent>
              {(courts ?? []).map((court) => (
                <SelectItem key={court.court_id} value={court.court_id}>
                  {court.court_name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor="availability-date">Date</Label>
        <Input id="availability-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-2">
          <Label htmlFor="availability-start">Start Time</Label>
          <Input id="availability-start" type="time" value={start} onChange={(e) => setStart(e.target.value)} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="availability-end">End Time</Label>
          <Input id="availability-end" type="time" value={end} onChange={(e) => setEnd(e.target.value)} />
        </div>
      </div>
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save Availability
        </Button>
      </DialogFooter>
    </form>
  );
}
