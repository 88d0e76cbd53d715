import * as React from 'react';
import { toast } from 'sonner';
import { DialogForm, TextAreaField } from '@/components/forms/dialog-form';
import { errorMessage } from '@/lib/api-client';
import { DialogWhileOpen } from './form-dialog';

/** The longest reason the dialog takes (the services keep short reasons). */
export const MAX_REASON_LENGTH = 500;

interface CancelWithReasonDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: React.ReactNode;
  /** A notice above the reason (a late-cancellation warning). */
  notice?: React.ReactNode;
  reasonLabel: string;
  /** The keep button's words ("Keep Booking"). */
  keepLabel: string;
  /** The confirm button's words ("Cancel Booking"). */
  confirmLabel: string;
  /** Held back while something the decision needs is loading. */
  confirmDisabled?: boolean;
  /** Runs the cancel; resolves true when done (the dialog closes), false to stay open. */
  onConfirm: (reason: string) => Promise<boolean>;
}

/**
 * The usual `onConfirm`: runs `write(reason)`, says `done` and closes the dialog; or says the
 * server's detail (else `failed`) and stays open for another try.
 */
export function confirmWrite(
  write: (reason: string) => Promise<unknown>,
  done: string,
  failed: string,
  close: () => void,
) {
  return async (reason: string) => {
    try {
      await write(reason);
      toast.success(done);
      close();
      return true;
    } catch (error) {
      toast.error(errorMessage(error, failed));
      return false;
    }
  };
}

/**
 * "Are you sure?" for a cancel that someone else will notice: an optional reason they will read,
 * and a clear way back. Shared by bookings and court reservations.
 */
export function CancelWithReasonDialog({ open, onOpenChange, ...rest }: CancelWithReasonDialogProps) {
  return (
    <DialogWhileOpen open={open} onOpenChange={onOpenChange} className="sm:max-w-md">
      {(close) => <CancelForm {...rest} onKeep={close} />}
    </DialogWhileOpen>
  );
}

function CancelForm({
  title,
  description,
  notice,
  reasonLabel,
  keepLabel,
  confirmLabel,
  confirmDisabled,
  onConfirm,
  onKeep,
}: Omit<CancelWithReasonDialogProps, 'open' | 'onOpenChange'> & { onKeep: () => void }) {
  const [reason, setReason] = React.useState('');
  const [busy, setBusy] = React.useState(false);
  const id = React.useId();

  async function onSubmit() {
    setBusy(true);
    const done = await onConfirm(reason.trim());
    if (!done) setBusy(false);
  }

  return (
    <DialogForm
      title={title}
      description={description}
      submitLabel={confirmLabel}
      submitVariant="destructive"
      saving={busy}
      waiting={confirmDisabled}
      cancel={{ label: keepLabel, onClick: onKeep }}
      onSubmit={() => void onSubmit()}
    >
      {notice}
      <TextAreaField
        id={`${id}-reason`}
        label={reasonLabel}
        value={reason}
        maxLength={MAX_REASON_LENGTH}
        onChange={(event) => setReason(event.target.value)}
        className="min-h-20"
      />
    </DialogForm>
  );
}
