import { CalendarCheck, Building2, GraduationCap, Users } from 'lucide-react';
import * as React from 'react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { useAdminStats } from '../api/get-stats';
import type { AdminStats } from '../api/types';

const STATS: { key: keyof Omit<AdminStats, 'activity'>; label: string; icon: React.ReactNode; tone: string }[] = [
  { key: 'total_users', label: 'Total Users', icon: <Users />, tone: 'bg-navy-50 text-navy-700' },
  { key: 'total_coaches', label: 'Coaches', icon: <GraduationCap />, tone: 'bg-blue-100 text-blue-700' },
  { key: 'total_gyms', label: 'Gyms', icon: <Building2 />, tone: 'bg-purple-100 text-purple-700' },
  { key: 'total_bookings', label: 'Bookings', icon: <CalendarCheck />, tone: 'bg-court-100 text-court-700' },
];

/** The four statistic cards: Total Users, Coaches, Gyms, Bookings. */
export function StatsCards() {
  const { data: stats, error } = useAdminStats();
  return (
    <section aria-label="Statistics" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {STATS.map((stat) => (
        <Card key={stat.key} role="group" aria-label={stat.label} className="flex items-center gap-4 p-5">
          <span
            aria-hidden="true"
            className={cn('hidden size-11 shrink-0 items-center justify-center rounded-lg sm:flex [&_svg]:size-5', stat.tone)}
          >
            {stat.icon}
          </span>
          <div className="min-w-0">
            <p className="text-sm font-medium text-muted-foreground">{stat.label}</p>
            <p className="text-2xl font-extrabold tracking-tight text-navy-900" data-testid={`stat-${stat.key}`}>
              {stats ? stats[stat.key].toLocaleString('en-US') : error ? '–' : '…'}
            </p>
          </div>
        </Card>
      ))}
      {error && !stats ? (
        <p role="alert" className="col-span-full text-sm text-destructive">
          Failed to load statistics
        </p>
      ) : null}
    </section>
  );
}
