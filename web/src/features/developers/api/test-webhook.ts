import { api } from '@/lib/api-client';
import { webhookPath } from './get-webhooks';
import { refreshDeliveries } from './get-webhook-deliveries';
import type { WebhookDelivery } from './types';

/** POST /api/webhooks/{id}/test: a `webhook.test` event sent to this webhook alone. */
export async function sendTestEvent(webhookId: string) {
  const delivery = await api.post<WebhookDelivery>(`${webhookPath(webhookId)}/test`);
  await refreshDeliveries(webhookId);
  return delivery;
}
