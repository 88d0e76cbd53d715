import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { AppHeader } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { ReceiptView } from '@/features/booking/components/receipt-view';
import { dashboardPathFor, useUser } from '@/lib/auth';

/** "/bookings/:bookingId/receipt": a booking's receipt, for its client or its coach. */
export default function ReceiptRoute() {
  const { bookingId } = useParams<{ bookingId: string }>();
  const user = useUser();
  return (
    <div className="min-h-screen bg-background print:bg-white">
      <div className="print:hidden">
        <AppHeader
          navActions={
            <Button asChild variant="ghost" size="sm">
              <Link to={dashboardPathFor(user.role)}>
                <ArrowLeft aria-hidden="true" />
                Back to Dashboard
              </Link>
            </Button>
          }
        />
      </div>
      <main className="mx-auto max-w-2xl px-4 py-8 sm:px-6 print:p-0">
        <h1 className="sr-only">Receipt</h1>
        <ReceiptView bookingId={bookingId ?? ''} />
      </main>
    </div>
  );
}
