import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { useUser } from '@/lib/auth';
import { firstName } from '@/lib/names';

/**
 * "/coach/dashboard": a grid of cards, each a self-contained component from a feature folder
 * that fetches its own data with that feature's hooks. Add a card by importing it here.
 */
export default function CoachDashboardRoute() {
  const user = useUser();
  return (
    <DashboardLayout title="Coach Dashboard" subtitle={`Welcome back, ${firstName(user.full_name)}!`}>
      <div className="grid gap-6 lg:grid-cols-2">{/* coaching, booking and gym cards */}</div>
    </DashboardLayout>
  );
}
