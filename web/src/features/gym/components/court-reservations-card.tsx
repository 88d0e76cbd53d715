import { CalendarDays, Clock, Loader2, X } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { LINKED_ROW_CLASS, useLinkedRow, type LinkedRowProps } from '@/lib/linked-row';
import { cn } from '@/lib/utils';
import { cancelCourtReservation } from '../api/cancel-court-reservation';
import { useNow } from '@/lib/use-now';
import { useCourtReservations } from '../api/get-court-reservations';
import type { CourtReservation } from '../api/types';
import { byDateAndTime, timeRange } from './court-labels';
import { ReservationStatusBadge } from './reservation-status-badge';

/** The coach's "My Court Reservations": every request for court time, cancellable while pending. */
export function CourtReservationsCard({ className }: { className?: string }) {
  const { data: reservations, isLoading } = useCourtReservations();
  const now = useNow();
  const rowProps = useLinkedRow('reservation', reservations?.map((r) => r.reservation_id));

  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>My Court Reservations</CardTitle>
        <CardDescription>Court time you asked gyms for.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading court reservations" />
          </div>
        ) : !reservations?.length ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No court reservations yet.
          </p>
        ) : (
          <ul aria-label="Court reservations" className="grid gap-3">
            {[...reservations].sort(byDateAndTime).map((reservation) => (
              <ReservationItem
                key={reservation.reservation_id}
                reservation={reservation}
                now={now}
                linked={rowProps(reservation.reservation_id)}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ReservationItem({
  reservation,
  now,
  linked,
}: {
  reservation: CourtReservation;
  now: Date;
  linked: LinkedRowProps;
}) {
  const [cancelling, setCancelling] = React.useState(false);

  async function onCancel() {
    setCancelling(true);
    try {
      await cancelCourtReservation(reservation.reservation_id);
      toast.success('Reservation cancelled successfully');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to cancel reservation'));
      setCancelling(false);
    }
  }

  return (
    <li
      {...linked}
      data-testid="court-reservation"
      className={cn('flex items-start justify-between gap-3 rounded-lg border p-4', LINKED_ROW_CLASS)}
    >
      <div className="min-w-0 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-navy-900">
          {reservation.gym_name}
          <ReservationStatusBadge status={reservation.status} />
        </p>
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
        {/* The gym's reason: for a cancel, or for a request a closure declined. */}
        {(reservation.status === 'cancelled' || reservation.status === 'denied') && reservation.cancellation_reason ? (
          <p className="text-muted-foreground" data-testid="cancellation-note">
            Reason: {reservation.cancellation_reason}
          </p>
        ) : null}
      </div>
      {/* A request whose time has come expires: nothing left to withdraw. */}
      {reservation.status === 'pending' && Date.parse(reservation.starts_at) > now.getTime() ? (
        <Button
          variant="ghost"
          size="sm"
          className="shrink-0 text-destructive hover:bg-red-50"
          aria-label={`Cancel reservation of ${reservation.court_name} on ${formatDisplayDate(reservation.date)}`}
          disabled={cancelling}
          onClick={() => void onCancel()}
        >
          {cancelling ? <Loader2 className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
          Cancel
        </Button>
      ) : null}
    </li>
  );
}
