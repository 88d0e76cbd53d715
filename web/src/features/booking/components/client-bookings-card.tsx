import { Check, Inbox, Loader2, X } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useBookings, type Booking } from '../api/get-bookings';
import { approveBooking, denyBooking } from '../api/review-booking';
import { BookingWhenWhere } from './booking-summary';

/** The coach's "Client Bookings": approve or deny pending ones, see payment on confirmed ones. */
export function ClientBookingsCard({ className }: { className?: string }) {
  const { data: bookings, isLoading } = useBookings();
  const pending = bookings?.filter((b) => b.status === 'pending').length ?? 0;

  return (
    <Card className={className}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>Client Bookings</CardTitle>
          <CardDescription>Sessions clients booked with you.</CardDescription>
        </div>
        {pending ? <Badge variant="warning">{pending} pending</Badge> : null}
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading bookings" />
          </div>
        ) : !bookings?.length ? (
          <p className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            <Inbox className="size-8 text-navy-300" aria-hidden="true" />
            No bookings yet
          </p>
        ) : (
          <ul aria-label="Client bookings" className="grid gap-3">
            {bookings.map((booking) => (
              <CoachBookingItem key={booking.booking_id} booking={booking} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function CoachBookingItem({ booking }: { booking: Booking }) {
  const [busy, setBusy] = React.useState<'approve' | 'deny' | null>(null);

  async function review(action: 'approve' | 'deny') {
    setBusy(action);
    try {
      if (action === 'approve') {
        await approveBooking(booking.booking_id);
        toast.success('Booking approved!');
      } else {
        await denyBooking(booking.booking_id);
        toast.success('Booking denied');
      }
    } catch (error) {
      toast.error(errorMessage(error, action === 'approve' ? 'Failed to approve booking' : 'Failed to deny booking'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <li
      data-testid="booking"
      className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="min-w-0 space-y-1.5">
        <p className="font-semibold text-navy-900">{booking.client_name}</p>
        <BookingWhenWhere booking={booking} />
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        {booking.status === 'pending' ? (
          <>
            <Button size="sm" variant="accent" disabled={busy !== null} onClick={() => void review('approve')}>
              {busy === 'approve' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
              Approve
            </Button>
            <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => void review('deny')}>
              {busy === 'deny' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
              Deny
            </Button>
          </>
        ) : booking.status === 'confirmed' ? (
          <span className="text-sm text-navy-700">
            <Badge variant="success" className="mr-2">confirmed</Badge>
            Payment: <span className="font-semibold">{booking.payment_status}</span>
          </span>
        ) : (
          <Badge variant="destructive">{booking.status}</Badge>
        )}
      </div>
    </li>
  );
}
