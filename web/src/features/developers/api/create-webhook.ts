import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { WEBHOOKS_KEY } from './get-webhooks';
import type { CreatedWebhook, WebhookBody } from './types';

/** POST /api/webhooks: a new subscription; its signing secret is in this answer alone. */
export async function createWebhook(body: WebhookBody) {
  const created = await api.post<CreatedWebhook>(WEBHOOKS_KEY, body);
  await mutate(WEBHOOKS_KEY);
  return created;
}
