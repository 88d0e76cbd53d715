import { Search } from 'lucide-react';
import { Link } from 'react-router-dom';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ClientProfileCard } from '@/features/booking/components/client-profile-card';
import { ClientTiles } from '@/features/booking/components/client-tiles';
import { PaymentMethodsCard } from '@/features/booking/components/payment-methods-card';
import { YourBookingsCard } from '@/features/booking/components/your-bookings-card';
import { CalendarSubscriptionCard } from '@/features/calendar/components/calendar-subscription-card';
import { useUser } from '@/lib/auth';
import { firstName } from '@/lib/names';

/**
 * "/client/dashboard": a grid of cards, each a self-contained component from a feature folder
 * that fetches its own data with that feature's hooks. Add a card by importing it here.
 */
export default function ClientDashboardRoute() {
  const user = useUser();
  return (
    <DashboardLayout
      title={`Welcome back, ${firstName(user.full_name)}!`}
      subtitle="Find a coach, book a session and keep track of your training."
      navActions={
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.coaches.getHref()}>
            <Search aria-hidden="true" />
            Find Coaches
          </Link>
        </Button>
      }
    >
      <div className="grid gap-6">
        <ClientTiles />
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="grid content-start gap-6">
            <ClientProfileCard />
            <PaymentMethodsCard />
            <CalendarSubscriptionCard />
          </div>
          <YourBookingsCard className="lg:col-span-2" />
        </div>
      </div>
    </DashboardLayout>
  );
}
