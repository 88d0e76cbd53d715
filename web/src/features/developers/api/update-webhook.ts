import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { WEBHOOKS_KEY, webhookPath } from './get-webhooks';
import type { Webhook, WebhookUpdate } from './types';

/** PUT /api/webhooks/{id}: its address, kinds, description and whether it is on (turning it on
 * again clears the failure that turned it off). */
export async function updateWebhook(webhookId: string, body: WebhookUpdate) {
  const saved = await api.put<Webhook>(webhookPath(webhookId), body);
  await mutate<Webhook[]>(WEBHOOKS_KEY, (hooks) => hooks?.map((h) => (h.webhook_id === webhookId ? saved : h)));
  return saved;
}
