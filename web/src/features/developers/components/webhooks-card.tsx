import { Pencil, RefreshCw, ScrollText, Send, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import * as React from 'react';
import { DashboardCard } from '@/components/cards/dashboard-card';
import { DialogWhileOpen, FormDialog } from '@/components/dialogs/form-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { useActions } from '@/lib/use-actions';
import { useWebhooks } from '../api/get-webhooks';
import { sendTestEvent } from '../api/test-webhook';
import type { Webhook } from '../api/types';
import { ALL_EVENT_KINDS } from '../utils/catalog';
import { formatDay } from '../utils/format';
import { DeliveryLog } from './delivery-log';
import { LoadFailed } from './load-failed';
import { CreateWebhookForm, EditWebhookForm } from './webhook-form';
import { DeleteWebhookConfirm, RotateSecretConfirm } from './webhook-confirmations';

type Panel = 'edit' | 'log' | 'rotate' | 'delete';

/** "Webhooks": where events are sent (address, kinds, on or off and why), a new one, and each
 * one's test button, delivery log, edit, secret rotation and delete. */
export function WebhooksCard({ className }: { className?: string }) {
  const { data: webhooks, error, isLoading, mutate } = useWebhooks();
  const [open, setOpen] = React.useState<{ panel: Panel; webhook: Webhook } | null>(null);
  const close = () => setOpen(null);

  return (
    <DashboardCard
      className={className}
      title="Webhooks"
      titleId="webhooks-title"
      description="Have Courtside tell your system the moment something happens: each event is posted, signed, to your address."
      actions={<FormDialog label="New Webhook">{(done) => <CreateWebhookForm close={done} />}</FormDialog>}
      loading={isLoading}
      loadingLabel="Loading your webhooks"
      empty={
        error && !webhooks ? (
          <LoadFailed error={error} what="your webhooks" retry={() => void mutate()} />
        ) : webhooks?.length === 0 ? (
          <EmptyState
            icon={<WebhookIcon />}
            title="No webhooks yet"
            description="Add an https address and choose the events to send there."
          />
        ) : undefined
      }
    >
      <ul aria-label="Webhooks" className="divide-y">
        {webhooks?.map((webhook) => (
          <WebhookRow key={webhook.webhook_id} webhook={webhook} open={(panel) => setOpen({ panel, webhook })} />
        ))}
      </ul>
      <DialogWhileOpen
        open={open !== null}
        onOpenChange={(now) => (now ? undefined : close())}
        className={open?.panel === 'log' ? 'sm:max-w-2xl' : undefined}
      >
        {() => (open ? <PanelFor panel={open.panel} webhook={open.webhook} close={close} /> : null)}
      </DialogWhileOpen>
    </DashboardCard>
  );
}

function PanelFor({ panel, webhook, close }: { panel: Panel; webhook: Webhook; close: () => void }) {
  switch (panel) {
    case 'edit':
      return <EditWebhookForm webhook={webhook} close={close} />;
    case 'log':
      return <DeliveryLog webhook={webhook} />;
    case 'rotate':
      return <RotateSecretConfirm webhook={webhook} close={close} />;
    case 'delete':
      return <DeleteWebhookConfirm webhook={webhook} close={close} />;
  }
}

function Kinds({ kinds }: { kinds: string[] }) {
  if (ALL_EVENT_KINDS.every((k) => kinds.includes(k))) {
    return <p className="text-sm text-navy-800">Every event</p>;
  }
  return (
    <ul aria-label="Events" className="flex flex-wrap gap-1.5">
      {kinds.map((kind) => (
        <li key={kind}>
          <Badge variant="outline" className="font-mono font-medium">
            {kind}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

function WebhookRow({ webhook, open }: { webhook: Webhook; open: (panel: Panel) => void }) {
  const { busy, run } = useActions<'test'>();
  const urlId = `webhook-${webhook.webhook_id}`;
  return (
    <li aria-labelledby={urlId} className="grid min-w-0 gap-3 py-4" data-testid="webhook">
      <div className="grid min-w-0 gap-1.5">
        <p className="flex flex-wrap items-center gap-2">
          <span id={urlId} className="break-all font-mono text-sm font-semibold text-navy-900">
            {webhook.url}
          </span>
          {webhook.enabled ? <Badge variant="success">Enabled</Badge> : <Badge variant="destructive">Disabled</Badge>}
        </p>
        {!webhook.enabled && webhook.disabled_reason ? (
          <p className="text-sm text-red-800">Turned off: {webhook.disabled_reason}</p>
        ) : null}
        {webhook.description ? <p className="break-words text-sm text-navy-700">{webhook.description}</p> : null}
        <Kinds kinds={webhook.event_types} />
        <p className="text-xs text-muted-foreground">Added {formatDay(webhook.created_at)}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-describedby={urlId}
          disabled={busy !== null}
          onClick={() => void run('test', () => sendTestEvent(webhook.webhook_id), 'Test event sent', 'Failed to send the test event')}
        >
          <Send aria-hidden="true" />
          Send test event
        </Button>
        <Button variant="outline" size="sm" aria-describedby={urlId} onClick={() => open('log')}>
          <ScrollText aria-hidden="true" />
          Delivery log
        </Button>
        <Button variant="ghost" size="sm" aria-describedby={urlId} onClick={() => open('edit')}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button variant="ghost" size="sm" aria-describedby={urlId} onClick={() => open('rotate')}>
          <RefreshCw aria-hidden="true" />
          Rotate secret
        </Button>
        <Button variant="ghost" size="sm" aria-describedby={urlId} onClick={() => open('delete')}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
    </li>
  );
}
