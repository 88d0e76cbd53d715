import { LayoutDashboard } from 'lucide-react';
import { Link } from 'react-router-dom';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ReportsCard } from '@/features/admin/components/reports-card';

/** "/admin/reports": reported messages in context, and Suspend (issue 36). */
export default function AdminReportsRoute() {
  return (
    <DashboardLayout
      title="Reports"
      subtitle="Messages people reported, and their senders."
      navActions={
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.dashboards.admin.getHref()}>
            <LayoutDashboard aria-hidden="true" />
            Dashboard
          </Link>
        </Button>
      }
    >
      <ReportsCard />
    </DashboardLayout>
  );
}
