import { DashboardLayout } from '@/components/layouts/dashboard-layout';

/**
 * "/admin/dashboard": the title "Admin Dashboard", then the statistics and user management cards
 * from src/features/admin. Add a card by importing it here.
 */
export default function AdminDashboardRoute() {
  return (
    <DashboardLayout title="Admin Dashboard" subtitle="Platform statistics and user management.">
      <div className="grid gap-6">{/* stats and user management cards */}</div>
    </DashboardLayout>
  );
}
