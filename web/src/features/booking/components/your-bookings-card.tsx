import { CalendarX2, Plus, Search } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router-dom';
import { DashboardCard } from '@/components/cards/dashboard-card';
import { Button } from '@/components/ui/button';
import { CancelWithReasonDialog, confirmWrite } from '@/components/dialogs/cancel-with-reason-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { MessageLink } from '@/components/ui/message-link';
import { paths } from '@/config/paths';
import { formatDisplayDate } from '@/lib/dates';
import { useLinkedRow, type LinkedRowProps } from '@/lib/linked-row';
import { useNow } from '@/lib/use-now';
import { formatTimeRange } from '@/lib/zoned-time';
import { cancelBooking } from '../api/cancel-booking';
import { useBookings, type Booking } from '../api/get-bookings';
import {
  canEditReview,
  canLeaveReview,
  cancelWouldBeLate,
  clientCanCancel,
  inCalendar,
} from '../utils/booking-rules';
import { AddToCalendarButton } from './add-to-calendar-button';
import { RescheduleDialog } from './reschedule-dialog';
import { ReviewDialog } from './review-dialog';
import { PAYMENT_METHODS_ANCHOR } from './payment-methods-card';
import {
  BookingPayment,
  ReceiptLink,
  BookingRow,
  BookingStatusBadge,
  BookingWhenWhere,
  CancellationNote,
  LateCancellationBadge,
  LateCancellationWarning,
} from './booking-summary';

/**
 * The client's "Your Bookings": each booking's coach, date, times, place, status and payment,
 * and a cancel button while the booking can still be cancelled.
 */
export function YourBookingsCard({ className }: { className?: string }) {
  const { data: bookings, isLoading } = useBookings();
  const now = useNow();
  const rowProps = useLinkedRow('booking', bookings?.map((b) => b.booking_id));

  return (
    <DashboardCard
      className={className}
      title="Your Bookings"
      description="Your sessions, their status and payment."
      actions={
        <Button asChild variant="accent" size="sm">
          <Link to={paths.coaches.getHref()}>
            <Plus aria-hidden="true" />
            Book a Session
          </Link>
        </Button>
      }
      loading={isLoading}
      loadingLabel="Loading bookings"
      empty={
        !bookings?.length ? (
          <EmptyState
            icon={<CalendarX2 />}
            title="No bookings yet"
            description="Find a coach and book your first session."
            action={
              <Button asChild variant="outline">
                <Link to={paths.coaches.getHref()}>
                  <Search aria-hidden="true" />
                  Browse Coaches
                </Link>
              </Button>
            }
          />
        ) : null
      }
    >
      <ul aria-label="Your bookings" className="grid gap-3">
        {bookings?.map((booking) => (
          <ClientBookingItem key={booking.booking_id} booking={booking} now={now} linked={rowProps(booking.booking_id)} />
        ))}
      </ul>
    </DashboardCard>
  );
}

function ClientBookingItem({ booking, now, linked }: { booking: Booking; now: Date; linked: LinkedRowProps }) {
  const [cancelling, setCancelling] = React.useState(false);
  const [moving, setMoving] = React.useState(false);
  const [reviewing, setReviewing] = React.useState(false);

  return (
    <BookingRow booking={booking} linked={linked}>
      <div className="min-w-0 space-y-1.5">
        <p className="font-semibold text-navy-900">{booking.coach_name}</p>
        <BookingWhenWhere booking={booking} />
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <BookingStatusBadge status={booking.status} />
          <LateCancellationBadge booking={booking} />
          <BookingPayment booking={booking} fixCardHref={`#${PAYMENT_METHODS_ANCHOR}`} />
        </div>
        <CancellationNote booking={booking} />
        {booking.review ? (
          <p className="text-sm text-navy-700" data-testid="your-review">
            Your review: {'★'.repeat(booking.review.rating)}
            {booking.review.hidden ? ' (hidden by an administrator)' : ''}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2 self-start sm:self-center">
        <ReceiptLink booking={booking} withWhom={booking.coach_name} />
        <MessageLink userId={booking.coach_id} name={booking.coach_name} />
        {inCalendar(booking) ? <AddToCalendarButton booking={booking} withWhom={booking.coach_name} /> : null}
        {canLeaveReview(booking) || canEditReview(booking, now) ? (
          <Button variant={booking.review ? 'outline' : 'accent'} size="sm" onClick={() => setReviewing(true)}>
            {booking.review ? 'Edit review' : 'Leave a review'}
          </Button>
        ) : null}
        {clientCanCancel(booking, now) ? (
          <Button variant="outline" size="sm" onClick={() => setMoving(true)}>
            Reschedule
          </Button>
        ) : null}
        {clientCanCancel(booking, now) ? (
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:bg-red-50"
            onClick={() => setCancelling(true)}
          >
            Cancel Booking
          </Button>
        ) : null}
      </div>
      <ClientCancelDialog booking={booking} open={cancelling} onOpenChange={setCancelling} />
      <RescheduleDialog booking={booking} open={moving} onOpenChange={setMoving} />
      <ReviewDialog booking={booking} open={reviewing} onOpenChange={setReviewing} />
    </BookingRow>
  );
}

/**
 * "Cancel this booking?": warns before a cancel that would be recorded as late (a confirmed
 * session whose free cancellation, fixed when it was booked, has ended).
 */
function ClientCancelDialog({
  booking,
  open,
  onOpenChange,
}: {
  booking: Booking;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const late = open && cancelWouldBeLate(booking, new Date());

  return (
    <CancelWithReasonDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel this booking?"
      description={`${booking.coach_name}, ${formatDisplayDate(booking.booking_date)}, ${formatTimeRange(booking)}.`}
      notice={late ? <LateCancellationWarning booking={booking} lead="This is a late cancellation" /> : null}
      reasonLabel="Reason for the coach (optional)"
      keepLabel="Keep Booking"
      confirmLabel="Cancel Booking"
      onConfirm={confirmWrite(
        (reason) => cancelBooking(booking.booking_id, reason),
        'Booking cancelled successfully',
        'Failed to cancel booking',
        () => onOpenChange(false),
      )}
    />
  );
}
