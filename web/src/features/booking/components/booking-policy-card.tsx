import { Loader2, Pencil, RotateCw } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { useMyPolicy, type BookingPolicy } from '../api/get-coach-policy';
import { saveCoachPolicy } from '../api/save-coach-policy';
import {
  DURATION_UNITS,
  formatDuration,
  fromPolicyForm,
  lateFeePercent,
  noShowFeePercent,
  toPolicyForm,
  type DurationField,
  type DurationUnit,
  type PolicyForm,
  type PolicyFormErrors,
} from '../utils/booking-policy';

const UNIT_LABEL: Record<DurationUnit, string> = { minutes: 'Minutes', hours: 'Hours', days: 'Days' };

/**
 * The coach's "Booking policy": how much notice a booking needs, how far ahead it may be, how
 * soon the coach answers (an unanswered request expires after it), and until when a client
 * cancels for free. GET and PUT /api/coach/policy.
 */
export function BookingPolicyCard({ className }: { className?: string }) {
  const { data: policy, error, isLoading, mutate } = useMyPolicy();
  const [open, setOpen] = React.useState(false);

  return (
    <Card className={className} role="region" aria-labelledby="booking-policy-title">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle id="booking-policy-title">Booking policy</CardTitle>
          <CardDescription>When clients can book and cancel your sessions.</CardDescription>
        </div>
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="outline" size="sm" disabled={!policy}>
              <Pencil aria-hidden="true" />
              Edit Policy
            </Button>
          </DialogTrigger>
          <DialogContent>
            {open && policy ? <PolicyFormView policy={policy} onSaved={() => setOpen(false)} /> : null}
          </DialogContent>
        </Dialog>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading booking policy" />
          </div>
        ) : error || !policy ? (
          <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-4 py-6 text-center text-sm">
            <p role="alert">{errorMessage(error, 'Failed to load your booking policy')}</p>
            <Button variant="outline" size="sm" onClick={() => void mutate()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <PolicyView policy={policy} />
        )}
      </CardContent>
    </Card>
  );
}

function PolicyView({ policy }: { policy: BookingPolicy }) {
  const items: [string, string][] = [
    ['Minimum notice', policy.min_notice_minutes ? formatDuration(policy.min_notice_minutes) : 'None'],
    ['Book up to', `${policy.max_advance_days} ${policy.max_advance_days === 1 ? 'day' : 'days'} ahead`],
    ['Answer within', formatDuration(policy.response_window_minutes)],
    [
      'Free cancellation until',
      policy.cancellation_window_minutes
        ? `${formatDuration(policy.cancellation_window_minutes)} before`
        : 'the session starts',
    ],
    ['Late cancellation fee', `${lateFeePercent(policy)}% of the price`],
    ['No-show fee', `${noShowFeePercent(policy)}% of the price`],
  ];
  return (
    <dl className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 lg:grid-cols-3" data-testid="booking-policy">
      {items.map(([term, value]) => (
        <div key={term} className="rounded-lg bg-muted/60 p-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{term}</dt>
          <dd className="mt-1 font-semibold text-navy-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PolicyFormView({ policy, onSaved }: { policy: BookingPolicy; onSaved: () => void }) {
  const user = useUser();
  const [form, setForm] = React.useState<PolicyForm>(() => toPolicyForm(policy));
  const [errors, setErrors] = React.useState<PolicyFormErrors>({});
  const [serverError, setServerError] = React.useState<string | null>(null);
  const [saving, setSaving] = React.useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setServerError(null);
    const result = fromPolicyForm(form);
    if (result.errors) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await saveCoachPolicy(user.user_id, result.policy);
      toast.success('Booking policy saved');
      onSaved();
    } catch (error) {
      const message = errorMessage(error, 'Failed to save booking policy');
      setServerError(message);
      toast.error(message);
      setSaving(false);
    }
  }

  const duration = (name: 'notice' | 'response' | 'cancellation') => (value: DurationField) =>
    setForm((current) => ({ ...current, [name]: value }));

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Edit Booking Policy</DialogTitle>
        <DialogDescription>Clients see these limits before they book.</DialogDescription>
      </DialogHeader>
      <DurationInput
        id="policy-notice"
        label="Minimum notice"
        hint="How long before a session a booking must come in."
        value={form.notice}
        onChange={duration('notice')}
        error={errors.notice}
      />
      <div className="space-y-2">
        <Label htmlFor="policy-advance">How far ahead (days)</Label>
        <Input
          id="policy-advance"
          type="number"
          inputMode="numeric"
          min="1"
          max="730"
          step="1"
          value={form.advance_days}
          onChange={(e) => setForm((current) => ({ ...current, advance_days: e.target.value }))}
          aria-invalid={errors.advance_days ? true : undefined}
          aria-describedby={errors.advance_days ? 'policy-advance-error' : undefined}
        />
        <FieldError id="policy-advance-error" message={errors.advance_days} />
      </div>
      <DurationInput
        id="policy-response"
        label="Answer requests within"
        hint="A request you have not answered by then expires."
        value={form.response}
        onChange={duration('response')}
        error={errors.response}
      />
      <DurationInput
        id="policy-cancellation"
        label="Free cancellation until"
        hint="Before the session; a client's cancel after that is marked late."
        value={form.cancellation}
        onChange={duration('cancellation')}
        error={errors.cancellation}
      />
      <div className="grid gap-4 min-[400px]:grid-cols-2">
        <PercentInput
          id="policy-late-fee"
          label="Late cancellation fee (%)"
          hint="Of the price, charged when a client cancels after free cancellation ends."
          value={form.late_fee}
          onChange={(late_fee) => setForm((current) => ({ ...current, late_fee }))}
          error={errors.late_fee}
        />
        <PercentInput
          id="policy-no-show-fee"
          label="No-show fee (%)"
          hint="Of the price, charged when you mark a client a no-show."
          value={form.no_show_fee}
          onChange={(no_show_fee) => setForm((current) => ({ ...current, no_show_fee }))}
          error={errors.no_show_fee}
        />
      </div>
      {serverError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {serverError}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="submit" variant="accent" disabled={saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save Policy
        </Button>
      </DialogFooter>
    </form>
  );
}

function DurationInput({
  id,
  label,
  hint,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  hint: string;
  value: DurationField;
  onChange: (value: DurationField) => void;
  error: string | undefined;
}) {
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          min="0"
          step="any"
          className="min-w-0 flex-1"
          value={value.amount}
          onChange={(e) => onChange({ ...value, amount: e.target.value })}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        <Select value={value.unit} onValueChange={(unit) => onChange({ ...value, unit: unit as DurationUnit })}>
          <SelectTrigger className="w-32 shrink-0" aria-label={`${label} unit`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {DURATION_UNITS.map((unit) => (
              <SelectItem key={unit} value={unit}>
                {UNIT_LABEL[unit]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {hint}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function PercentInput({
  id,
  label,
  hint,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min="0"
        max="100"
        step="1"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {hint}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm font-medium text-red-700">
      {message}
    </p>
  );
}
