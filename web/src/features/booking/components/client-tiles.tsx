import { CalendarCheck, ChevronRight, MapPin, Search } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { formatLocalDate } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { useBookings } from '../api/get-bookings';

const tile = 'flex items-center gap-4 rounded-lg border bg-card p-5 shadow-sm';

/** The client dashboard's three tiles: Find a Coach (a link), My Bookings and Locations (facts). */
export function ClientTiles() {
  const { data: bookings } = useBookings();
  const today = formatLocalDate(new Date());
  const open = bookings?.filter((b) => b.status === 'pending' || b.status === 'confirmed');
  const upcoming = open?.filter((b) => b.booking_date >= today).length;
  const places = bookings ? new Set(bookings.map((b) => b.location_name).filter(Boolean)).size : undefined;

  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Link
        to={paths.coaches.getHref()}
        className={cn(tile, 'group transition hover:border-court-300 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring')}
      >
        <TileIcon className="bg-court-100 text-court-700">
          <Search />
        </TileIcon>
        <span className="min-w-0 flex-1">
          <span className="block font-semibold text-navy-900">Find a Coach</span>
          <span className="block text-sm text-muted-foreground">Browse coaches near you</span>
        </span>
        <ChevronRight className="size-5 text-muted-foreground transition group-hover:translate-x-0.5" aria-hidden="true" />
      </Link>
      <div className={tile}>
        <TileIcon className="bg-navy-50 text-navy-700">
          <CalendarCheck />
        </TileIcon>
        <div>
          <p className="font-semibold text-navy-900">My Bookings</p>
          <p className="text-sm text-muted-foreground">
            {upcoming === undefined ? 'Your sessions' : `${upcoming} upcoming`}
          </p>
        </div>
      </div>
      <div className={tile}>
        <TileIcon className="bg-green-100 text-green-700">
          <MapPin />
        </TileIcon>
        <div>
          <p className="font-semibold text-navy-900">Locations</p>
          <p className="text-sm text-muted-foreground">
            {places === undefined ? 'Where you train' : `${places} ${places === 1 ? 'location' : 'locations'} booked`}
          </p>
        </div>
      </div>
    </div>
  );
}

function TileIcon({ className, children }: { className?: string; children: React.ReactNode }) {
  return (
    <span
      aria-hidden="true"
      className={cn('flex size-11 shrink-0 items-center justify-center rounded-lg [&_svg]:size-5', className)}
    >
      {children}
    </span>
  );
}
