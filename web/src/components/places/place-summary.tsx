/** A place as both roles list it: a pin, its name, its address, and a line under them. */
import { MapPin } from 'lucide-react';
import type * as React from 'react';

interface PlaceSummaryProps {
  name: string;
  address: string;
  /** City and state, and what else the role shows (a court, the zone). */
  detail: React.ReactNode;
}

export function PlaceSummary({ name, address, detail }: PlaceSummaryProps) {
  return (
    <div className="flex min-w-0 gap-3">
      <MapPin className="mt-0.5 size-5 shrink-0 text-court-700" aria-hidden="true" />
      <div className="min-w-0 text-sm">
        <p className="font-semibold text-navy-900">{name}</p>
        <p className="text-muted-foreground">{address}</p>
        <p className="text-muted-foreground">{detail}</p>
      </div>
    </div>
  );
}
