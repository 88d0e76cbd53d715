import { Loader2, RefreshCw, Trash2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { deleteWebhook } from '../api/delete-webhook';
import { rotateWebhookSecret } from '../api/rotate-webhook-secret';
import type { RotatedSecret, Webhook } from '../api/types';
import { SecretShown } from './webhook-form';

interface ConfirmProps {
  title: string;
  children: React.ReactNode;
  keepLabel: string;
  actLabel: string;
  icon: React.ReactNode;
  act: () => Promise<void>;
  close: () => void;
}

/** A question before a step that cannot be taken back, with a way out and the step. */
function Confirm({ title, children, keepLabel, actLabel, icon, act, close }: ConfirmProps) {
  const [busy, setBusy] = React.useState(false);
  async function go() {
    setBusy(true);
    try {
      await act();
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription className="break-words">{children}</DialogDescription>
      </DialogHeader>
      <DialogFooter>
        <Button variant="outline" disabled={busy} onClick={close}>
          {keepLabel}
        </Button>
        <Button variant="destructive" disabled={busy} onClick={() => void go()}>
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : icon}
          {actLabel}
        </Button>
      </DialogFooter>
    </div>
  );
}

/** "Rotate the signing secret?", then the new secret, shown once. */
export function RotateSecretConfirm({ webhook, close }: { webhook: Webhook; close: () => void }) {
  const [rotated, setRotated] = React.useState<RotatedSecret | null>(null);
  if (rotated) {
    return (
      <SecretShown
        title="New signing secret"
        description={`For ${webhook.url}.`}
        secret={rotated.secret}
        previousValidUntil={rotated.previous_valid_until}
        close={close}
      />
    );
  }
  return (
    <Confirm
      title="Rotate the signing secret?"
      keepLabel="Keep Current Secret"
      actLabel="Rotate Secret"
      icon={<RefreshCw aria-hidden="true" />}
      close={close}
      act={async () => {
        try {
          setRotated(await rotateWebhookSecret(webhook.webhook_id));
          toast.success('Signing secret rotated');
        } catch (error) {
          toast.error(errorMessage(error, 'Failed to rotate the signing secret'));
        }
      }}
    >
      A new secret signs deliveries to {webhook.url} from now on. For 24 hours the current one signs them too, so your
      receiver can move over.
    </Confirm>
  );
}

/** "Delete this webhook?" */
export function DeleteWebhookConfirm({ webhook, close }: { webhook: Webhook; close: () => void }) {
  return (
    <Confirm
      title="Delete this webhook?"
      keepLabel="Keep Webhook"
      actLabel="Delete Webhook"
      icon={<Trash2 aria-hidden="true" />}
      close={close}
      act={async () => {
        try {
          await deleteWebhook(webhook.webhook_id);
          toast.success('Webhook deleted');
          close();
        } catch (error) {
          toast.error(errorMessage(error, 'Failed to delete the webhook'));
        }
      }}
    >
      Nothing more is sent to {webhook.url}, and its delivery log goes with it. This cannot be undone.
    </Confirm>
  );
}
