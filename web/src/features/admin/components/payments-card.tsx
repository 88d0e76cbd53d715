import { Loader2, Undo2 } from 'lucide-react';
import * as React from 'react';
import { DashboardCard, EmptyNote } from '@/components/cards/dashboard-card';
import { SelectField } from '@/components/forms/select-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import {
  formatCents,
  PAYMENT_STATUSES,
  paymentStatusLabel,
  paymentStatusVariant,
  refundable,
} from '@/lib/money';
import { usePaymentPages, type AdminPayment, type PaymentFilters } from '../api/payments';
import { useCoachChoices } from '../api/get-users';
import { RefundDialog } from './refund-dialog';

const ALL = 'all';

const STATUS_OPTIONS = [
  { value: ALL, label: 'All statuses' },
  ...PAYMENT_STATUSES.filter((status) => status !== 'none').map((status) => ({
    value: status,
    label: paymentStatusLabel(status),
  })),
];

/**
 * "Payments": every booking that carries money, newest first, a page at a time from the server,
 * filtered by payment status, coach and the booking's dates; a Refund on what was paid.
 */
export function PaymentsCard({ className }: { className?: string }) {
  const [filters, setFilters] = React.useState<PaymentFilters>({});
  const { payments, total, error, isLoading, hasMore, loadMore, loadingMore } = usePaymentPages(filters);
  const coaches = useCoachChoices();
  const coachOptions = [
    { value: ALL, label: 'All coaches' },
    ...(coaches ?? []).map((coach) => ({ value: coach.user_id, label: coach.full_name })),
  ];
  const set = (key: keyof PaymentFilters) => (value: string) =>
    setFilters((current) => ({ ...current, [key]: value === ALL || value === '' ? undefined : value }));

  return (
    <DashboardCard
      className={className}
      titleId="admin-payments-title"
      title="Payments"
      description={
        total !== null ? `${total.toLocaleString('en-US')} bookings with money, newest first.` : 'Bookings with money, newest first.'
      }
    >
      <div className="grid gap-4">
        <div className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 lg:grid-cols-4">
          <SelectField
            id="payments-status"
            label="Status"
            value={filters.payment_status ?? ALL}
            onChange={set('payment_status')}
            options={STATUS_OPTIONS}
          />
          <SelectField
            id="payments-coach"
            label="Coach"
            value={filters.coach_id ?? ALL}
            onChange={set('coach_id')}
            options={coachOptions}
          />
          <div className="space-y-2">
            <Label htmlFor="payments-from">From</Label>
            <Input id="payments-from" type="date" value={filters.from ?? ''} onChange={(e) => set('from')(e.target.value)} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="payments-to">To</Label>
            <Input id="payments-to" type="date" value={filters.to ?? ''} onChange={(e) => set('to')(e.target.value)} />
          </div>
        </div>
        {isLoading && !payments ? (
          <div className="flex justify-center py-6" role="status">
            <Loader2 className="size-6 animate-spin text-court-700" aria-hidden="true" />
            <span className="sr-only">Loading payments</span>
          </div>
        ) : error ? (
          // The last read failed (a filter's first page, or the next page): say so rather than
          // showing the rows of other filters as these.
          <p role="alert" className="rounded-lg border border-dashed px-4 py-6 text-center text-sm">
            {errorMessage(error, 'Failed to load payments')}
          </p>
        ) : !payments?.length ? (
          <EmptyNote>No payments match these filters.</EmptyNote>
        ) : (
          <>
            <ul aria-label="Payments" className="grid gap-2">
              {payments.map((payment) => (
                <PaymentRow key={payment.booking_id} payment={payment} />
              ))}
            </ul>
            {hasMore ? (
              <Button variant="outline" className="justify-self-center" onClick={loadMore} disabled={loadingMore}>
                {loadingMore ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                Show more payments
              </Button>
            ) : null}
          </>
        )}
      </div>
    </DashboardCard>
  );
}

function PaymentRow({ payment }: { payment: AdminPayment }) {
  const [refunding, setRefunding] = React.useState(false);
  const left = refundable(payment);
  const canRefund = ['paid', 'partially_paid', 'partially_refunded'].includes(payment.payment_status) && left > 0;
  return (
    <li
      data-testid="admin-payment"
      className="flex flex-col gap-2 rounded-lg border p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="min-w-0 space-y-1">
        <p className="font-semibold text-navy-900">
          {payment.client_name} <span className="font-normal text-muted-foreground">with</span> {payment.coach_name}
        </p>
        <p className="text-muted-foreground">
          {formatDisplayDate(payment.booking_date)} · {payment.status} · price {formatCents(payment.price_cents, payment.currency)}
        </p>
        <p className="flex flex-wrap items-center gap-2">
          <Badge variant={paymentStatusVariant(payment.payment_status)}>{paymentStatusLabel(payment.payment_status)}</Badge>
          <span>paid {formatCents(payment.amount_paid_cents, payment.currency)}</span>
          {payment.amount_refunded_cents > 0 ? (
            <span>refunded {formatCents(payment.amount_refunded_cents, payment.currency)}</span>
          ) : null}
        </p>
      </div>
      {canRefund ? (
        <Button
          variant="outline"
          size="sm"
          className="self-start text-destructive hover:bg-red-50 sm:self-center"
          aria-label={`Refund ${payment.client_name}, ${formatDisplayDate(payment.booking_date)}`}
          onClick={() => setRefunding(true)}
        >
          <Undo2 aria-hidden="true" />
          Refund
        </Button>
      ) : null}
      <RefundDialog payment={payment} open={refunding} onOpenChange={setRefunding} />
    </li>
  );
}
