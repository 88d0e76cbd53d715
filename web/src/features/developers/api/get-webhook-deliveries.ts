import type { Page } from '@/lib/api-client';
import { refreshPaged, usePagedList } from '@/lib/pages';
import { withQuery } from '@/lib/swr';
import { webhookPath } from './get-webhooks';
import type { WebhookDelivery } from './types';

/** Deliveries per page of the log. */
export const DELIVERIES_PAGE = 20;

/** While a delivery is under way, the log is read again this often. */
export const PENDING_REFRESH_MS = 3000;

/** GET /api/webhooks/{id}/deliveries?limit=&cursor=: its deliveries, newest first, a page at a time. */
export const deliveriesPath = (webhookId: string) => `${webhookPath(webhookId)}/deliveries`;

/** Reads a webhook's log again from its first page (after a replay or a test). */
export const refreshDeliveries = (webhookId: string) => refreshPaged(deliveriesPath(webhookId));

/** The pages of a webhook's delivery log loaded so far, read again every few seconds while one of
 * them is still pending; `loadMore` reads the next page. */
export function useWebhookDeliveries(webhookId: string) {
  return usePagedList<WebhookDelivery>(
    withQuery(deliveriesPath(webhookId), { limit: DELIVERIES_PAGE }),
    (delivery) => delivery.delivery_id,
    {
      refreshInterval: (pages?: Page<WebhookDelivery>[]) =>
        pages?.some((page) => page.rows.some((d) => d.status === 'pending')) ? PENDING_REFRESH_MS : 0,
    },
  );
}
