import { Loader2, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { MessageLink } from '@/components/ui/message-link';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatDisplayDate } from '@/lib/dates';
import { LINKED_ROW_CLASS, useLinkedRow, type LinkedRowProps } from '@/lib/linked-row';
import { useActions } from '@/lib/use-actions';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { cancelCourtReservation } from '../api/cancel-court-reservation';
import { useCourtReservations } from '../api/get-court-reservations';
import type { CourtReservation } from '../api/types';
import { byDateAndTime } from './court-labels';
import { CourtPlaceAndTime } from './court-place-and-time';
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
  const { busy, run } = useActions<'cancel'>();
  const cancelling = busy === 'cancel';
  const onCancel = () =>
    run(
      'cancel',
      () => cancelCourtReservation(reservation.reservation_id),
      'Reservation cancelled successfully',
      'Failed to cancel reservation',
    );

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
        <CourtPlaceAndTime reservation={reservation} />
        {/* The gym's reason: for a cancel, or for a request a closure declined. */}
        {(reservation.status === 'cancelled' || reservation.status === 'denied') && reservation.cancellation_reason ? (
          <p className="text-muted-foreground" data-testid="cancellation-note">
            Reason: {reservation.cancellation_reason}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-wrap items-center justify-end gap-2">
        {/* The gym's account, once the gateway's court reservation names it (issue 36). */}
        <MessageLink userId={reservation.gym_id} name={reservation.gym_name} />
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
      </div>
    </li>
  );
}
