import { api } from '@/lib/api-client';
import { webhookPath } from './get-webhooks';
import { refreshDeliveries } from './get-webhook-deliveries';
import type { WebhookDelivery } from './types';

/** POST /api/webhooks/{id}/deliveries/{delivery_id}/replay: the same event (same id) sent again,
 * as a new delivery. */
export async function replayWebhookDelivery(webhookId: string, deliveryId: string) {
  const delivery = await api.post<WebhookDelivery>(
    `${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/replay`,
  );
  await refreshDeliveries(webhookId);
  return delivery;
}
