/**
 * The shapes of the Developers page's answers (issue 37), as the design gives them: written here
 * until the gateway's document has them, then aliased from `@/lib/api-types` like every feature.
 */

/** A personal API token as it is listed: never its secret. */
export interface ApiToken {
  token_id: string;
  name: string;
  scopes: string[];
  /** "cst_" and four more characters, to tell tokens apart. */
  prefix: string;
  created_at: string;
  /** RFC 3339; null: never expires. */
  expires_at: string | null;
  /** RFC 3339; null: never used. */
  last_used_at: string | null;
}

/** POST /api/tokens's answer: the token and its secret, shown this once. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}

export interface ApiTokenBody {
  name: string;
  scopes: string[];
  expires_at: string | null;
}

/** A webhook subscription as it is listed: never its secret. */
export interface Webhook {
  webhook_id: string;
  url: string;
  event_types: string[];
  description: string;
  enabled: boolean;
  /** Why the platform disabled it (failing for a day); null or empty otherwise. */
  disabled_reason: string | null;
  created_at: string;
}

/** POST /api/webhooks's answer: the webhook and its signing secret, shown this once. */
export interface CreatedWebhook extends Webhook {
  secret: string;
}

export interface WebhookBody {
  url: string;
  event_types: string[];
  description: string;
}

export interface WebhookUpdate extends WebhookBody {
  enabled: boolean;
}

/** POST /api/webhooks/{id}/rotate-secret's answer. */
export interface RotatedSecret {
  secret: string;
  /** RFC 3339: deliveries are signed with the old secret too until then. */
  previous_valid_until: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookAttempt {
  attempted_at: string;
  /** null: no answer came (see `error`). */
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface WebhookDelivery {
  delivery_id: string;
  /** The `webhook-id` header: the same on every attempt and replay of one event. */
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  created_at: string;
  next_attempt_at: string | null;
  /** Oldest first. */
  attempts: WebhookAttempt[];
}
