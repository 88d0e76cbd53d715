import { Loader2, RotateCcw, ScrollText } from 'lucide-react';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { useActions } from '@/lib/use-actions';
import { refreshDeliveries, useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { replayWebhookDelivery } from '../api/replay-webhook-delivery';
import type { DeliveryStatus, Webhook, WebhookAttempt, WebhookDelivery } from '../api/types';
import { formatWhen } from '../utils/format';
import { LoadFailed } from './load-failed';

const STATUS: Record<DeliveryStatus, { text: string; variant: BadgeProps['variant'] }> = {
  pending: { text: 'Pending', variant: 'warning' },
  delivered: { text: 'Delivered', variant: 'success' },
  failed: { text: 'Failed', variant: 'destructive' },
};

/** "Delivery log": a webhook's deliveries, newest first, a page at a time, each attempt's answer,
 * and Replay for any of them. Read again every few seconds while one is under way. */
export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const { rows, error, isLoading, hasMore, loadMore, loadingMore } = useWebhookDeliveries(webhook.webhook_id);
  const { busy, run } = useActions<string>();

  return (
    <div className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>Delivery log</DialogTitle>
        <DialogDescription className="break-all">{webhook.url}</DialogDescription>
      </DialogHeader>
      {!rows ? (
        error ? (
          <LoadFailed error={error} what="the delivery log" retry={() => void refreshDeliveries(webhook.webhook_id)} />
        ) : isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading the delivery log" />
          </div>
        ) : null
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<ScrollText />}
          title="No deliveries yet"
          description="Events you subscribed to appear here as they are sent. Send a test event to see one now."
          className="py-8"
        />
      ) : (
        <>
          <ul aria-label="Deliveries" className="grid gap-3">
            {rows.map((delivery) => (
              <DeliveryRow
                key={delivery.delivery_id}
                delivery={delivery}
                replaying={busy === delivery.delivery_id}
                disabled={busy !== null}
                onReplay={() =>
                  void run(
                    delivery.delivery_id,
                    () => replayWebhookDelivery(webhook.webhook_id, delivery.delivery_id),
                    'Event sent again',
                    'Failed to replay the event',
                  )
                }
              />
            ))}
          </ul>
          {hasMore ? (
            <Button variant="outline" size="sm" className="justify-self-start" onClick={loadMore} disabled={loadingMore}>
              {loadingMore ? 'Loading more…' : 'Load more'}
            </Button>
          ) : null}
        </>
      )}
    </div>
  );
}

interface DeliveryRowProps {
  delivery: WebhookDelivery;
  replaying: boolean;
  disabled: boolean;
  onReplay: () => void;
}

function DeliveryRow({ delivery, replaying, disabled, onReplay }: DeliveryRowProps) {
  const status = STATUS[delivery.status] ?? { text: delivery.status, variant: 'secondary' };
  const headingId = `delivery-${delivery.delivery_id}`;
  return (
    <li aria-labelledby={headingId} className="grid min-w-0 gap-2 rounded-lg border p-3" data-testid="delivery">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <p id={headingId} className="flex flex-wrap items-center gap-2">
            <code className="font-mono text-sm font-semibold text-navy-900">{delivery.event_type}</code>
            <Badge variant={status.variant} data-testid="delivery-status">
              {status.text}
            </Badge>
          </p>
          <p className="break-words text-xs text-muted-foreground">
            Event <span className="break-all font-mono">{delivery.event_id}</span> ·{' '}
            <time dateTime={delivery.created_at} className="whitespace-nowrap">
              {formatWhen(delivery.created_at)}
            </time>
            {delivery.status === 'pending' && delivery.next_attempt_at ? (
              <>
                {' '}
                · next try{' '}
                <time dateTime={delivery.next_attempt_at} className="whitespace-nowrap">
                  {formatWhen(delivery.next_attempt_at)}
                </time>
              </>
            ) : null}
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={onReplay}
          disabled={disabled}
          aria-label={`Replay ${delivery.event_type} ${delivery.event_id}`}
        >
          {replaying ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
          Replay
        </Button>
      </div>
      {delivery.attempts.length > 0 ? (
        <ol aria-label="Attempts" className="grid gap-1 border-t pt-2 text-xs">
          {delivery.attempts.map((attempt, i) => (
            <Attempt key={`${attempt.attempted_at}-${i}`} attempt={attempt} />
          ))}
        </ol>
      ) : (
        <p className="border-t pt-2 text-xs text-muted-foreground">Not tried yet.</p>
      )}
    </li>
  );
}

function Attempt({ attempt }: { attempt: WebhookAttempt }) {
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <li className="flex min-w-0 flex-wrap gap-x-3 gap-y-0.5 text-navy-800">
      <time dateTime={attempt.attempted_at}>{formatWhen(attempt.attempted_at)}</time>
      <span className={ok ? 'font-semibold text-green-800' : 'font-semibold text-red-800'}>
        {attempt.status_code === null ? 'No answer' : `HTTP ${attempt.status_code}`}
      </span>
      <span>{attempt.latency_ms} ms</span>
      {attempt.error ? <span className="break-all text-red-800">{attempt.error}</span> : null}
    </li>
  );
}
