import { CalendarOff, Loader2, Trash2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { coachCancelBooking } from '../api/cancel-booking';
import { useBookings, type Booking } from '../api/get-bookings';
import { denyBooking } from '../api/review-booking';
import { createTimeOff, deleteTimeOff, refreshTimeOff, useTimeOff, type TimeOff } from '../api/time-off';

/** "Jul 1, 2026 – Jul 3, 2026", or one date. */
function span(off: TimeOff) {
  const start = formatDisplayDate(off.start_date);
  return off.start_date === off.end_date ? start : `${start} – ${formatDisplayDate(off.end_date)}`;
}

/**
 * The coach's "Time off": date ranges none of their slots can be booked on (POST, GET and DELETE
 * /api/coach/exceptions). Bookings already on those dates are named, each with one click to
 * cancel it (or decline it while pending) with the time off's reason.
 */
export function TimeOffCard({ className }: { className?: string }) {
  const { data: timeOff, isLoading, error } = useTimeOff();
  // The whole bookings list, only to name the conflicts when there are some.
  const { data: bookings } = useBookings(Boolean(timeOff?.some((off) => off.conflicts.length)));
  const byId = React.useMemo(() => new Map((bookings ?? []).map((b) => [b.booking_id, b])), [bookings]);

  return (
    <Card className={className} role="region" aria-labelledby="time-off-title">
      <CardHeader>
        <CardTitle id="time-off-title">Time off</CardTitle>
        <CardDescription>Dates you are away: clients cannot book any of your slots on them.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <TimeOffForm />
        {isLoading ? (
          <div className="flex justify-center py-4">
            <Spinner label="Loading time off" />
          </div>
        ) : error ? (
          <p role="alert" className="text-sm">
            {errorMessage(error, 'Failed to load your time off')}
          </p>
        ) : !timeOff?.length ? (
          <EmptyState icon={<CalendarOff />} title="No time off planned" description="Add the dates you will be away." />
        ) : (
          <ul aria-label="Your time off" className="grid gap-3">
            {timeOff.map((off) => (
              <TimeOffItem key={off.exception_id} off={off} byId={byId} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function TimeOffForm() {
  const [start, setStart] = React.useState('');
  const [end, setEnd] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [saving, setSaving] = React.useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!start || !end) {
      toast.error('Please choose the first and last day of your time off');
      return;
    }
    setSaving(true);
    try {
      const made = await createTimeOff({ start_date: start, end_date: end, reason });
      const n = made.conflicts.length;
      toast.success(
        n ? `Time off added. ${n} booking${n === 1 ? '' : 's'} fall${n === 1 ? 's' : ''} in it.` : 'Time off added',
      );
      setStart('');
      setEnd('');
      setReason('');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to add time off'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-3 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor="time-off-start">First day</Label>
        <Input id="time-off-start" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="time-off-end">Last day</Label>
        <Input id="time-off-end" type="date" value={end} min={start || undefined} onChange={(e) => setEnd(e.target.value)} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="time-off-reason">Reason (optional)</Label>
        <Input id="time-off-reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <Button type="submit" variant="accent" disabled={saving}>
        {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
        Add Time Off
      </Button>
    </form>
  );
}

function TimeOffItem({ off, byId }: { off: TimeOff; byId: Map<string, Booking> }) {
  const [removing, setRemoving] = React.useState(false);
  async function remove() {
    setRemoving(true);
    try {
      await deleteTimeOff(off.exception_id);
      toast.success('Time off removed');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to remove time off'));
      setRemoving(false);
    }
  }
  const conflicts = off.conflicts.map((id) => byId.get(id)).filter((b): b is Booking => b !== undefined);

  return (
    <li data-testid="time-off" className="grid gap-2 rounded-lg border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold text-navy-900">{span(off)}</p>
          {off.reason ? <p className="text-sm text-muted-foreground">{off.reason}</p> : null}
        </div>
        <Button variant="outline" size="sm" onClick={() => void remove()} disabled={removing} aria-label={`Remove time off ${span(off)}`}>
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      </div>
      {conflicts.length ? (
        <div className="grid gap-1.5">
          <p className="text-sm font-medium text-destructive">Bookings during this time off</p>
          <ul aria-label={`Bookings during ${span(off)}`} className="grid gap-1.5">
            {conflicts.map((booking) => (
              <ConflictItem key={booking.booking_id} booking={booking} reason={off.reason} />
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}

function ConflictItem({ booking, reason }: { booking: Booking; reason: string | null }) {
  const [busy, setBusy] = React.useState(false);
  const who = `${booking.client_name}, ${formatDisplayDate(booking.booking_date)} ${booking.start_time}`;
  async function cancel() {
    setBusy(true);
    try {
      if (booking.status === 'pending') await denyBooking(booking.booking_id);
      else await coachCancelBooking(booking.booking_id, reason ?? 'I am away on this date');
      await refreshTimeOff();
      toast.success(`Booking with ${booking.client_name} cancelled`);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to cancel the booking'));
      setBusy(false);
    }
  }
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-muted/50 px-3 py-2 text-sm">
      <span>{who}</span>
      <Button variant="outline" size="sm" className="text-destructive hover:bg-red-50" onClick={() => void cancel()} disabled={busy} aria-label={`Cancel booking with ${who}`}>
        Cancel booking
      </Button>
    </li>
  );
}
