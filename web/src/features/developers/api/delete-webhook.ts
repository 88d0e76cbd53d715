import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { WEBHOOKS_KEY, webhookPath } from './get-webhooks';
import type { Webhook } from './types';

/** DELETE /api/webhooks/{id}: nothing more is sent to it. */
export async function deleteWebhook(webhookId: string) {
  await api.delete(webhookPath(webhookId));
  await mutate<Webhook[]>(WEBHOOKS_KEY, (hooks) => hooks?.filter((h) => h.webhook_id !== webhookId));
}
