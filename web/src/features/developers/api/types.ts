/**
 * The shapes of the Developers page's answers and bodies (issue 37), from the gateway's document.
 */
import type { Complete, Schemas } from '@/lib/api-types';

/** A personal API token as it is listed: never its secret. */
/** A scope an API token may hold, as the document lists them. */
export type TokenScope = Schemas['TokenScope'];
/** An event kind a webhook may subscribe to, as the document lists them. */
export type WebhookEventType = Schemas['WebhookEventType'];

export type ApiToken = Complete<Schemas['ApiToken']>;

/** POST /api/tokens's answer: the token and its secret (`token`), shown this once. */
export type CreatedApiToken = Complete<Schemas['CreatedApiToken']>;

export type ApiTokenBody = Complete<Schemas['CreateApiTokenBody']>;

/** A webhook subscription as it is listed: never its secret. */
export type Webhook = Complete<Schemas['Webhook']>;

/** POST /api/webhooks's answer: the webhook and its signing secret, shown this once. */
export type CreatedWebhook = Complete<Schemas['CreatedWebhook']>;

export type WebhookBody = Complete<Schemas['CreateWebhookBody']>;

export type WebhookUpdate = Complete<Schemas['UpdateWebhookBody']>;

/** POST /api/webhooks/{id}/rotate-secret's answer. */
export type RotatedSecret = Schemas['RotatedSecret'];

export type WebhookAttempt = Schemas['Attempt'];

/** The three states the document names in words (its `status` is a string). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event sent (or to send) to a webhook, with its attempts, oldest first. */
export type WebhookDelivery = Omit<Schemas['Delivery'], 'status'> & { status: DeliveryStatus };
