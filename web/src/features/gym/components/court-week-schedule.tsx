import { ChevronLeft, ChevronRight } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { SideScroll } from '@/components/ui/side-scroll';
import { formatLocalDate, startOfWeek, weekDates, WEEKDAYS } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { useCourts } from '../api/get-courts';
import type { CourtAvailability, CourtReservation, GymLocation } from '../api/types';
import { byDateAndTime, timeRange } from './court-labels';

type BlockState = 'available' | 'pending' | 'reserved';

const BLOCK: Record<BlockState, { label: string; className: string; swatch: string }> = {
  available: { label: 'Available', className: 'border-navy-500 bg-navy-50', swatch: 'bg-navy-500' },
  pending: { label: 'Pending request', className: 'border-yellow-500 bg-yellow-50', swatch: 'bg-yellow-500' },
  reserved: { label: 'Reserved', className: 'border-green-600 bg-green-50', swatch: 'bg-green-600' },
};

interface CourtWeekScheduleProps {
  locations: GymLocation[];
  availability: CourtAvailability[];
  /** Coaches' requests still waiting; their court time shows as "Pending request". */
  pending: CourtReservation[];
  /** The week to open on; defaults to this week. */
  initialWeek?: Date;
}

/**
 * Each court's week at a glance: courts as rows (grouped by location), Monday..Sunday of a
 * chosen week as columns, and every block of court time marked Available, Pending request or
 * Reserved.
 */
export function CourtWeekSchedule({ locations, availability, pending, initialWeek }: CourtWeekScheduleProps) {
  const [weekStart, setWeekStart] = React.useState(() => startOfWeek(initialWeek ?? new Date()));
  const days = weekDates(weekStart);
  const dates = days.map(formatLocalDate);
  const today = formatLocalDate(new Date());
  const requested = new Set(pending.map((r) => r.availability_id));
  const stateOf = (a: CourtAvailability): BlockState =>
    a.is_reserved ? 'reserved' : requested.has(a.availability_id) ? 'pending' : 'available';
  const inWeek = availability.filter((a) => a.date >= dates[0] && a.date <= dates[6]).sort(byDateAndTime);
  const shortDate = (d: Date) => d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });

  const moveWeeks = (n: number) =>
    setWeekStart((current) => new Date(current.getFullYear(), current.getMonth(), current.getDate() + 7 * n));

  return (
    <section aria-label="Court schedule" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-semibold text-navy-800" aria-live="polite">
          Week of {shortDate(days[0])} – {shortDate(days[6])}
        </p>
        <div className="flex items-center gap-1">
          <Button variant="outline" size="icon" aria-label="Previous week" onClick={() => moveWeeks(-1)}>
            <ChevronLeft aria-hidden="true" />
          </Button>
          <Button variant="outline" size="sm" onClick={() => setWeekStart(startOfWeek(new Date()))}>
            This week
          </Button>
          <Button variant="outline" size="icon" aria-label="Next week" onClick={() => moveWeeks(1)}>
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
      <SideScroll label="Courts by day, scrolling sideways">
        <table className="w-full min-w-[52rem] table-fixed border-collapse text-xs">
          <thead>
            <tr className="bg-muted/50">
              <th scope="col" className="w-36 border-b px-2 py-2 text-left font-semibold text-navy-700">
                Court
              </th>
              {WEEKDAYS.map((weekday, i) => (
                <th
                  key={weekday}
                  scope="col"
                  abbr={weekday}
                  className={cn('border-b border-l px-2 py-2 text-center', dates[i] === today && 'bg-court-50')}
                >
                  <span className={cn('block font-bold uppercase tracking-wide', dates[i] === today ? 'text-court-700' : 'text-navy-700')}>
                    {weekday.slice(0, 3)}
                  </span>
                  <span className="block font-normal text-muted-foreground">{days[i].getDate()}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {locations.map((location) => (
              <LocationRows
                key={location.location_id}
                location={location}
                dates={dates}
                today={today}
                availability={inWeek}
                stateOf={stateOf}
              />
            ))}
          </tbody>
        </table>
      </SideScroll>
      <p className="flex flex-wrap gap-4 text-xs text-muted-foreground">
        {(Object.keys(BLOCK) as BlockState[]).map((state) => (
          <span key={state} className="inline-flex items-center gap-1.5">
            <span className={cn('size-2.5 rounded-sm', BLOCK[state].swatch)} aria-hidden="true" />
            {BLOCK[state].label}
          </span>
        ))}
      </p>
    </section>
  );
}

function LocationRows({
  location,
  dates,
  today,
  availability,
  stateOf,
}: {
  location: GymLocation;
  dates: string[];
  today: string;
  availability: CourtAvailability[];
  stateOf: (a: CourtAvailability) => BlockState;
}) {
  const { data: courts } = useCourts(location.location_id);
  if (!courts?.length) return null;
  return (
    <>
      <tr>
        <th colSpan={8} scope="colgroup" className="border-b bg-white px-2 py-1.5 text-left text-xs font-semibold text-court-700">
          {location.name}
        </th>
      </tr>
      {courts.map((court) => (
        <tr key={court.court_id} data-testid="court-row">
          <th scope="row" className="border-b px-2 py-2 text-left align-top font-semibold text-navy-900">
            {court.court_name}
          </th>
          {dates.map((date) => {
            const blocks = availability.filter((a) => a.court_id === court.court_id && a.date === date);
            return (
              <td key={date} className={cn('border-b border-l p-1 align-top', date === today && 'bg-court-50/40')}>
                <ul className="flex flex-col gap-1">
                  {blocks.map((block) => {
                    const state = stateOf(block);
                    return (
                      <li
                        key={block.availability_id}
                        className={cn('rounded-md border-l-4 px-1.5 py-1', BLOCK[state].className)}
                      >
                        <span className="block font-semibold text-navy-900">{timeRange(block)}</span>
                        <span className="block text-muted-foreground">{BLOCK[state].label}</span>
                      </li>
                    );
                  })}
                </ul>
              </td>
            );
          })}
        </tr>
      ))}
    </>
  );
}
