import * as React from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useAdminStats } from '../api/get-stats';

const ActivityChart = React.lazy(() => import('./activity-chart'));

const loading = (
  <div className="flex h-64 items-center justify-center">
    <Spinner label="Loading activity" />
  </div>
);

/** "Activity": the platform's sign-ups and bookings week by week. */
export function ActivityCard({ className }: { className?: string }) {
  const { data: stats, error } = useAdminStats();
  const activity = stats?.activity ?? [];
  const quiet = activity.every((week) => week.signups === 0 && week.bookings === 0);

  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Activity</CardTitle>
        <CardDescription>Sign-ups and bookings per week.</CardDescription>
      </CardHeader>
      <CardContent>
        {!stats ? (
          error ? (
            <p className="py-8 text-center text-sm text-muted-foreground">Failed to load statistics</p>
          ) : (
            loading
          )
        ) : quiet ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No activity yet.
          </p>
        ) : (
          <React.Suspense fallback={loading}>
            <ActivityChart activity={activity} />
          </React.Suspense>
        )}
      </CardContent>
    </Card>
  );
}
