import { CalendarClock, Loader2, MapPin, Plus, Trash2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
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
import { useUser } from '@/lib/auth';
import { WEEKDAYS } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { createAvailability } from '../api/create-availability';
import { deleteAvailability } from '../api/delete-availability';
import { useCoachAvailability } from '../api/get-coach-availability';
import { useMyLocations } from '../api/get-my-locations';
import type { AvailabilitySlot, CoachLocation, SlotType } from '../api/types';
import { isRecurring, slotLocation, slotTime, slotWhen, sortSlots } from '../utils/slot-labels';
import { WeeklySchedule } from './weekly-schedule';

/** "Availability Schedule" on the coach dashboard: the week grid, the slot list, add and delete. */
export function AvailabilityCard({ className }: { className?: string }) {
  const user = useUser();
  const { data: slots, isLoading } = useCoachAvailability(user.user_id);
  const { data: locations } = useMyLocations();
  const [open, setOpen] = React.useState(false);

  return (
    <Card className={className}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Availability Schedule</CardTitle>
          <CardDescription>Weekly and one-time slots clients can book.</CardDescription>
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
        ) : !slots?.length ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No availability set yet.
          </p>
        ) : (
          <>
            <WeeklySchedule slots={slots} locations={locations} />
            <SlotList coachId={user.user_id} slots={slots} locations={locations} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function SlotList({
  coachId,
  slots,
  locations,
}: {
  coachId: string;
  slots: AvailabilitySlot[];
  locations: CoachLocation[] | undefined;
}) {
  const [deleting, setDeleting] = React.useState<string | null>(null);

  async function onDelete(slot: AvailabilitySlot) {
    setDeleting(slot.slot_id);
    try {
      await deleteAvailability(coachId, slot.slot_id);
      toast.success('Availability deleted');
    } catch {
      toast.error('Failed to delete availability');
    } finally {
      setDeleting(null);
    }
  }

  return (
    <ul aria-label="Availability slots" className="grid gap-2 sm:grid-cols-2">
      {sortSlots(slots).map((slot) => (
        <li key={slot.slot_id} className="flex items-center justify-between gap-3 rounded-lg border p-3">
          <div className="min-w-0 space-y-0.5 text-sm">
            <p className="flex flex-wrap items-center gap-2 font-semibold text-navy-900">
              <CalendarClock className="size-4 text-court-700" aria-hidden="true" />
              {slotWhen(slot)}
              <Badge variant={isRecurring(slot) ? 'info' : 'accent'}>{isRecurring(slot) ? 'Weekly' : 'One-time'}</Badge>
            </p>
            <p className="text-navy-700">{slotTime(slot)}</p>
            <p className="flex items-center gap-1.5 truncate text-muted-foreground">
              <MapPin className="size-3.5 shrink-0" aria-hidden="true" />
              {slotLocation(slot, locations)}
            </p>
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="text-destructive hover:bg-red-50"
            aria-label={`Delete availability ${slotWhen(slot)} ${slotTime(slot)}`}
            disabled={deleting === slot.slot_id}
            onClick={() => void onDelete(slot)}
          >
            {deleting === slot.slot_id ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
          </Button>
        </li>
      ))}
    </ul>
  );
}

const NO_LOCATION = 'none';

function AvailabilityForm({ locations, onSaved }: { locations: CoachLocation[]; onSaved: () => void }) {
  const user = useUser();
  const [slotType, setSlotType] = React.useState<SlotType>('recurring');
  const [day, setDay] = React.useState<string>('Monday');
  const [date, setDate] = React.useState('');
  const [start, setStart] = React.useState('09:00');
  const [end, setEnd] = React.useState('10:00');
  const [locationId, setLocationId] = React.useState(NO_LOCATION);
  const [saving, setSaving] = React.useState(false);
  const recurring = slotType === 'recurring';

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    try {
      await createAvailability(user.user_id, {
        slot_type: slotType,
        day_of_week: recurring ? day : null,
        specific_date: recurring ? null : date || null,
        start_time: start,
        end_time: end,
        location_id: locationId === NO_LOCATION ? null : locationId,
      });
      toast.success('Availability added successfully');
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
        <DialogDescription>A weekly slot repeats every week; a one-time slot is a single date.</DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="slot-type">Slot Type</Label>
        <Select value={slotType} onValueChange={(value) => setSlotType(value as SlotType)}>
          <SelectTrigger id="slot-type">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="recurring">Recurring (weekly)</SelectItem>
            <SelectItem value="one-time">One-time</SelectItem>
          </SelectContent>
        </Select>
      </div>
      {recurring ? (
        <div className="space-y-2">
          <Label htmlFor="slot-day">Day of Week</Label>
          <Select value={day} onValueChange={setDay}>
            <SelectTrigger id="slot-day">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {WEEKDAYS.map((weekday) => (
                <SelectItem key={weekday} value={weekday}>
                  {weekday}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      ) : (
        <div className="space-y-2">
          <Label htmlFor="slot-date">Date</Label>
          <Input id="slot-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
      )}
      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-2">
          <Label htmlFor="slot-start">Start Time</Label>
          <Input id="slot-start" type="time" value={start} onChange={(e) => setStart(e.target.value)} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="slot-end">End Time</Label>
          <Input id="slot-end" type="time" value={end} onChange={(e) => setEnd(e.target.value)} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor="slot-location">Location (optional)</Label>
        <Select value={locationId} onValueChange={setLocationId}>
          <SelectTrigger id="slot-location">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={NO_LOCATION}>No specific location</SelectItem>
            {locations.map((location) => (
              <SelectItem key={location.location_id} value={location.location_id}>
                {location.name} - {location.court_number}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving} className={cn(saving && 'cursor-wait')}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save Availability
        </Button>
      </DialogFooter>
    </form>
  );
}
