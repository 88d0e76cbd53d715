import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { parseLocalDate } from '@/lib/dates';
import type { WeekActivity } from '../api/types';

const weekLabel = (weekStart: string) =>
  parseLocalDate(weekStart)?.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }) ?? weekStart;

/**
 * Sign-ups and bookings per week as grouped bars. Its own module so recharts loads only when the
 * chart is drawn; a table carries the same figures for screen readers.
 */
export default function ActivityChart({ activity }: { activity: WeekActivity[] }) {
  const data = activity.map((week) => ({ ...week, label: weekLabel(week.week_start) }));
  return (
    <div>
      <div className="h-64 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {/* The drawing is hidden from readers (the table speaks for it), so it takes no focus. */}
          <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} />
            <YAxis allowDecimals={false} tickLine={false} axisLine={false} fontSize={12} width="auto" />
            <Tooltip cursor={{ fill: 'rgba(15, 23, 42, 0.05)' }} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="signups" name="Sign-ups" fill="#1e3a5f" radius={[4, 4, 0, 0]} />
            <Bar dataKey="bookings" name="Bookings" fill="#f97316" radius={[4, 4, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>Sign-ups and bookings per week</caption>
        <thead>
          <tr>
            <th scope="col">Week of</th>
            <th scope="col">Sign-ups</th>
            <th scope="col">Bookings</th>
          </tr>
        </thead>
        <tbody>
          {data.map((week) => (
            <tr key={week.week_start}>
              <th scope="row">{week.label}</th>
              <td>{week.signups}</td>
              <td>{week.bookings}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
