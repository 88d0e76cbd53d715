import * as React from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isTimeZone, timeZoneNames } from '@/lib/zoned-time';

/** The words for a zone name the browser does not know. */
export const UNKNOWN_ZONE = 'Choose a time zone from the list, such as America/Chicago';

/** The problem with a typed zone, or null when it is empty (optional) or a known IANA zone. */
export function timeZoneProblem(value: string): string | null {
  const zone = value.trim();
  return !zone || isTimeZone(zone) ? null : UNKNOWN_ZONE;
}

interface TimeZoneFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint: string;
  error?: string | null;
  placeholder?: string;
}

/**
 * An IANA time zone, typed with suggestions from the browser's list ("America/Chicago"); every
 * name the browser knows is offered, and the server checks it again.
 */
export function TimeZoneField({ id, label, value, onChange, hint, error, placeholder }: TimeZoneFieldProps) {
  const names = React.useMemo(() => timeZoneNames(), []);
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        list={`${id}-zones`}
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <datalist id={`${id}-zones`}>
        {names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
