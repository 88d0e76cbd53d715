import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Webhook } from './types';

/** GET /api/webhooks: the signed-in person's webhooks, newest first (never their secrets). */
export const WEBHOOKS_KEY = '/webhooks';

export const webhookPath = (webhookId: string) => `${WEBHOOKS_KEY}/${encodeURIComponent(webhookId)}`;

export const getWebhooks = () => api.get<Webhook[]>(WEBHOOKS_KEY);

export const useWebhooks = () => useSWR<Webhook[]>(WEBHOOKS_KEY, getWebhooks);
