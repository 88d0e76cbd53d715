import { LayoutDashboard } from 'lucide-react';
import { Link, Navigate } from 'react-router-dom';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { DevelopersPage } from '@/features/developers/components/developers-page';
import { dashboardPathFor, useUser } from '@/lib/auth';

/** "/developers": API tokens and webhooks, for coaches, gyms and admins (a client is sent to their
 * dashboard: the API refuses them both). */
export default function DevelopersRoute() {
  const user = useUser();
  if (user.role === 'client') return <Navigate to={dashboardPathFor(user.role)} replace />;
  return (
    <DashboardLayout
      title="Developers"
      subtitle="Connect your own systems to Courtside: tokens for scripts, webhooks for events."
      navActions={
        <Button asChild variant="ghost" size="sm">
          <Link to={dashboardPathFor(user.role)}>
            <LayoutDashboard aria-hidden="true" />
            Dashboard
          </Link>
        </Button>
      }
    >
      <DevelopersPage />
    </DashboardLayout>
  );
}
