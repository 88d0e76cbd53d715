import { Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';

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
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        {open ? <CancelForm {...rest} onKeep={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
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

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    const done = await onConfirm(reason.trim());
    if (!done) setBusy(false);
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {notice}
      <div className="space-y-2">
        <Label htmlFor={`${id}-reason`}>{reasonLabel}</Label>
        <Textarea
          id={`${id}-reason`}
          value={reason}
          maxLength={MAX_REASON_LENGTH}
          onChange={(event) => setReason(event.target.value)}
          className="min-h-20"
        />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onKeep} disabled={busy}>
          {keepLabel}
        </Button>
        <Button type="submit" variant="destructive" disabled={busy || confirmDisabled}>
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {confirmLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
