import { CalendarPlus, Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { saveFile } from '@/lib/download';
import { bookingIcsName, getBookingIcs } from '../api/get-booking-ics';
import type { Booking } from '../api/get-bookings';

/**
 * "Add to Calendar": downloads the booking as an `.ics` file, which every calendar app opens. The
 * event has the same UID as in the person's calendar feed, so a calendar holding both keeps one.
 */
export function AddToCalendarButton({ booking, withWhom }: { booking: Booking; withWhom: string }) {
  const [busy, setBusy] = React.useState(false);

  async function download() {
    setBusy(true);
    try {
      const file = await getBookingIcs(booking.booking_id);
      saveFile(file, bookingIcsName(booking.booking_date));
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to prepare the calendar file'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button
      size="sm"
      variant="outline"
      disabled={busy}
      aria-busy={busy}
      aria-label={`Add to Calendar: ${withWhom}, ${formatDisplayDate(booking.booking_date)}`}
      onClick={() => void download()}
    >
      {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CalendarPlus aria-hidden="true" />}
      Add to Calendar
    </Button>
  );
}
