import { SideScroll } from '@/components/ui/side-scroll';
import { formatLocalDate, weekDates, WEEKDAYS } from '@/lib/dates';
import { cn } from '@/lib/utils';
import type { AvailabilitySlot, CoachLocation } from '../api/types';
import { isRecurring, slotLocation, slotTime, sortSlots } from '../utils/slot-labels';

interface WeeklyScheduleProps {
  slots: AvailabilitySlot[];
  locations: CoachLocation[] | undefined;
  /** Any day of the week to show; defaults to this week. */
  weekOf?: Date;
}

/**
 * The coach's week at a glance: Monday..Sunday columns; recurring slots appear every week on
 * their weekday, one-time slots only in the week of their date.
 */
export function WeeklySchedule({ slots, locations, weekOf = new Date() }: WeeklyScheduleProps) {
  const days = weekDates(weekOf);
  const today = formatLocalDate(new Date());
  const ordered = sortSlots(slots).sort((a, b) => a.start_time.localeCompare(b.start_time));
  const range = `${days[0].toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} – ${days[6].toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}`;

  return (
    <section aria-label="Weekly schedule" className="space-y-2">
      <p className="text-sm font-semibold text-navy-800">
        This week <span className="font-normal text-muted-foreground">({range})</span>
      </p>
      <SideScroll label="Days of this week, scrolling sideways">
        <div className="grid min-w-[44rem] grid-cols-7 divide-x">
          {WEEKDAYS.map((weekday, i) => {
            const date = formatLocalDate(days[i]);
            const daySlots = ordered.filter((slot) =>
              isRecurring(slot)
                ? (slot.day_of_week ?? '').toLowerCase() === weekday.toLowerCase()
                : slot.specific_date === date,
            );
            const isToday = date === today;
            return (
              <div key={weekday} role="group" aria-label={weekday} className="flex min-h-32 flex-col">
                <div className={cn('border-b px-2 py-2 text-center', isToday ? 'bg-court-50' : 'bg-muted/50')}>
                  <p className={cn('text-xs font-bold uppercase tracking-wide', isToday ? 'text-court-700' : 'text-navy-700')}>
                    {weekday.slice(0, 3)}
                  </p>
                  <p className="text-xs text-muted-foreground">{days[i].getDate()}</p>
                </div>
                <ul className="flex flex-1 flex-col gap-1.5 p-1.5">
                  {daySlots.map((slot) => (
                    <li
                      key={slot.slot_id}
                      className={cn(
                        'rounded-md border-l-4 px-2 py-1.5 text-xs',
                        isRecurring(slot) ? 'border-navy-600 bg-navy-50' : 'border-court-500 bg-court-50',
                      )}
                      title={slotLocation(slot, locations)}
                    >
                      <p className="font-semibold text-navy-900">{slotTime(slot)}</p>
                      <p className="truncate text-muted-foreground">{slotLocation(slot, locations)}</p>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </div>
      </SideScroll>
      <p className="flex flex-wrap gap-4 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-navy-600" aria-hidden="true" /> Weekly
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-court-500" aria-hidden="true" /> One-time
        </span>
      </p>
    </section>
  );
}
