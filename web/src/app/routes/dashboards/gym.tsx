import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { CalendarSubscriptionCard } from '@/features/calendar/components/calendar-subscription-card';
import { ClosuresCard } from '@/features/gym/components/closures-card';
import { CourtAvailabilityCard } from '@/features/gym/components/court-availability-card';
import { GymProfileCard } from '@/features/gym/components/gym-profile-card';
import { LocationsCourtsCard } from '@/features/gym/components/locations-courts-card';
import { PendingReservationsCard } from '@/features/gym/components/pending-reservations-card';
import { useUser } from '@/lib/auth';
import { firstName } from '@/lib/names';

/**
 * "/gym/dashboard": a grid of cards, each a self-contained component from a feature folder
 * that fetches its own data with that feature's hooks. Add a card by importing it here.
 */
export default function GymDashboardRoute() {
  const user = useUser();
  return (
    <DashboardLayout title="Gym Dashboard" subtitle={`Welcome back, ${firstName(user.full_name)}!`}>
      <div className="grid gap-6 lg:grid-cols-2">
        <PendingReservationsCard className="lg:col-span-2" />
        <GymProfileCard />
        <LocationsCourtsCard />
        <CourtAvailabilityCard className="lg:col-span-2" />
        <ClosuresCard className="lg:col-span-2" />
        <CalendarSubscriptionCard />
      </div>
    </DashboardLayout>
  );
}
