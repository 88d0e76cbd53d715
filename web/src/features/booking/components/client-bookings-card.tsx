import { CalendarX2, Inbox, Loader2, UserX } from 'lucide-react';
import * as React from 'react';
import { DashboardCard } from '@/components/cards/dashboard-card';
import { ApproveDenyButtons } from '@/components/ui/approve-deny-buttons';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { MessageLink } from '@/components/ui/message-link';
import { CancelWithReasonDialog, confirmWrite } from '@/components/dialogs/cancel-with-reason-dialog';
import { formatDisplayDate } from '@/lib/dates';
import { useLinkedRow, type LinkedRowProps } from '@/lib/linked-row';
import { useNow } from '@/lib/use-now';
import { useActions } from '@/lib/use-actions';
import { formatTimeRange } from '@/lib/zoned-time';
import { coachCancelBooking, markNoShow } from '../api/cancel-booking';
import { useBookingPages, type Booking } from '../api/get-bookings';
import { approveBooking, denyBooking } from '../api/review-booking';
import { coachCanCancel, coachCanMarkNoShow } from '../utils/booking-rules';
import { AddToCalendarButton } from './add-to-calendar-button';
import {
  BookingPayment,
  ReceiptLink,
  BookingRow,
  BookingStatusBadge,
  BookingWhenWhere,
  CancellationNote,
  LateCancellationBadge,
} from './booking-summary';

/**
 * The coach's "Client Bookings": approve or deny pending ones, see payment on confirmed ones. A
 * page of bookings at a time (a busy coach has thousands): "Show more bookings" reads the next.
 */
export function ClientBookingsCard({ className }: { className?: string }) {
  const { bookings, isLoading, hasMore, loadingMore, loadMore } = useBookingPages();
  const now = useNow();
  // A notification's booking may lie beyond the first page: the pages are read until it shows.
  const rowProps = useLinkedRow('booking', bookings?.map((b) => b.booking_id), { hasMore, loadingMore, loadMore });
  const pending = bookings?.filter((b) => b.status === 'pending').length ?? 0;

  return (
    <DashboardCard
      className={className}
      title="Client Bookings"
      description="Sessions clients booked with you."
      actions={pending ? <Badge variant="warning">{pending} pending</Badge> : null}
      loading={isLoading}
      loadingLabel="Loading bookings"
      empty={
        !bookings?.length ? (
          <p className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            <Inbox className="size-8 text-navy-300" aria-hidden="true" />
            No bookings yet
          </p>
        ) : null
      }
    >
      <ul aria-label="Client bookings" className="grid gap-3">
        {bookings?.map((booking) => (
          <CoachBookingItem key={booking.booking_id} booking={booking} now={now} linked={rowProps(booking.booking_id)} />
        ))}
      </ul>
      {hasMore ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" size="sm" onClick={() => void loadMore()} disabled={loadingMore}>
            {loadingMore ? 'Loading more bookings…' : 'Show more bookings'}
          </Button>
        </div>
      ) : null}
    </DashboardCard>
  );
}

function CoachBookingItem({ booking, now, linked }: { booking: Booking; now: Date; linked: LinkedRowProps }) {
  const { busy, run } = useActions<'approve' | 'deny' | 'no-show'>();
  const [cancelling, setCancelling] = React.useState(false);
  const id = booking.booking_id;
  const approve = () => run('approve', () => approveBooking(id), 'Booking approved!', 'Failed to approve booking');
  const deny = () => run('deny', () => denyBooking(id), 'Booking denied', 'Failed to deny booking');
  const noShow = () => run('no-show', () => markNoShow(id), 'Marked as no-show', 'Failed to mark no-show');

  return (
    <BookingRow booking={booking} linked={linked}>
      <div className="min-w-0 space-y-1.5">
        <p className="font-semibold text-navy-900">{booking.client_name}</p>
        <BookingWhenWhere booking={booking} />
        <CancellationNote booking={booking} />
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        {booking.status === 'pending' ? (
          <ApproveDenyButtons busy={busy} onApprove={() => void approve()} onDeny={() => void deny()} />
        ) : (
          <>
            <BookingStatusBadge status={booking.status} />
            <LateCancellationBadge booking={booking} />
            <BookingPayment booking={booking} />
            <ReceiptLink booking={booking} withWhom={booking.client_name} />
          </>
        )}
        <MessageLink userId={booking.client_id} name={booking.client_name} />
        {booking.status === 'confirmed' ? (
          <AddToCalendarButton booking={booking} withWhom={booking.client_name} />
        ) : null}
        {coachCanCancel(booking, now) ? (
          <Button
            size="sm"
            variant="outline"
            className="text-destructive hover:bg-red-50"
            onClick={() => setCancelling(true)}
          >
            <CalendarX2 aria-hidden="true" />
            Cancel session
          </Button>
        ) : null}
        {coachCanMarkNoShow(booking, now) ? (
          <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => void noShow()}>
            {busy === 'no-show' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <UserX aria-hidden="true" />}
            Mark no-show
          </Button>
        ) : null}
      </div>
      <CancelWithReasonDialog
        open={cancelling}
        onOpenChange={setCancelling}
        title="Cancel this session?"
        description={`${booking.client_name}, ${formatDisplayDate(booking.booking_date)}, ${formatTimeRange(booking)}. The client is told, with your reason.`}
        reasonLabel="Reason for the client (optional)"
        keepLabel="Keep session"
        confirmLabel="Cancel session"
        onConfirm={confirmWrite(
          (reason) => coachCancelBooking(booking.booking_id, reason),
          'Session cancelled',
          'Failed to cancel session',
          () => setCancelling(false),
        )}
      />
    </BookingRow>
  );
}
