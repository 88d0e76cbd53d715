import { CalendarDays, Clock, DollarSign, Loader2, MapPin } from 'lucide-react';
import * as React from 'react';
import { DayPicker, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate, startOfLocalDay } from '@/lib/dates';
import { formatAmount } from '@/lib/format';
import { createBooking } from '../api/create-booking';
import {
  defaultBookingDate,
  isBookableDate,
  toBookingDate,
  type BookableSlot,
} from '../utils/slot-dates';

/** The slot being booked, as the coach page knows it. */
export interface BookingSlot extends BookableSlot {
  slot_id: string;
  start_time: string;
  end_time: string;
}

interface BookingDialogProps {
  coachId: string;
  coachName: string;
  hourlyRate: number;
  /** The chosen slot; the dialog is open while there is one. */
  slot: BookingSlot | null;
  /** "name - court_number" or "Location TBD". */
  locationLabel: string;
  /** Dismissed or booked: the caller forgets the chosen slot. */
  onClose: () => void;
}

/**
 * A day's spoken name starts with the number the button shows (WCAG 2.5.3, label in name):
 * "25 November 2026, Wednesday", then ", today" and ", selected" when they hold.
 */
function dayButtonLabel(date: Date, modifiers: Modifiers) {
  const month = date.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  const weekday = date.toLocaleDateString('en-US', { weekday: 'long' });
  let label = `${date.getDate()} ${month}, ${weekday}`;
  if (modifiers.today) label += ', today';
  if (modifiers.selected) label += ', selected';
  return label;
}

/** "Confirm Your Booking": pick a date that fits the slot, then POST /api/bookings. */
export function BookingDialog({ slot, onClose, ...rest }: BookingDialogProps) {
  return (
    <Dialog open={slot !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-md">
        {/* Keyed by slot so the chosen date starts afresh for every slot. */}
        {slot ? <BookingForm key={slot.slot_id} slot={slot} onClose={onClose} {...rest} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function BookingForm({
  coachId,
  coachName,
  hourlyRate,
  slot,
  locationLabel,
  onClose,
}: Omit<BookingDialogProps, 'slot'> & { slot: BookingSlot }) {
  const navigate = useNavigate();
  const today = React.useMemo(() => startOfLocalDay(new Date()), []);
  const [date, setDate] = React.useState<Date | undefined>(() => defaultBookingDate(slot, today));
  const [submitting, setSubmitting] = React.useState(false);

  async function confirm() {
    if (!date) {
      toast.error('Please select a date');
      return;
    }
    setSubmitting(true);
    try {
      await createBooking({ coach_id: coachId, slot_id: slot.slot_id, booking_date: toBookingDate(date) });
      toast.success('Booking confirmed! Check your dashboard.');
      onClose();
      navigate(paths.dashboards.client.getHref());
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to create booking'));
      setSubmitting(false);
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Confirm Your Booking</DialogTitle>
        <DialogDescription>Select a date for your session with {coachName}</DialogDescription>
      </DialogHeader>

      <dl className="grid gap-2 rounded-lg border bg-muted/50 p-4 text-sm">
        <div className="flex items-center gap-2">
          <Clock className="size-4 text-court-700" aria-hidden="true" />
          <dt className="sr-only">Time</dt>
          <dd className="font-medium">
            {slot.start_time} - {slot.end_time}
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <MapPin className="size-4 text-court-700" aria-hidden="true" />
          <dt className="sr-only">Location</dt>
          <dd>{locationLabel}</dd>
        </div>
        <div className="flex items-center gap-2">
          <DollarSign className="size-4 text-court-700" aria-hidden="true" />
          <dt className="sr-only">Rate</dt>
          <dd>
            <span className="font-semibold">${formatAmount(hourlyRate)}</span>
            <span className="text-muted-foreground">/hour</span>
          </dd>
        </div>
      </dl>

      <div className="flex justify-center">
        <DayPicker
          mode="single"
          selected={date}
          onSelect={setDate}
          defaultMonth={date ?? today}
          disabled={(day: Date) => !isBookableDate(slot, day, today)}
          weekStartsOn={1}
          labels={{ labelDayButton: dayButtonLabel }}
        />
      </div>

      <p className="flex items-center gap-2 text-sm" aria-live="polite">
        <CalendarDays className="size-4 text-muted-foreground" aria-hidden="true" />
        {date ? (
          <span>
            Selected: <span className="font-semibold">{formatDisplayDate(toBookingDate(date))}</span>
          </span>
        ) : (
          <span className="text-muted-foreground">No date selected</span>
        )}
      </p>

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={submitting}>
          Cancel
        </Button>
        <Button variant="accent" onClick={() => void confirm()} disabled={submitting}>
          {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Confirm Booking
        </Button>
      </DialogFooter>
    </>
  );
}
