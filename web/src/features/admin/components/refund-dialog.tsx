import * as React from 'react';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { DialogForm, TextAreaField, TextField, useSave } from '@/components/forms/dialog-form';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { formatCents, parseDollars, refundable } from '@/lib/money';
import { refundBooking, type AdminPayment } from '../api/payments';

/** "12.5" from 1250: the amount as a person would type it. */
const asDollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * "Refund": an amount in dollars (at most what is left of what was paid) and a reason, both
 * recorded; POST /api/admin/bookings/{id}/refund. The server's refusal is shown in the dialog.
 */
export function RefundDialog({
  payment,
  open,
  onOpenChange,
}: {
  payment: AdminPayment;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <DialogWhileOpen open={open} onOpenChange={onOpenChange}>
      {(close) => <RefundForm payment={payment} close={close} />}
    </DialogWhileOpen>
  );
}

function RefundForm({ payment, close }: { payment: AdminPayment; close: () => void }) {
  const left = refundable(payment);
  const [amount, setAmount] = React.useState(asDollars(left));
  const [reason, setReason] = React.useState('');
  const [problem, setProblem] = React.useState<string | null>(null);
  const { saving, save } = useSave(close);

  function submit() {
    const cents = parseDollars(amount);
    if (cents === null || cents <= 0) {
      setProblem('Enter an amount in dollars, such as 20 or 37.50.');
      return;
    }
    if (cents > left) {
      setProblem(`At most ${formatCents(left, payment.currency)} is left to refund.`);
      return;
    }
    if (!reason.trim()) {
      setProblem('Give a reason: it is recorded with the refund.');
      return;
    }
    setProblem(null);
    void save(
      async () => {
        try {
          await refundBooking(payment.booking_id, { amount_cents: cents, reason: reason.trim() });
        } catch (error) {
          setProblem(errorMessage(error, 'Failed to refund'));
          throw error;
        }
      },
      `Refunded ${formatCents(cents, payment.currency)}`,
      'Failed to refund',
    );
  }

  return (
    <DialogForm
      title="Refund"
      description={`${payment.client_name}'s session with ${payment.coach_name} on ${formatDisplayDate(payment.booking_date)}: paid ${formatCents(payment.amount_paid_cents, payment.currency)}, ${formatCents(left, payment.currency)} left to refund.`}
      submitLabel="Refund"
      submitVariant="destructive"
      saving={saving}
      noValidate
      cancel={{ label: 'Keep', onClick: close }}
      onSubmit={submit}
    >
      <TextField
        id="refund-amount"
        label="Amount ($)"
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        aria-invalid={problem ? true : undefined}
      />
      <TextAreaField
        id="refund-reason"
        label="Reason"
        value={reason}
        maxLength={500}
        onChange={(event) => setReason(event.target.value)}
      />
      {problem ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem}
        </p>
      ) : null}
    </DialogForm>
  );
}
