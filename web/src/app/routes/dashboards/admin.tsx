import { Flag } from 'lucide-react';
import { Link } from 'react-router-dom';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ActivityCard } from '@/features/admin/components/activity-card';
import { AuditLogCard } from '@/features/admin/components/audit-log-card';
import { PaymentsCard } from '@/features/admin/components/payments-card';
import { StatsCards } from '@/features/admin/components/stats-cards';
import { UserManagementCard } from '@/features/admin/components/user-management-card';
import { AdminReviewsCard } from '@/features/booking/components/admin-reviews-card';

/**
 * "/admin/dashboard": the title "Admin Dashboard", then the statistics and user management cards
 * from src/features/admin, and every review (src/features/booking) to hide an abusive one. Add a
 * card by importing it here.
 */
export default function AdminDashboardRoute() {
  return (
    <DashboardLayout
      title="Admin Dashboard"
      subtitle="Platform statistics and user management."
      navActions={
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.adminReports.getHref()}>
            <Flag aria-hidden="true" />
            Reports
          </Link>
        </Button>
      }
    >
      <div className="grid gap-6">
        <StatsCards />
        <ActivityCard />
        <PaymentsCard />
        <UserManagementCard />
        <AuditLogCard />
        <AdminReviewsCard />
      </div>
    </DashboardLayout>
  );
}
