import { ApproveDenyButtons } from '@/components/ui/approve-deny-buttons';
import { Badge } from '@/components/ui/badge';
import { MessageLink } from '@/components/ui/message-link';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LINKED_ROW_CLASS, useLinkedRow, type LinkedRowProps } from '@/lib/linked-row';
import { useActions } from '@/lib/use-actions';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { stillPending, usePendingReservations } from '../api/get-pending-reservations';
import { approveReservation, denyReservation } from '../api/review-reservation';
import type { CourtReservation } from '../api/types';
import { byDateAndTime } from './court-labels';
import { CourtPlaceAndTime } from './court-place-and-time';

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
  const { busy, run } = useActions<'approve' | 'deny'>();
  const id = reservation.reservation_id;
  const approve = () =>
    run('approve', () => approveReservation(id), 'Reservation approved!', 'Failed to approve reservation');
  const deny = () => run('deny', () => denyReservation(id), 'Reservation denied', 'Failed to deny reservation');

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
        <CourtPlaceAndTime reservation={reservation} />
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <MessageLink userId={reservation.coach_id} name={reservation.coach_name} />
        <ApproveDenyButtons busy={busy} onApprove={() => void approve()} onDeny={() => void deny()} />
      </div>
    </li>
  );
}
