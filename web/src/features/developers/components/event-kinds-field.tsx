import * as React from 'react';
import { EVENT_GROUPS } from '../utils/catalog';

interface EventKindsFieldProps {
  value: Set<string>;
  onChange: (kinds: Set<string>) => void;
}

/** "Events to send": the kinds by group (bookings, court requests, reviews, payments), each group
 * with a box that ticks or clears all of it. */
export function EventKindsField({ value, onChange }: EventKindsFieldProps) {
  const id = React.useId();
  const set = (kinds: string[], on: boolean) => {
    const next = new Set(value);
    for (const kind of kinds) {
      if (on) next.add(kind);
      else next.delete(kind);
    }
    onChange(next);
  };

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium text-navy-800">Events to send</legend>
      {EVENT_GROUPS.map((group) => {
        const kinds = group.kinds.map((k) => k.kind);
        const chosen = kinds.filter((k) => value.has(k)).length;
        return (
          <fieldset key={group.label} className="rounded-md border px-3 pb-2">
            <legend className="px-1 text-sm font-semibold text-navy-900">{group.label}</legend>
            <label className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-navy-800">
              <input
                type="checkbox"
                className="size-4"
                checked={chosen === kinds.length}
                ref={(box) => {
                  if (box) box.indeterminate = chosen > 0 && chosen < kinds.length;
                }}
                onChange={(e) => set(kinds, e.target.checked)}
              />
              Every {group.label.toLowerCase()} event
            </label>
            <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
              {group.kinds.map(({ kind, label }) => (
                <div key={kind} className="flex min-h-11 min-w-0 items-center gap-2 text-sm sm:min-h-9">
                  <input
                    id={`${id}-${kind}`}
                    type="checkbox"
                    className="size-4 shrink-0"
                    checked={value.has(kind)}
                    onChange={(e) => set([kind], e.target.checked)}
                    aria-describedby={`${id}-${kind}-code`}
                  />
                  <label htmlFor={`${id}-${kind}`} className="text-navy-800">
                    {label}
                  </label>
                  <code id={`${id}-${kind}-code`} className="truncate font-mono text-xs text-muted-foreground">
                    {kind}
                  </code>
                </div>
              ))}
            </div>
          </fieldset>
        );
      })}
    </fieldset>
  );
}
