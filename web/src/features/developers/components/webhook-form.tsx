import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { DialogForm, TextAreaField, TextField } from '@/components/forms/dialog-form';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { createWebhook } from '../api/create-webhook';
import { updateWebhook } from '../api/update-webhook';
import type { CreatedWebhook, Webhook, WebhookBody } from '../api/types';
import { ALL_EVENT_KINDS, urlProblem } from '../utils/catalog';
import { formatWhen } from '../utils/format';
import { EventKindsField } from './event-kinds-field';
import { SecretOnce } from './secret-once';

/** The fields of a webhook as typed, checked before they are sent; null with a toast when not. */
function checked(url: string, kinds: Set<string>, description: string): WebhookBody | null {
  const problem = urlProblem(url);
  if (problem) {
    toast.error(problem);
    return null;
  }
  if (kinds.size === 0) {
    toast.error('Please choose at least one event to send');
    return null;
  }
  // In the order the form lists them.
  return { url: url.trim(), event_types: ALL_EVENT_KINDS.filter((k) => kinds.has(k)), description: description.trim() };
}

/** "New Webhook": an https address, the kinds of event, a description; then its signing secret,
 * shown this once. */
export function CreateWebhookForm({ close }: { close: () => void }) {
  const [created, setCreated] = React.useState<CreatedWebhook | null>(null);
  if (created) {
    return (
      <SecretShown
        title="Webhook created"
        description={`Events go to ${created.url} from now on.`}
        secret={created.secret}
        close={close}
      />
    );
  }
  return <WebhookFields onSaved={(made) => setCreated(made as CreatedWebhook)} />;
}

/** "Edit Webhook": its address, kinds, description and whether it is on. */
export function EditWebhookForm({ webhook, close }: { webhook: Webhook; close: () => void }) {
  return <WebhookFields webhook={webhook} onSaved={close} />;
}

function WebhookFields({ webhook, onSaved }: { webhook?: Webhook; onSaved: (saved: Webhook) => void }) {
  const id = React.useId();
  const [url, setUrl] = React.useState(webhook?.url ?? '');
  const [kinds, setKinds] = React.useState<Set<string>>(() => new Set(webhook?.event_types ?? []));
  const [description, setDescription] = React.useState(webhook?.description ?? '');
  const [enabled, setEnabled] = React.useState(webhook?.enabled ?? true);
  const [saving, setSaving] = React.useState(false);

  async function submit() {
    const body = checked(url, kinds, description);
    if (!body) return;
    setSaving(true);
    try {
      const saved = webhook ? await updateWebhook(webhook.webhook_id, { ...body, enabled }) : await createWebhook(body);
      toast.success(webhook ? 'Webhook saved' : 'Webhook created');
      onSaved(saved);
    } catch (error) {
      toast.error(errorMessage(error, webhook ? 'Failed to save the webhook' : 'Failed to create the webhook'));
      setSaving(false);
    }
  }

  return (
    <DialogForm
      title={webhook ? 'Edit Webhook' : 'New Webhook'}
      description="Courtside sends each event you choose to this address, signed so you can check it came from us."
      submitLabel={webhook ? 'Save Changes' : 'Create Webhook'}
      saving={saving}
      noValidate
      onSubmit={() => void submit()}
    >
      <TextField
        id={`${id}-url`}
        label="Endpoint URL"
        type="url"
        inputMode="url"
        placeholder="https://example.com/courtside-events"
        autoComplete="off"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
      />
      <EventKindsField value={kinds} onChange={setKinds} />
      <TextAreaField
        id={`${id}-description`}
        label="Description (optional)"
        maxLength={200}
        rows={2}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      {webhook ? (
        <div className="grid gap-1">
          <label className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-navy-800">
            <input type="checkbox" className="size-4" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            Enabled
          </label>
          {!webhook.enabled && webhook.disabled_reason ? (
            <p className="text-xs text-muted-foreground">
              Turned off because: {webhook.disabled_reason}. Turning it on again clears that failure.
            </p>
          ) : null}
        </div>
      ) : null}
    </DialogForm>
  );
}

interface SecretShownProps {
  title: string;
  description: string;
  secret: string;
  /** When the previous secret stops signing (a rotation). */
  previousValidUntil?: string;
  close: () => void;
}

/** A webhook's signing secret, shown once after it is made or rotated. */
export function SecretShown({ title, description, secret, previousValidUntil, close }: SecretShownProps) {
  return (
    <div className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <SecretOnce label="Signing secret" secret={secret} copied="Secret copied">
        <p className="text-sm text-navy-700">
          Check each delivery with it: the <code className="font-mono text-xs">webhook-signature</code> header is the
          HMAC-SHA256 of <code className="font-mono text-xs">webhook-id.webhook-timestamp.body</code> (Standard
          Webhooks).
          {previousValidUntil
            ? ` The previous secret also signs deliveries until ${formatWhen(previousValidUntil)}, so your receiver can move over.`
            : ''}
        </p>
      </SecretOnce>
      <DialogFooter>
        <Button variant="accent" onClick={close}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
