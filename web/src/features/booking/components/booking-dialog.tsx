import { CalendarDays, Clock, DollarSign, Info, Loader2, MapPin } from 'lucide-react';
import * as React from 'react';
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
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDisplayDate, formatLocalDate, parseLocalDate, startOfLocalDay } from '@/lib/dates';
import { formatAmount } from '@/lib/format';
import { slotMinutes, slotPriceCents } from '@/lib/money';
import { browserTimeZone, formatTimeRange, zonedInstant } from '@/lib/zoned-time';
import { createBooking } from '../api/create-booking';
import { useCoachCalendarMonth, type CalendarDay } from '../api/get-coach-calendar';
import { useCoachPolicy } from '../api/get-coach-policy';
import { usePaymentMethods } from '../api/payments';
import { BookingPaymentSection, defaultCard } from './booking-payment-section';
import { usePickerMonth } from '../hooks/use-picker-month';
import { calendarState, slotDayStatus, slotOccurrences } from '../utils/calendar-days';
import { sameMonth } from '../utils/calendar-month';
import { DEFAULT_POLICY, policyLines } from '../utils/booking-policy';
import {
  dateProblem,
  firstBookableDate,
  lastBookableDay,
  toBookingDate,
  type BookableSlot,
  type BookingLimits,
} from '../utils/slot-dates';
import { BookableDayPicker, refusalNote } from './bookable-day-picker';

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
  const last = lastBookableDay(now, limits.policy);
  // The slot's own rule (its days, the policy): where the search for a free date starts, and
  // the date to start on if the calendar cannot be read. Up to two years of days, each through
  // Intl: once per dialog, not per render.
  const ruled = React.useMemo(() => firstBookableDate(slot, now, limits), [slot, now, limits]);
  // The first date the server's calendar calls bookable for this slot (and the slot's rule allows).
  const find = React.useCallback(
    (days: CalendarDay[]) =>
      [...slotOccurrences(days, slot.slot_id).values()]
        .filter((day) => day.bookable)
        .map((day) => day.date)
        .sort()
        .find((date) => {
          const day = parseLocalDate(date);
          return day !== null && dateProblem(slot, day, now, limits) === null;
        }),
    [slot, now, limits],
  );
  const picker = usePickerMonth({ coachId, start: ruled ?? today, last, find: ruled ? find : null });
  const initial = picker.found ? (parseLocalDate(picker.found) ?? undefined) : picker.failed ? ruled : undefined;
  const [picked, setPicked] = React.useState<Date>();
  const date = picked ?? initial;
  const [submitting, setSubmitting] = React.useState(false);
  const lines = policyLines(limits.policy);

  // The money: the price as booking-svc will keep it, and the card it will be held on.
  const minutes = slotMinutes(slot.start_time, slot.end_time);
  const priceCents = slotPriceCents(hourlyRate, minutes);
  const cards = usePaymentMethods(priceCents > 0);
  const [chosenCardId, setChosenCardId] = React.useState<string | null>(null);
  const card = cards.data?.find((c) => c.payment_method_id === chosenCardId) ?? defaultCard(cards.data);
  const needsCard = priceCents > 0 && cards.data !== undefined && !card;
  const [paymentProblem, setPaymentProblem] = React.useState<string | null>(null);
  const cardId = card?.payment_method_id;
  React.useEffect(() => setPaymentProblem(null), [cardId]);
  const startsAt = date ? zonedInstant(formatLocalDate(date), slot.start_time, limits.zone) : null;

  // The server's word on each date of this slot (taken, coach away, policy): what it calls
  // bookable is what POST /bookings accepts. The chosen date's month is read too, as the month
  // shown may be another.
  const shownDays = React.useMemo(
    () => slotOccurrences(picker.calendar.data, slot.slot_id),
    [picker.calendar.data, slot.slot_id],
  );
  const shownState = calendarState(picker.calendar);
  const status = (day: Date) =>
    slotDayStatus(dateProblem(slot, day, now, limits), shownDays.get(formatLocalDate(day)), shownState);
  const otherMonth = useCoachCalendarMonth(coachId, date && !sameMonth(date, picker.month) ? date : undefined);
  const chosenCalendar = date && !sameMonth(date, picker.month) ? otherMonth : picker.calendar;
  const chosen = date
    ? slotDayStatus(
        dateProblem(slot, date, now, limits),
        slotOccurrences(chosenCalendar.data, slot.slot_id).get(formatLocalDate(date)),
        calendarState(chosenCalendar),
      )
    : undefined;

  async function confirm() {
    if (!date) {
      toast.error('Please select a date');
      return;
    }
    setSubmitting(true);
    try {
      await createBooking({
        coach_id: coachId,
        slot_id: slot.slot_id,
        booking_date: toBookingDate(date),
        // Another card than the default, when the client picked one.
        ...(priceCents > 0 && card && !card.is_default ? { payment_method_id: card.payment_method_id } : {}),
      });
      toast.success('Booking confirmed! Check your dashboard.');
      onClose();
      navigate(paths.dashboards.client.getHref());
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to create booking'));
      setSubmitting(false);
      if (error instanceof ApiError && error.status === 402) {
        // A paid session and no card the server knows of: say so beside the card, offer to add one.
        setPaymentProblem(errorMessage(error, 'Add a card under Payment methods, then book again.'));
        void cards.mutate();
        return;
      }
      // Someone may have taken the date meanwhile: read its month again, so it says so.
      void chosenCalendar.mutate();
    }
  }

  if (picker.searching) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Finding the first free date" />
      </div>
    );
  }

  // Confirm waits for a date the calendar would book, and says why it waits.
  const checking = chosen?.kind === 'closed' && calendarState(chosenCalendar) === 'loading';
  const unconfirmable = !date
    ? undefined
    : chosen?.kind === 'refused'
      ? `${refusalNote(date, chosen.reason)}. Choose another date.`
      : checking
        ? "Checking this date in the coach's calendar…"
        : chosen?.kind === 'closed'
          ? `${formatDisplayDate(toBookingDate(date))} cannot be booked. Choose another date.`
          : needsCard
            ? 'Add a card first: this session is paid.'
            : undefined;

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

      <BookableDayPicker
        month={picker.month}
        onMonthChange={picker.onMonthChange}
        startMonth={today}
        endMonth={last}
        selected={date}
        onSelect={setPicked}
        status={status}
        loading={shownState === 'loading'}
      />

      <p className="flex items-center gap-2 text-sm" aria-live="polite">
        <CalendarDays className="size-4 text-muted-foreground" aria-hidden="true" />
        {date ? (
          <span>
            Selected: <span className="font-semibold">{formatDisplayDate(toBookingDate(date))}</span>
          </span>
        ) : (
          // Nothing to start on: the slot's rule allows no date, or the calendar frees none.
          <span className="text-muted-foreground">
            {picker.failed || !ruled
              ? "No date of this slot fits the coach's booking policy"
              : 'No date of this slot is free to book'}
          </span>
        )}
      </p>
      <BookingPaymentSection
        priceCents={priceCents}
        minutes={minutes}
        startsAt={startsAt}
        zone={limits.zone}
        policy={limits.policy}
        cards={cards}
        problem={paymentProblem}
        chosenCardId={chosenCardId}
        onChooseCard={setChosenCardId}
      />

      {unconfirmable ? (
        <p
          id="booking-date-problem"
          role={checking ? 'status' : 'alert'}
          className={checking ? 'text-sm text-muted-foreground' : 'text-sm font-medium text-destructive'}
        >
          {unconfirmable}
        </p>
      ) : null}

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={submitting}>
          Cancel
        </Button>
        <Button
          variant="accent"
          onClick={() => void confirm()}
          disabled={submitting || !date || unconfirmable !== undefined}
          aria-describedby={unconfirmable ? 'booking-date-problem' : undefined}
        >
          {submitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Confirm Booking
        </Button>
      </DialogFooter>
    </>
  );
}
