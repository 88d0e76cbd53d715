import { CalendarDays, Warehouse } from 'lucide-react';
import { Link } from 'react-router-dom';
import { dashboardPathFor, useUser } from '@/lib/auth';
import { formatDisplayDate } from '@/lib/dates';
import type { SharedRecord } from '../api/types';

/** Where a shared record is on the person's dashboard (the list scrolls to it and marks it). */
function recordHref(record: SharedRecord, role: string) {
  const param = record.kind === 'booking' ? 'booking' : 'reservation';
  return `${dashboardPathFor(role)}?${param}=${encodeURIComponent(record.id)}`;
}

/** "You share": the bookings or court requests of the two people, each linking to it. */
export function SharedRecords({ records }: { records: SharedRecord[] }) {
  const user = useUser();
  if (records.length === 0) return null;
  return (
    <details className="border-b px-4 py-2 text-sm">
      <summary className="cursor-pointer py-1 font-medium text-navy-800">
        You share {records.length === 1 ? '1 record' : `${records.length} records`}
      </summary>
      <ul aria-label="Shared bookings and court requests" className="mt-1 grid gap-1 pb-1">
        {records.map((record) => (
          <li key={`${record.kind}-${record.id}`}>
            <Link
              to={recordHref(record, user.role)}
              className="inline-flex items-center gap-2 rounded px-1 py-1 text-navy-700 underline-offset-2 hover:underline"
            >
              {record.kind === 'booking' ? (
                <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
              ) : (
                <Warehouse className="size-4 shrink-0" aria-hidden="true" />
              )}
              {record.kind === 'booking' ? 'Booking' : 'Court request'}, {formatDisplayDate(record.date)},{' '}
              {record.start_time}–{record.end_time} ({record.status})
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
