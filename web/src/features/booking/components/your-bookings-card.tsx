import { CalendarX2, Loader2, Plus, Search } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { cancelBooking } from '../api/cancel-booking';
import { useBookings, type Booking } from '../api/get-bookings';
import { BookingWhenWhere } from './booking-summary';

/**
 * The client's "Your Bookings": each booking's coach, date, times, place, status and payment,
 * and a cancel button while the booking can still be cancelled.
 */
export function YourBookingsCard({ className }: { className?: string }) {
  const { data: bookings, isLoading } = useBookings();

  return (
    <Card className={className}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Your Bookings</CardTitle>
          <CardDescription>Your sessions, their status and payment.</CardDescription>
        </div>
        <Button asChild variant="accent" size="sm">
          <Link to={paths.coaches.getHref()}>
            <Plus aria-hidden="true" />
            Book a Session
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading bookings" />
          </div>
        ) : !bookings?.length ? (
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
        ) : (
          <ul aria-label="Your bookings" className="grid gap-3">
            {bookings.map((booking) => (
              <ClientBookingItem key={booking.booking_id} booking={booking} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** Cancelled bookings offer no cancel; nor do denied ones, which the server would refuse. */
const canCancel = (status: string) => status !== 'cancelled' && status !== 'denied';

function ClientBookingItem({ booking }: { booking: Booking }) {
  const [cancelling, setCancelling] = React.useState(false);

  async function onCancel() {
    setCancelling(true);
    try {
      await cancelBooking(booking.booking_id);
      toast.success('Booking cancelled successfully');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to cancel booking'));
      setCancelling(false);
    }
  }

  return (
    <li
      data-testid="booking"
      className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="min-w-0 space-y-1.5">
        <p className="font-semibold text-navy-900">{booking.coach_name}</p>
        <BookingWhenWhere booking={booking} />
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <ClientStatusBadge status={booking.status} />
          <Badge variant="outline">Payment: {booking.payment_status}</Badge>
        </div>
      </div>
      {canCancel(booking.status) ? (
        <Button
          variant="outline"
          size="sm"
          className="self-start text-destructive hover:bg-red-50 sm:self-center"
          disabled={cancelling}
          onClick={() => void onCancel()}
        >
          {cancelling ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Cancel Booking
        </Button>
      ) : null}
    </li>
  );
}

/** SPEC §4: confirmed gets a highlighted badge; every other status shows as plain text. */
export function ClientStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={status === 'confirmed' ? 'success' : 'secondary'} data-testid="booking-status">
      {status}
    </Badge>
  );
}
