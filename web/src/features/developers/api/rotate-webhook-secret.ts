import { api } from '@/lib/api-client';
import { webhookPath } from './get-webhooks';
import type { RotatedSecret } from './types';

/** POST /api/webhooks/{id}/rotate-secret: a new secret, shown once; the old one also signs
 * deliveries until `previous_valid_until` (24 hours). */
export const rotateWebhookSecret = (webhookId: string) =>
  api.post<RotatedSecret>(`${webhookPath(webhookId)}/rotate-secret`);
