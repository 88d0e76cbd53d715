import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { BookingPolicyCard } from '@/features/booking/components/booking-policy-card';
import { ClientBookingsCard } from '@/features/booking/components/client-bookings-card';
import { EarningsCard } from '@/features/booking/components/earnings-card';
import { TimeOffCard } from '@/features/booking/components/time-off-card';
import { CoachReviewsCard } from '@/features/booking/components/coach-reviews-card';
import { CalendarSubscriptionCard } from '@/features/calendar/components/calendar-subscription-card';
import { useCoachProfile } from '@/features/coaching/api/get-coach-profile';
import { AvailabilityCard } from '@/features/coaching/components/availability-card';
import { CoachLocationsCard } from '@/features/coaching/components/coach-locations-card';
import { CoachProfileCard } from '@/features/coaching/components/coach-profile-card';
import { BrowseGymLocationsCard } from '@/features/gym/components/browse-gym-locations-card';
import { CourtReservationsCard } from '@/features/gym/components/court-reservations-card';
import { useUser } from '@/lib/auth';
import { firstName } from '@/lib/names';

/**
 * "/coach/dashboard": a grid of cards, each a self-contained component from a feature folder
 * that fetches its own data with that feature's hooks. Add a card by importing it here.
 */
export default function CoachDashboardRoute() {
  const user = useUser();
  const profile = useCoachProfile(user.user_id);
  return (
    <DashboardLayout title="Coach Dashboard" subtitle={`Welcome back, ${firstName(user.full_name)}!`}>
      <div className="grid gap-6 lg:grid-cols-2">
        <CoachProfileCard />
        <CoachLocationsCard />
        <BookingPolicyCard className="lg:col-span-2" />
        <AvailabilityCard className="lg:col-span-2" />
        <TimeOffCard className="lg:col-span-2" />
        <ClientBookingsCard className="lg:col-span-2" />
        <EarningsCard className="lg:col-span-2" />
        <CoachReviewsCard className="lg:col-span-2" coachId={user.user_id} figures={profile.data} />
        <BrowseGymLocationsCard />
        <CourtReservationsCard />
        <CalendarSubscriptionCard />
      </div>
    </DashboardLayout>
  );
}
