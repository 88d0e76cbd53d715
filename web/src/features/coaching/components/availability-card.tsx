import { CalendarClock, Loader2, MapPin, Trash2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { AvailabilityCardFrame } from '@/components/cards/adding-cards';
import { DialogForm, TextField, useSave } from '@/components/forms/dialog-form';
import { SelectField } from '@/components/forms/select-field';
import { TimeRangeFields } from '@/components/forms/time-range-fields';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useUser } from '@/lib/auth';
import { WEEKDAYS } from '@/lib/dates';
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

  return (
    <AvailabilityCardFrame
      className={className}
      title="Availability Schedule"
      description="Weekly and one-time slots clients can book."
      form={(close) => <AvailabilityForm locations={locations ?? []} onSaved={close} />}
      loading={isLoading}
      isEmpty={!slots?.length}
    >
      <WeeklySchedule slots={slots ?? []} locations={locations} />
      <SlotList coachId={user.user_id} slots={slots ?? []} locations={locations} />
    </AvailabilityCardFrame>
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

const SLOT_TYPES = [
  { value: 'recurring', label: 'Recurring (weekly)' },
  { value: 'one-time', label: 'One-time' },
];

function AvailabilityForm({ locations, onSaved }: { locations: CoachLocation[]; onSaved: () => void }) {
  const user = useUser();
  const [slotType, setSlotType] = React.useState<SlotType>('recurring');
  const [day, setDay] = React.useState<string>('Monday');
  const [date, setDate] = React.useState('');
  const [start, setStart] = React.useState('09:00');
  const [end, setEnd] = React.useState('10:00');
  const [locationId, setLocationId] = React.useState(NO_LOCATION);
  const { saving, save } = useSave(onSaved);
  const recurring = slotType === 'recurring';

  function onSubmit() {
    void save(
      () =>
        createAvailability(user.user_id, {
          slot_type: slotType,
          day_of_week: recurring ? day : null,
          specific_date: recurring ? null : date || null,
          start_time: start,
          end_time: end,
          location_id: locationId === NO_LOCATION ? null : locationId,
        }),
      'Availability added successfully',
      'Failed to add availability',
    );
  }

  return (
    <DialogForm
      title="Add Availability"
      description="A weekly slot repeats every week; a one-time slot is a single date."
      submitLabel="Save Availability"
      saving={saving}
      onSubmit={onSubmit}
    >
      <SelectField
        id="slot-type"
        label="Slot Type"
        value={slotType}
        onChange={(value) => setSlotType(value as SlotType)}
        options={SLOT_TYPES}
      />
      {recurring ? (
        <SelectField
          id="slot-day"
          label="Day of Week"
          value={day}
          onChange={setDay}
          options={WEEKDAYS.map((weekday) => ({ value: weekday, label: weekday }))}
        />
      ) : (
        <TextField id="slot-date" label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      )}
      <TimeRangeFields idPrefix="slot" start={start} end={end} onStart={setStart} onEnd={setEnd} />
      <SelectField
        id="slot-location"
        label="Location (optional)"
        value={locationId}
        onChange={setLocationId}
        options={[
          { value: NO_LOCATION, label: 'No specific location' },
          ...locations.map((location) => ({
            value: location.location_id,
            label: `${location.name} - ${location.court_number}`,
          })),
        ]}
      />
    </DialogForm>
  );
}
