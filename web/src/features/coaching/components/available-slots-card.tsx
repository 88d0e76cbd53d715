import { CalendarClock, CalendarX, Clock, MapPin } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import type { AvailabilitySlot, CoachLocation } from '../api/types';
import { formatDisplayDate } from '@/lib/dates';
import { zoneSuffix } from '@/lib/zoned-time';
import { isRecurring, slotLocation, slotTime, slotTimeZone, slotWhen, sortSlots } from '../utils/slot-labels';

interface AvailableSlotsCardProps {
  coachName: string;
  slots: AvailabilitySlot[];
  locations: CoachLocation[] | undefined;
  /** The coach's own zone: the zone of a slot without a location. */
  coachTimeZone?: string | null;
  /** Each slot's next dates the server would book (YYYY-MM-DD), by slot id, once known. */
  nextDates?: Map<string, string[]>;
  onBook: (slot: AvailabilitySlot) => void;
}

/** "Available Time Slots" on /coach/{id}, each with "Book This Slot". */
export function AvailableSlotsCard({
  coachName,
  slots,
  locations,
  coachTimeZone,
  nextDates,
  onBook,
}: AvailableSlotsCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Available Time Slots</CardTitle>
        <CardDescription>Book your session with {coachName}</CardDescription>
      </CardHeader>
      <CardContent>
        {slots.length === 0 ? (
          <EmptyState
            icon={<CalendarX />}
            title="No availability yet"
            description="This coach hasn't set up their availability. Check back soon!"
          />
        ) : (
          <ul className="grid gap-3">
            {sortSlots(slots).map((slot) => (
              <li
                key={slot.slot_id}
                className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between"
                data-testid="slot"
              >
                <div className="space-y-1 text-sm">
                  <p className="flex items-center gap-2 font-semibold text-navy-900">
                    <CalendarClock className="size-4 text-court-700" aria-hidden="true" />
                    {slotWhen(slot)}
                    <Badge variant={isRecurring(slot) ? 'info' : 'accent'}>
                      {isRecurring(slot) ? 'Weekly' : 'One-time'}
                    </Badge>
                  </p>
                  <p className="flex items-center gap-2 text-navy-700">
                    <Clock className="size-4 text-muted-foreground" aria-hidden="true" />
                    {slotTime(slot)}
                    {zoneSuffix(slotTimeZone(slot, locations, coachTimeZone))}
                  </p>
                  <p className="flex items-center gap-2 text-muted-foreground">
                    <MapPin className="size-4" aria-hidden="true" />
                    {slotLocation(slot, locations)}
                  </p>
                  {nextDates ? <NextDates dates={nextDates.get(slot.slot_id) ?? []} /> : null}
                </div>
                <Button variant="accent" onClick={() => onBook(slot)}>
                  Book This Slot
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** "Next: Fri, Mar 21, 2025 · Fri, Mar 28, 2025", or that none is free soon. */
function NextDates({ dates }: { dates: string[] }) {
  return (
    <p className="text-xs text-navy-700" data-testid="next-dates">
      {dates.length
        ? `Next: ${dates.map(formatDisplayDate).join(' · ')}`
        : 'No date free in the next two months'}
    </p>
  );
}
