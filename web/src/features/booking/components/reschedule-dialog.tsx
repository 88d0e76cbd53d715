import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate, formatLocalDate, startOfLocalDay } from '@/lib/dates';
import { formatTimeRange } from '@/lib/zoned-time';
import { useCoachCalendarMonth, type CalendarDay } from '../api/get-coach-calendar';
import type { Booking } from '../api/get-bookings';
import { useCoachPolicy } from '../api/get-coach-policy';
import { rescheduleBooking } from '../api/reschedule-booking';
import { usePickerMonth } from '../hooks/use-picker-month';
import { DEFAULT_POLICY } from '../utils/booking-policy';
import { cancelWouldBeLate } from '../utils/booking-rules';
import {
  bookableByDate,
  calendarState,
  CLOSED,
  OPEN,
  refusalByDate,
  refused,
  type DayStatus,
} from '../utils/calendar-days';
import { sameMonth } from '../utils/calendar-month';
import { lastBookableDay } from '../utils/slot-dates';
import { BookableDayPicker } from './bookable-day-picker';
import { LateCancellationWarning } from './booking-summary';

interface RescheduleDialogProps {
  booking: Booking;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * "Reschedule": the coach's bookable dates (any of their slots, a month at a time), then a time on
 * the chosen date; warns first when the move would be a late cancellation of the booking.
 */
export function RescheduleDialog({ booking, open, onOpenChange }: RescheduleDialogProps) {
  return (
    <DialogWhileOpen open={open} onOpenChange={onOpenChange} className="sm:max-w-md">
      {(close) => <RescheduleForm booking={booking} onDone={close} />}
    </DialogWhileOpen>
  );
}

function RescheduleForm({ booking, onDone }: { booking: Booking; onDone: () => void }) {
  const now = React.useMemo(() => new Date(), []);
  const today = startOfLocalDay(now);
  const { data: policy } = useCoachPolicy(booking.coach_id);
  const last = lastBookableDay(now, policy ?? DEFAULT_POLICY);
  // The booking's own occurrence is not a move.
  const own = React.useCallback(
    (day: CalendarDay) => day.slot_id === booking.slot_id && day.date === booking.booking_date,
    [booking.slot_id, booking.booking_date],
  );
  // The picker opens on the first month with a date to move to.
  const find = React.useCallback(
    (days: CalendarDay[]) => [...bookableByDate(days.filter((day) => !own(day))).keys()].sort()[0],
    [own],
  );
  const picker = usePickerMonth({ coachId: booking.coach_id, start: today, last, find });
  const shown = picker.calendar.data;
  const open = React.useMemo(() => bookableByDate(shown?.filter((day) => !own(day))), [shown, own]);
  const refusals = React.useMemo(() => refusalByDate(shown, own), [shown, own]);
  const shownState = calendarState(picker.calendar);
  const status = (d: Date): DayStatus => {
    if (shownState !== 'loaded') return CLOSED;
    const day = formatLocalDate(d);
    if (open.has(day)) return OPEN;
    const why = refusals.get(day);
    return why ? refused(why) : CLOSED;
  };
  const [date, setDate] = React.useState<Date | undefined>();
  const [choice, setChoice] = React.useState<CalendarDay | undefined>();
  const [saving, setSaving] = React.useState(false);
  const day = date ? formatLocalDate(date) : undefined;
  // The times on the chosen date, from its month's calendar (the month shown may be another).
  const otherMonth = useCoachCalendarMonth(booking.coach_id, date && !sameMonth(date, picker.month) ? date : undefined);
  const chosenCalendar = date && !sameMonth(date, picker.month) ? otherMonth : picker.calendar;
  const times = React.useMemo(
    () => (day ? (bookableByDate(chosenCalendar.data?.filter((d) => !own(d))).get(day) ?? []) : []),
    [day, chosenCalendar.data, own],
  );
  // The chosen time as the calendar has it now (a re-read may have taken it).
  const current = choice ? times.find((t) => t.slot_id === choice.slot_id) : undefined;
  // Moving a confirmed booking cancels it: inside its free cancellation, that cancel is late.
  const late = cancelWouldBeLate(booking, now);

  function pick(next: Date) {
    setDate(next);
    const options = open.get(formatLocalDate(next)) ?? [];
    setChoice(options.length === 1 ? options[0] : undefined);
  }

  async function move() {
    if (!current) {
      toast.error('Please select a date and time');
      return;
    }
    setSaving(true);
    try {
      await rescheduleBooking(booking.booking_id, current.slot_id, current.date);
      toast.success(`Booking moved to ${formatDisplayDate(current.date)}`);
      onDone();
    } catch (failure) {
      toast.error(errorMessage(failure, 'Failed to reschedule the booking'));
      setSaving(false);
      // Someone may have taken it meanwhile: read its month again, so the calendar says so.
      void chosenCalendar.mutate();
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Reschedule</DialogTitle>
        <DialogDescription>
          Move your session with {booking.coach_name} on {formatDisplayDate(booking.booking_date)} to another date.
        </DialogDescription>
      </DialogHeader>
      {late ? <LateCancellationWarning booking={booking} lead="Moving this booking is a late cancellation" /> : null}
      {picker.searching ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading the coach's calendar" />
        </div>
      ) : picker.failed ? (
        <p role="alert" className="text-sm">
          {errorMessage(picker.calendar.error, "Failed to load the coach's calendar")}
        </p>
      ) : !picker.found && !date ? (
        <p className="text-sm text-muted-foreground">The coach has no other bookable date.</p>
      ) : (
        <>
          <BookableDayPicker
            month={picker.month}
            onMonthChange={picker.onMonthChange}
            startMonth={today}
            endMonth={last}
            selected={date}
            onSelect={pick}
            status={status}
            loading={shownState === 'loading'}
            notice={shownState === 'failed' ? "Failed to load the coach's calendar" : undefined}
          />
          {times.length ? (
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Time on {formatDisplayDate(day as string)}</legend>
              {times.map((t) => (
                <label key={t.slot_id} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="reschedule-time"
                    checked={choice?.slot_id === t.slot_id}
                    onChange={() => setChoice(t)}
                  />
                  {formatTimeRange(t)}
                  {t.location_name ? ` · ${t.location_name}` : ''}
                </label>
              ))}
            </fieldset>
          ) : date && chosenCalendar.data ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {formatDisplayDate(day as string)} has no free time any more. Choose another date.
            </p>
          ) : null}
        </>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={saving}>
          Keep Booking
        </Button>
        <Button variant="accent" onClick={() => void move()} disabled={saving || !current}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Move Booking
        </Button>
      </DialogFooter>
    </>
  );
}
