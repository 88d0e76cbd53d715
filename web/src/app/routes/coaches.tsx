import { LayoutDashboard } from 'lucide-react';
import { Link } from 'react-router-dom';
import { AppHeader } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { CoachFinder } from '@/features/coaching/components/coach-finder';
import { dashboardPathFor, useUser } from '@/lib/auth';

/** "/coaches" (SPEC §2 Coaches page), for any signed-in user. */
export default function CoachesRoute() {
  const user = useUser();
  return (
    <div className="min-h-screen bg-background">
      <AppHeader
        navActions={
          <Button asChild variant="ghost" size="sm">
            <Link to={dashboardPathFor(user.role)}>
              <LayoutDashboard aria-hidden="true" />
              Dashboard
            </Link>
          </Button>
        }
      />
      <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <div className="mb-6">
          <h1 className="text-2xl font-extrabold tracking-tight text-navy-900 sm:text-3xl">Find Your Coach</h1>
          <p className="mt-1 text-muted-foreground">
            Search by name, specialty or place, then open a profile to book a session.
          </p>
        </div>
        <CoachFinder />
      </main>
    </div>
  );
}
