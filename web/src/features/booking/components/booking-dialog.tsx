import { CalendarDays, Clock, DollarSign, Info, Loader2, MapPin } from 'lucide-react';
import * as React from 'react';
import { DayButton, DayPicker, type DayButtonProps, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
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
import { formatDisplayDate, formatLocalDate, startOfLocalDay, WEEKDAYS } from '@/lib/dates';
import { formatAmount } from '@/lib/format';
import { browserTimeZone, formatTimeRange, zonedInstant } from '@/lib/zoned-time';
import { createBooking } from '../api/create-booking';
import { useCoachCalendar } from '../api/get-coach-calendar';
import { useCoachPolicy } from '../api/get-coach-policy';
import { calendarRange, unbookableDates } from '../utils/calendar-days';
import { DEFAULT_POLICY, policyLines } from '../utils/booking-policy';
import {
  dateProblem,
  firstBookableDate,
  lastBookableDay,
  toBookingDate,
  type BookableSlot,
  type BookingLimits,
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
  /** The IANA zone of the slot's place (its location's, else the coach's); the browser's if unknown. */
  timeZone?: string | null;
  /** Dismissed or booked: the caller forgets the chosen slot. */
  onClose: () => void;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * A day's spoken name starts with the number the button shows (WCAG 2.5.3, label in name):
 * "25 November 2026, Wednesday", then ", today" and ", selected" when they hold. Read from the
 * local calendar fields, as the picker's days are local midnights.
 */
function dayButtonLabel(date: Date, modifiers: Modifiers) {
  const weekday = WEEKDAYS[(date.getDay() + 6) % 7];
  let label = `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}, ${weekday}`;
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

/** Waits for the coach's policy (its limits decide the calendar), then shows the form. */
function BookingForm(props: Omit<BookingDialogProps, 'slot'> & { slot: BookingSlot }) {
  const { data: policy, error, isLoading } = useCoachPolicy(props.coachId);
  const zone = props.timeZone || browserTimeZone();
  const limits = React.useMemo<BookingLimits>(() => ({ zone, policy: policy ?? DEFAULT_POLICY }), [zone, policy]);
  if (isLoading) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading booking policy" />
      </div>
    );
  }
  // An unreadable policy leaves the defaults: the server checks the real one when it books.
  if (error) console.error('Failed to load booking policy', error);
  return <BookingFormFields {...props} limits={limits} />;
}

/** "09:00 – 10:00", with the zone's abbreviation (on that date) when the browser is elsewhere. */
function slotTimeOn(slot: BookingSlot, date: Date | undefined, zone: string) {
  const day = formatLocalDate(date ?? new Date());
  return formatTimeRange({
    start_time: slot.start_time,
    end_time: slot.end_time,
    time_zone: zone,
    starts_at: zonedInstant(day, slot.start_time, zone)?.toISOString(),
    ends_at: zonedInstant(day, slot.end_time, zone)?.toISOString(),
  });
}

function BookingFormFields({
  coachId,
  coachName,
  hourlyRate,
  slot,
  locationLabel,
  onClose,
  limits,
}: Omit<BookingDialogProps, 'slot'> & { slot: BookingSlot; limits: BookingLimits }) {
  const navigate = useNavigate();
  const now = React.useMemo(() => new Date(), []);
  const today = startOfLocalDay(now);
  // Up to two years of days to try, each through Intl: once per dialog, not per render.
  const first = React.useMemo(() => firstBookableDate(slot, now, limits), [slot, now, limits]);
  const [date, setDate] = React.useState<Date | undefined>(first);
  const [submitting, setSubmitting] = React.useState(false);
  const lines = policyLines(limits.policy);
  // The server's word on each date of this slot (taken, coach away, policy): what it calls
  // bookable is what POST /bookings accepts. Unreadable, the slot's own rules still apply.
  const range = React.useMemo(() => calendarRange(now), [now]);
  const { data: calendar } = useCoachCalendar(coachId, range.from, range.to);
  const unbookable = React.useMemo(() => unbookableDates(calendar, slot.slot_id), [calendar, slot.slot_id]);
  // Hovering a date the calendar refuses says why.
  const dayButton = React.useMemo(
    () => ({
      DayButton: (props: DayButtonProps) => (
        <DayButton {...props} title={unbookable.get(props.day.isoDate) ?? props.title} />
      ),
    }),
    [unbookable],
  );
  const noDate = first === undefined;
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
            {slotTimeOn(slot, date, limits.zone)}
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

      <ul aria-label="Booking policy" className="grid gap-1 text-sm text-navy-700">
        {lines.map((line) => (
          <li key={line} className="flex items-start gap-2">
            <Info className="mt-0.5 size-4 shrink-0 text-court-700" aria-hidden="true" />
            {line}
          </li>
        ))}
      </ul>

      <div className="flex justify-center">
        <DayPicker
          mode="single"
          // A second click on the chosen day keeps it chosen rather than leaving no date.
          required
          selected={date}
          onSelect={setDate}
          defaultMonth={date ?? today}
          startMonth={today}
          endMonth={lastBookableDay(now, limits.policy)}
          disabled={(day: Date) =>
            dateProblem(slot, day, now, limits) !== null || unbookable.has(formatLocalDate(day))
          }
          weekStartsOn={1}
          labels={{
            labelDayButton: (day: Date, modifiers: Modifiers) => {
              const why = unbookable.get(formatLocalDate(day));
              return why ? `${dayButtonLabel(day, modifiers)}, ${why}` : dayButtonLabel(day, modifiers);
            },
          }}
          components={dayButton}
        />
      </div>
      {unbookable.size > 0 ? (
        <ul aria-label="Dates not available" className="grid gap-0.5 text-xs text-muted-foreground">
          {[...unbookable].slice(0, 6).map(([day, why]) => (
            <li key={day}>
              {formatDisplayDate(day)}: {why}
            </li>
          ))}
        </ul>
      ) : null}

      <p className="flex items-center gap-2 text-sm" aria-live="polite">
        <CalendarDays className="size-4 text-muted-foreground" aria-hidden="true" />
        {date ? (
          <span>
            Selected: <span className="font-semibold">{formatDisplayDate(toBookingDate(date))}</span>
          </span>
        ) : noDate ? (
          <span className="text-muted-foreground">No date of this slot fits the coach's booking policy</span>
        ) : (
          <span className="text-muted-foreground">No date selected</span>
        )}
      </p>

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={submitting}>
          Cancel
        </Button>
        <Button variant="accent" onClick={() => void confirm()} disabled={submitting || noDate}>
          {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Confirm Booking
        </Button>
      </DialogFooter>
    </>
  );
}
