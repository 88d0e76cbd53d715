import { ArrowLeft, UserX } from 'lucide-react';
import * as React from 'react';
import { Link, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { AppHeader } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { MessageLink } from '@/components/ui/message-link';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useCoachCalendar } from '@/features/booking/api/get-coach-calendar';
import { BookingDialog } from '@/features/booking/components/booking-dialog';
import { CoachPolicyCard } from '@/features/booking/components/coach-policy-card';
import { calendarRange, nextBookableDates } from '@/features/booking/utils/calendar-days';
import { CoachReviewsCard } from '@/features/booking/components/coach-reviews-card';
import { useCoachAvailability } from '@/features/coaching/api/get-coach-availability';
import { useCoachLocations } from '@/features/coaching/api/get-coach-locations';
import { useCoachProfile } from '@/features/coaching/api/get-coach-profile';
import type { AvailabilitySlot } from '@/features/coaching/api/types';
import { AvailableSlotsCard } from '@/features/coaching/components/available-slots-card';
import { CoachProfileHeader } from '@/features/coaching/components/coach-profile-header';
import { TrainingLocationsCard } from '@/features/coaching/components/training-locations-card';
import { slotLocation, slotTimeZone } from '@/features/coaching/utils/slot-labels';
import { useUser } from '@/lib/auth';

const LOAD_FAILED = 'Failed to load coach details';

/** "/coach/{coachId}" (SPEC §2 Coach detail): profile, locations, slots, and booking. */
export default function CoachDetailRoute() {
  const { coachId } = useParams<{ coachId: string }>();
  const user = useUser();
  const profile = useCoachProfile(coachId, {
    onError: () => toast.error(LOAD_FAILED, { id: 'coach-load' }),
    onSuccess: (data) => {
      if (data === null) toast.error(LOAD_FAILED, { id: 'coach-load' });
    },
  });
  const locations = useCoachLocations(coachId);
  const availability = useCoachAvailability(coachId);
  const [chosen, setChosen] = React.useState<AvailabilitySlot | null>(null);
  // The next dates of each slot the server would book (the booking dialog reads the same call).
  const range = React.useMemo(() => calendarRange(new Date()), []);
  const calendar = useCoachCalendar(coachId, range.from, range.to);
  const nextDates = React.useMemo(
    () => (calendar.data ? nextBookableDates(calendar.data, 3) : undefined),
    [calendar.data],
  );

  return (
    <div className="min-h-screen bg-background">
      <AppHeader
        navActions={
          <Button asChild variant="ghost" size="sm">
            <Link to={paths.coaches.getHref()}>
              <ArrowLeft aria-hidden="true" />
              Back to Coaches
            </Link>
          </Button>
        }
      />
      <main className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6 lg:px-8">
        {profile.isLoading ? (
          <div className="flex justify-center py-24">
            <Spinner label="Loading coach" />
          </div>
        ) : !profile.data ? (
          <EmptyState
            icon={<UserX />}
            title="Coach not found"
            description="This coach's profile could not be loaded."
            action={
              <Button asChild variant="accent">
                <Link to={paths.coaches.getHref()}>Back to Coaches</Link>
              </Button>
            }
          />
        ) : (
          <>
            <CoachProfileHeader
              profile={profile.data}
              actions={
                user.role === 'client' ? (
                  <MessageLink userId={coachId as string} name={profile.data.coach_name} label="Message coach" />
                ) : null
              }
            />
            {locations.data && locations.data.length > 0 ? (
              <TrainingLocationsCard locations={locations.data} />
            ) : null}
            <AvailableSlotsCard
              coachName={profile.data.coach_name}
              slots={availability.data ?? []}
              coachTimeZone={profile.data.time_zone}
              locations={locations.data}
              nextDates={nextDates}
              onBook={setChosen}
            />
            <CoachPolicyCard coachId={coachId as string} />
            <CoachReviewsCard coachId={coachId as string} figures={profile.data} />
            <BookingDialog
              coachId={coachId as string}
              coachName={profile.data.coach_name}
              hourlyRate={profile.data.hourly_rate}
              slot={chosen}
              locationLabel={chosen ? slotLocation(chosen, locations.data) : ''}
              timeZone={chosen ? slotTimeZone(chosen, locations.data, profile.data.time_zone) : undefined}
              onClose={() => setChosen(null)}
            />
          </>
        )}
      </main>
    </div>
  );
}
