/**
 * "Add Location", as a coach and a gym both fill it in: name, address, city, state, optional
 * coordinates and time zone (and, for a coach, the court number). What differs by role (the words,
 * the field ids, the write) comes in as props.
 */
import * as React from 'react';
import { DialogForm, TextField, useSave } from '@/components/forms/dialog-form';
import { TimeZoneField, timeZoneProblem } from '@/components/forms/time-zone-field';

/** The typed place, ready to send: null coordinates and zone when not given. */
export interface PlaceInput {
  name: string;
  address: string;
  city: string;
  state: string;
  latitude: number | null;
  longitude: number | null;
  time_zone: string | null;
}

/** An optional coordinate as typed: empty (or not a number) becomes null (SPEC §5). */
export function toCoordinate(text: string): number | null {
  if (!text.trim()) return null;
  const value = Number.parseFloat(text);
  return Number.isFinite(value) ? value : null;
}

const EMPTY = {
  name: '',
  address: '',
  court_number: '',
  city: '',
  state: '',
  latitude: '',
  longitude: '',
  time_zone: '',
};
type Field = keyof typeof EMPTY;

interface PlaceFormProps {
  /** Prefix of the inputs' ids (`location` gives `location-name`, …). */
  idPrefix: string;
  description: string;
  namePlaceholder: string;
  /** A coach names the court at the place; the court number is then sent as typed. */
  withCourtNumber?: boolean;
  create: (input: PlaceInput & { court_number?: string }) => Promise<unknown>;
  onSaved: () => void;
}

export function PlaceForm({ idPrefix, description, namePlaceholder, withCourtNumber, create, onSaved }: PlaceFormProps) {
  const [form, setForm] = React.useState(EMPTY);
  const [zoneError, setZoneError] = React.useState<string | null>(null);
  const { saving, save } = useSave(onSaved);

  function onSubmit() {
    const problem = timeZoneProblem(form.time_zone);
    setZoneError(problem);
    if (problem) return;
    const place: PlaceInput = {
      name: form.name,
      address: form.address,
      city: form.city,
      state: form.state,
      latitude: toCoordinate(form.latitude),
      longitude: toCoordinate(form.longitude),
      time_zone: form.time_zone.trim() || null,
    };
    void save(
      () => create(withCourtNumber ? { ...place, court_number: form.court_number } : place),
      'Location added successfully',
      'Failed to add location',
    );
  }

  const text = (name: Field, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <TextField
      id={`${idPrefix}-${name}`}
      label={label}
      value={form[name]}
      onChange={(event) => setForm((current) => ({ ...current, [name]: event.target.value }))}
      {...props}
    />
  );

  return (
    <DialogForm
      title="Add Location"
      description={description}
      submitLabel="Save Location"
      saving={saving}
      onSubmit={onSubmit}
    >
      {text('name', 'Name', { placeholder: namePlaceholder })}
      {text('address', 'Address', { placeholder: '123 Main St', autoComplete: 'street-address' })}
      <div className={withCourtNumber ? 'grid gap-3 sm:grid-cols-3' : 'grid grid-cols-2 gap-3'}>
        {withCourtNumber ? text('court_number', 'Court Number', { placeholder: '2' }) : null}
        {text('city', 'City', { autoComplete: 'address-level2' })}
        {text('state', 'State', { autoComplete: 'address-level1' })}
      </div>
      <div className="grid grid-cols-2 gap-3">
        {text('latitude', 'Latitude (optional)', { type: 'number', step: '0.000001', inputMode: 'decimal' })}
        {text('longitude', 'Longitude (optional)', { type: 'number', step: '0.000001', inputMode: 'decimal' })}
      </div>
      <TimeZoneField
        id={`${idPrefix}-time_zone`}
        label="Time zone (optional)"
        value={form.time_zone}
        onChange={(time_zone) => setForm((current) => ({ ...current, time_zone }))}
        hint="Left empty, it is found from the coordinates or the city."
        error={zoneError}
      />
    </DialogForm>
  );
}
