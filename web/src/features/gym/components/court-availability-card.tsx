import { CalendarDays, Clock } from 'lucide-react';
import * as React from 'react';
import { AvailabilityCardFrame } from '@/components/cards/adding-cards';
import { CancelWithReasonDialog, confirmWrite } from '@/components/dialogs/cancel-with-reason-dialog';
import { DialogForm, TextField, useSave } from '@/components/forms/dialog-form';
import { SelectField } from '@/components/forms/select-field';
import { TimeRangeFields } from '@/components/forms/time-range-fields';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDisplayDate, formatLocalDate } from '@/lib/dates';
import { useNow } from '@/lib/use-now';
import { createCourtAvailability } from '../api/create-court-availability';
import { useCourtAvailability } from '../api/get-court-availability';
import { useCourts } from '../api/get-courts';
import { useGymLocations } from '../api/get-gym-locations';
import { stillPending, usePendingReservations } from '../api/get-pending-reservations';
import { cancelApprovedReservation } from '../api/review-reservation';
import type { CourtAvailability, GymLocation } from '../api/types';
import { byDateAndTime, locationOptions, timeRange } from './court-labels';
import { CourtWeekSchedule } from './court-week-schedule';

/** "Court Availability" on the gym dashboard: the week per court, the list, and Add Availability. */
export function CourtAvailabilityCard({ className }: { className?: string }) {
  const { data: availability, isLoading } = useCourtAvailability();
  const { data: locations } = useGymLocations();
  const { data: pending } = usePendingReservations();
  const now = useNow();
  const sorted = React.useMemo(() => [...(availability ?? [])].sort(byDateAndTime), [availability]);

  return (
    <AvailabilityCardFrame
      className={className}
      title="Court Availability"
      description="Court time coaches can request."
      form={(close) => <AvailabilityForm locations={locations ?? []} onSaved={close} />}
      loading={isLoading}
      isEmpty={!sorted.length}
    >
      <CourtWeekSchedule locations={locations ?? []} availability={sorted} pending={stillPending(pending, now)} />
      <ul aria-label="Court availability" className="grid gap-2 sm:grid-cols-2">
        {sorted.map((item) => (
          <AvailabilityItem key={item.availability_id} item={item} now={now} />
        ))}
      </ul>
    </AvailabilityCardFrame>
  );
}

function AvailabilityItem({ item, now }: { item: CourtAvailability; now: Date }) {
  const [cancelling, setCancelling] = React.useState(false);
  // The approved reservation on it can be cancelled until the court time starts.
  const cancellable = item.is_reserved && item.reservation_id !== null && Date.parse(item.starts_at) > now.getTime();

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
        onConfirm={confirmWrite(
          (reason) => cancelApprovedReservation(item.reservation_id as string, reason),
          'Reservation cancelled',
          'Failed to cancel reservation',
          () => setCancelling(false),
        )}
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
  const { saving, save } = useSave(onSaved);
  const { data: courts, isLoading: loadingCourts } = useCourts(locationId || null);

  return (
    <DialogForm
      title="Add Availability"
      description="A block of time on one court that coaches can request."
      submitLabel="Save Availability"
      saving={saving}
      onSubmit={() =>
        void save(
          () => createCourtAvailability({ court_id: courtId, date, start_time: start, end_time: end }),
          'Court availability added successfully',
          'Failed to add availability',
        )
      }
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          id="availability-location"
          label="Location"
          value={locationId}
          onChange={(value) => {
            setLocationId(value);
            setCourtId('');
          }}
          options={locationOptions(locations)}
          placeholder="Select a location"
        />
        <SelectField
          id="availability-court"
          label="Court"
          value={courtId}
          onChange={setCourtId}
          options={(courts ?? []).map((court) => ({ value: court.court_id, label: court.court_name }))}
          placeholder={locationId && !loadingCourts && !courts?.length ? 'No courts here yet' : 'Select a court'}
          disabled={!locationId || loadingCourts}
        />
      </div>
      <TextField id="availability-date" label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      <TimeRangeFields idPrefix="availability" start={start} end={end} onStart={setStart} onEnd={setEnd} />
    </DialogForm>
  );
}
