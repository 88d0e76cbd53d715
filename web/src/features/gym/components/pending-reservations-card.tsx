import { CalendarDays, Check, Clock, Loader2, X } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { LINKED_ROW_CLASS, useLinkedRow, type LinkedRowProps } from '@/lib/linked-row';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { stillPending, usePendingReservations } from '../api/get-pending-reservations';
import { approveReservation, denyReservation } from '../api/review-reservation';
import type { CourtReservation } from '../api/types';
import { byDateAndTime, timeRange } from './court-labels';

/** "Pending Court Reservations": shown only while coaches' requests wait for this gym. */
export function PendingReservationsCard({ className }: { className?: string }) {
  const { data } = usePendingReservations();
  const now = useNow();
  // A request whose time has come expires on the server within the minute; it leaves the list now.
  const pending = stillPending(data, now);
  const rowProps = useLinkedRow('reservation', data && pending.map((r) => r.reservation_id));
  if (!pending.length) return null;

  return (
    <Card className={className} aria-labelledby="pending-reservations-title">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle id="pending-reservations-title" className="flex items-center gap-2">
            Pending Court Reservations
            <Badge variant="warning" aria-label={`${pending.length} pending`}>
              {pending.length}
            </Badge>
          </CardTitle>
          <CardDescription>Coaches asking for your court time.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <ul aria-label="Pending reservations" className="grid gap-3">
          {[...pending].sort(byDateAndTime).map((reservation) => (
            <PendingItem
              key={reservation.reservation_id}
              reservation={reservation}
              linked={rowProps(reservation.reservation_id)}
            />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function PendingItem({ reservation, linked }: { reservation: CourtReservation; linked: LinkedRowProps }) {
  const [busy, setBusy] = React.useState<'approve' | 'deny' | null>(null);

  async function review(action: 'approve' | 'deny') {
    setBusy(action);
    try {
      if (action === 'approve') {
        await approveReservation(reservation.reservation_id);
        toast.success('Reservation approved!');
      } else {
        await denyReservation(reservation.reservation_id);
        toast.success('Reservation denied');
      }
    } catch (error) {
      toast.error(
        errorMessage(error, action === 'approve' ? 'Failed to approve reservation' : 'Failed to deny reservation'),
      );
      setBusy(null);
    }
  }

  return (
    <li
      {...linked}
      data-testid="pending-reservation"
      className={cn(
        'flex flex-col gap-3 rounded-lg border border-yellow-200 bg-yellow-50/40 p-4 sm:flex-row sm:items-center sm:justify-between',
        LINKED_ROW_CLASS,
      )}
    >
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-semibold text-navy-900">{reservation.coach_name}</p>
        <p className="text-navy-700">
          {reservation.location_name} · {reservation.court_name}
        </p>
        <p className="flex flex-wrap gap-x-4 text-muted-foreground">
          <span className="inline-flex items-center gap-1.5">
            <CalendarDays className="size-4" aria-hidden="true" />
            {formatDisplayDate(reservation.date)}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Clock className="size-4" aria-hidden="true" />
            {timeRange(reservation)}
          </span>
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button size="sm" variant="accent" disabled={busy !== null} onClick={() => void review('approve')}>
          {busy === 'approve' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
          Approve
        </Button>
        <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => void review('deny')}>
          {busy === 'deny' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
          Deny
        </Button>
      </div>
    </li>
  );
}
