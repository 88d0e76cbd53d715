import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
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
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate, formatLocalDate, parseLocalDate } from '@/lib/dates';
import { formatTimeRange } from '@/lib/zoned-time';
import { useCoachCalendar, type CalendarDay } from '../api/get-coach-calendar';
import type { Booking } from '../api/get-bookings';
import { rescheduleBooking } from '../api/reschedule-booking';
import { bookableByDate, calendarRange } from '../utils/calendar-days';

interface RescheduleDialogProps {
  booking: Booking;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** "Reschedule": the coach's bookable dates (any of their slots), then a time on the chosen date. */
export function RescheduleDialog({ booking, open, onOpenChange }: RescheduleDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        {open ? <RescheduleForm booking={booking} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RescheduleForm({ booking, onDone }: { booking: Booking; onDone: () => void }) {
  const now = React.useMemo(() => new Date(), []);
  const range = React.useMemo(() => calendarRange(now), [now]);
  const { data: calendar, error, isLoading } = useCoachCalendar(booking.coach_id, range.from, range.to);
  const open = React.useMemo(() => {
    const byDate = bookableByDate(calendar);
    // The booking's own occurrence is not a move.
    const own = byDate.get(booking.booking_date)?.filter((d) => d.slot_id !== booking.slot_id);
    if (own) {
      if (own.length) byDate.set(booking.booking_date, own);
      else byDate.delete(booking.booking_date);
    }
    return byDate;
  }, [calendar, booking.booking_date, booking.slot_id]);
  const [date, setDate] = React.useState<Date | undefined>();
  const [choice, setChoice] = React.useState<CalendarDay | undefined>();
  const [saving, setSaving] = React.useState(false);
  const day = date ? formatLocalDate(date) : undefined;
  const times = day ? (open.get(day) ?? []) : [];

  function pick(next: Date | undefined) {
    setDate(next);
    const options = next ? (open.get(formatLocalDate(next)) ?? []) : [];
    setChoice(options.length === 1 ? options[0] : undefined);
  }

  async function move() {
    if (!choice) {
      toast.error('Please select a date and time');
      return;
    }
    setSaving(true);
    try {
      await rescheduleBooking(booking.booking_id, choice.slot_id, choice.date);
      toast.success(`Booking moved to ${formatDisplayDate(choice.date)}`);
      onDone();
    } catch (failure) {
      toast.error(errorMessage(failure, 'Failed to reschedule the booking'));
      setSaving(false);
    }
  }

  const first = [...open.keys()].sort()[0];
  return (
    <>
      <DialogHeader>
        <DialogTitle>Reschedule</DialogTitle>
        <DialogDescription>
          Move your session with {booking.coach_name} on {formatDisplayDate(booking.booking_date)} to another date.
        </DialogDescription>
      </DialogHeader>
      {isLoading ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading the coach's calendar" />
        </div>
      ) : error ? (
        <p role="alert" className="text-sm">
          {errorMessage(error, "Failed to load the coach's calendar")}
        </p>
      ) : open.size === 0 ? (
        <p className="text-sm text-muted-foreground">The coach has no other bookable date in the next two months.</p>
      ) : (
        <>
          <div className="flex justify-center">
            <DayPicker
              mode="single"
              selected={date}
              onSelect={pick}
              defaultMonth={parseLocalDate(first) ?? now}
              disabled={(d: Date) => !open.has(formatLocalDate(d))}
              weekStartsOn={1}
            />
          </div>
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
          ) : null}
        </>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={saving}>
          Keep Booking
        </Button>
        <Button variant="accent" onClick={() => void move()} disabled={saving || !choice}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Move Booking
        </Button>
      </DialogFooter>
    </>
  );
}
