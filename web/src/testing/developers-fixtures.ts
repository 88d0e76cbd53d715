/** Server data of the Developers page (issue 37) for component tests. */
import type { ApiToken, Webhook, WebhookAttempt, WebhookDelivery } from '@/features/developers/api/types';

export function apiToken(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    token_id: 'token-1',
    name: 'Club spreadsheet',
    scopes: ['bookings:read'],
    prefix: 'cst_a1B2',
    created_at: '2026-11-02T15:00:00Z',
    expires_at: null,
    last_used_at: null,
    ...overrides,
  };
}

export function webhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    webhook_id: 'hook-1',
    url: 'https://crm.example.com/courtside',
    event_types: ['booking.created', 'booking.cancelled'],
    description: 'Front desk CRM',
    enabled: true,
    disabled_reason: null,
    created_at: '2026-11-03T09:00:00Z',
    ...overrides,
  };
}

export function attempt(overrides: Partial<WebhookAttempt> = {}): WebhookAttempt {
  return { attempted_at: '2026-11-28T20:31:00Z', status_code: 200, latency_ms: 41, error: null, ...overrides };
}

export function delivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    delivery_id: 'delivery-1',
    event_id: 'evt_0001',
    event_type: 'booking.created',
    status: 'delivered',
    created_at: '2026-11-28T20:31:00Z',
    next_attempt_at: null,
    attempts: [attempt()],
    ...overrides,
  };
}

/** Every call /developers makes, answered as for someone with no tokens and no webhooks yet; a
 * test passes what it is about in `extra`. */
export function developersApi(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { 'GET /tokens': [], 'GET /webhooks': [], ...extra };
}
