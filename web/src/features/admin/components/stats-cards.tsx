import { Banknote, CalendarCheck, Building2, GraduationCap, Percent, Undo2, Users } from 'lucide-react';
import * as React from 'react';
import { Card } from '@/components/ui/card';
import { formatCents } from '@/lib/money';
import { cn } from '@/lib/utils';
import { useAdminStats } from '../api/get-stats';
import type { RevenueStats } from '../api/types';

type CountKey = 'total_users' | 'total_coaches' | 'total_gyms' | 'total_bookings';

const STATS: { key: CountKey; label: string; icon: React.ReactNode; tone: string }[] = [
  { key: 'total_users', label: 'Total Users', icon: <Users />, tone: 'bg-navy-50 text-navy-700' },
  { key: 'total_coaches', label: 'Coaches', icon: <GraduationCap />, tone: 'bg-blue-100 text-blue-700' },
  { key: 'total_gyms', label: 'Gyms', icon: <Building2 />, tone: 'bg-purple-100 text-purple-700' },
  { key: 'total_bookings', label: 'Bookings', icon: <CalendarCheck />, tone: 'bg-court-100 text-court-700' },
];

const REVENUE: { key: keyof RevenueStats; label: string; icon: React.ReactNode; tone: string }[] = [
  { key: 'gross_cents', label: 'Gross revenue', icon: <Banknote />, tone: 'bg-green-100 text-green-700' },
  { key: 'fees_cents', label: 'Platform fees', icon: <Percent />, tone: 'bg-court-100 text-court-700' },
  { key: 'refunds_cents', label: 'Refunds', icon: <Undo2 />, tone: 'bg-red-100 text-red-700' },
];

/** The statistic cards: Total Users, Coaches, Gyms, Bookings; then the money: gross, fees, refunds. */
export function StatsCards() {
  const { data: stats, error } = useAdminStats();
  return (
    <section aria-label="Statistics" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {STATS.map((stat) => (
        <StatCard key={stat.key} stat={stat} value={stats ? stats[stat.key].toLocaleString('en-US') : error ? '–' : '…'} />
      ))}
      <div role="group" aria-label="Revenue" className="col-span-full grid grid-cols-1 gap-4 min-[400px]:grid-cols-3">
        {REVENUE.map((stat) => {
          const cents = stats?.[stat.key];
          return (
            <StatCard
              key={stat.key}
              stat={stat}
              value={typeof cents === 'number' ? formatCents(cents) : stats || error ? '–' : '…'}
            />
          );
        })}
      </div>
      {error && !stats ? (
        <p role="alert" className="col-span-full text-sm text-destructive">
          Failed to load statistics
        </p>
      ) : null}
    </section>
  );
}

function StatCard({ stat, value }: { stat: { key: string; label: string; icon: React.ReactNode; tone: string }; value: string }) {
  return (
    <Card role="group" aria-label={stat.label} className="flex items-center gap-4 p-5">
      <span
        aria-hidden="true"
        className={cn('hidden size-11 shrink-0 items-center justify-center rounded-lg sm:flex [&_svg]:size-5', stat.tone)}
      >
        {stat.icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-muted-foreground">{stat.label}</p>
        <p className="text-2xl font-extrabold tracking-tight text-navy-900" data-testid={`stat-${stat.key}`}>
          {value}
        </p>
      </div>
    </Card>
  );
}
