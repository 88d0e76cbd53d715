//! Webhooks (issue 37): a coach, a gym or an admin subscribes an HTTPS URL to event kinds
//! ([`kinds::KINDS`]); every event of the stream identity consumes is fanned out ([`Webhooks::fan_out`])
//! to the enabled webhooks of its kind whose owner may see it (a coach: bookings, payments,
//! reviews and court requests that are theirs; a gym: its court requests; an admin: everything), one
//! delivery each, and the [`worker`] sends them, signed, at least once, in order per record,
//! retried for three days. The SSRF guard is [`guard`], the signature [`signing`].
//!
//! # Receiving a webhook
//!
//! Each delivery is an HTTP `POST` following Standard Webhooks (<https://www.standardwebhooks.com>):
//!
//! ```text
//! POST /your/endpoint
//! content-type: application/json
//! webhook-id: 0193c6a4-5d2e-7c4e-9a59-2f8a3c1e0b7d        the event's id: the same on every retry and replay
//! webhook-timestamp: 1767225600                            unix seconds of this attempt
//! webhook-signature: v1,<base64 HMAC-SHA256>                 one per secret in force, space-separated
//!
//! {"id": "0193c6a4-…", "type": "booking.created", "timestamp": "2026-12-31T12:00:00.000Z",
//!  "data": {"booking_id": "…", "coach_id": "…", "client_id": "…", "booking_date": "2027-01-04",
//!           "start_time": "10:00", "end_time": "11:00", "time_zone": "Europe/Paris",
//!           "starts_at": "…", "ends_at": "…", "location_name": "…", "status": "pending"}}
//! ```
//!
//! `data` is the record as the event carries it: a booking (payments too, with `amount_cents`
//! and `currency` or `reason`) or a court request, with its `status` after the change and, where
//! the event has them, `by`, `reason` and `late`; a review (`review_id`, `booking_id`,
//! `coach_id`, `client_id`, `rating`, `comment`, `created_at`). A rescheduled booking sends `booking.rescheduled`
//! for the old booking (with `rescheduled_to`) and `booking.created` for the new one (with
//! `rescheduled_from`). The test button sends `webhook.test`.
//!
//! To verify a delivery, take the secret shown when the webhook was made (or rotated): decode the
//! base64 after `whsec_` to get the key, compute HMAC-SHA256 over
//! `{webhook-id}.{webhook-timestamp}.{raw body}` and compare its base64 with each space-separated
//! `v1,…` entry of `webhook-signature` in constant time (during the 24 hours after a rotation
//! there is one entry per secret; accept either). Use the raw bytes of the body, before any JSON
//! parsing. Refuse a timestamp more than five minutes away from your clock (replays), and keep
//! the ids you have handled: an event can arrive more than once (at least once), always with the
//! same `webhook-id`. Answer 2xx within 5 seconds and do the work afterwards; anything else
//! (a redirect too) is a failure, tried again after 5 s, 10 s, 20 s … up to an hour between
//! attempts, for three days. A webhook failing for a whole day is disabled and its owner emailed.
//!
//! In Python:
//!
//! ```text
//! import base64, hashlib, hmac, time
//!
//! def verify(secret: str, headers, body: bytes) -> bool:
//!     key = base64.b64decode(secret.removeprefix("whsec_"))
//!     msg_id, ts = headers["webhook-id"], headers["webhook-timestamp"]
//!     if abs(time.time() - int(ts)) > 300:
//!         return False
//!     signed = f"{msg_id}.{ts}.".encode() + body
//!     expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
//!     return any(hmac.compare_digest(expected, s.removeprefix("v1,"))
//!                for s in headers["webhook-signature"].split(" ") if s.startswith("v1,"))
//! ```
//!
//! The official Standard Webhooks libraries (`standardwebhooks` for Python, JavaScript, Go,
//! Rust, …) verify the same way: `Webhook::new(secret)?.verify(body, headers)`.
//!
//! Delivery URLs must be https and resolve to public addresses only (checked when saved and at
//! every connection); `WEBHOOK_ALLOW_LOOPBACK=true` lets http and loopback through for
//! development and tests only.

pub mod guard;
pub mod kinds;
pub mod signing;
mod store;
mod worker;

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use platform::{clock::SharedClock, events::Envelope, pages::Page};
use serde_json::json;
use sqlx::PgPool;
use tokio::sync::Notify;
use uuid::Uuid;

pub use store::{DeliveryRow, WebhookRow};

use crate::{config::WebhookSettings, error::Error};

/// The most webhooks one person keeps.
pub const MOST_WEBHOOKS: i64 = 10;
/// The most characters of a description.
pub const MOST_DESCRIPTION: usize = 200;
/// How long a rotated-out secret still signs.
pub const OVERLAP: Duration = Duration::hours(24);

/// The webhooks of one replica: their store, the worker's HTTP client and wake-up. Cheap to clone.
#[derive(Clone)]
pub struct Webhooks {
    pub db: PgPool,
    pub clock: SharedClock,
    pub settings: WebhookSettings,
    /// Wakes the worker after a commit that left a delivery due now.
    pub wake: Arc<Notify>,
    /// Wakes the mail sender after a disabling wrote a letter.
    pub mail_wake: Arc<Notify>,
    /// The app's address, for the letter's link.
    pub public_url: String,
    client: reqwest::Client,
}

/// The fields of a webhook as they came.
pub struct Fields<'a> {
    pub url: &'a str,
    pub event_types: &'a [String],
    pub description: &'a str,
}

impl Webhooks {
    pub fn new(
        db: PgPool,
        clock: SharedClock,
        settings: WebhookSettings,
        mail_wake: Arc<Notify>,
        public_url: &str,
    ) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout)
            .dns_resolver(
                guard::PublicOnly {
                    allow_loopback: settings.allow_loopback,
                }
                .shared(),
            )
            // No proxy from the environment: it would resolve the name, not this resolver.
            .no_proxy()
            .build()?;
        Ok(Self {
            db,
            clock,
            settings,
            wake: Arc::new(Notify::new()),
            mail_wake,
            public_url: public_url.to_owned(),
            client,
        })
    }

    /// Checks `fields`: the URL (see [`guard`]), 1+ known kinds (each once), the description.
    async fn checked(&self, fields: &Fields<'_>) -> Result<(String, Vec<String>, String), Error> {
        let url = guard::check_url(fields.url, self.settings.allow_loopback)
            .await
            .map_err(Error::Invalid)?;
        let mut kinds: Vec<String> = Vec::new();
        for kind in fields.event_types.iter().map(|k| k.trim().to_owned()) {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        if kinds.is_empty() {
            return Err(Error::Invalid(
                "Choose at least one event type for the webhook.".into(),
            ));
        }
        let unknown = kinds::unknown(&kinds);
        if !unknown.is_empty() {
            return Err(Error::Invalid(format!(
                "Unknown event type {}; the event types are: {}.",
                unknown.join(", "),
                kinds::KINDS.join(", ")
            )));
        }
        let description = fields.description.trim().to_owned();
        if description.chars().count() > MOST_DESCRIPTION {
            return Err(Error::Invalid(format!(
                "The description is at most {MOST_DESCRIPTION} characters."
            )));
        }
        Ok((url.to_string(), kinds, description))
    }

    /// Creates a webhook of `user_id`; returns it and its secret (shown once).
    pub async fn create(&self, user_id: Uuid, fields: Fields<'_>) -> Result<(WebhookRow, String), Error> {
        let (url, kinds, description) = self.checked(&fields).await?;
        let secret = signing::new_secret();
        let mut tx = self.db.begin().await?;
        if store::lock_and_count(&mut tx, user_id).await? >= MOST_WEBHOOKS {
            return Err(Error::Conflict(format!(
                "You already have {MOST_WEBHOOKS} webhooks, the most one account keeps; delete one first."
            )));
        }
        let row = store::insert(
            &mut tx,
            store::NewWebhook {
                user_id,
                url: &url,
                event_types: &kinds,
                description: &description,
                secret: &secret,
                now: self.clock.now(),
            },
        )
        .await?;
        tx.commit().await?;
        Ok((row, secret))
    }

    pub async fn list(&self, user_id: Uuid) -> Result<Vec<WebhookRow>, Error> {
        store::list(&self.db, user_id).await
    }

    pub async fn update(
        &self,
        user_id: Uuid,
        webhook_id: Uuid,
        fields: Fields<'_>,
        enabled: bool,
    ) -> Result<WebhookRow, Error> {
        let (url, kinds, description) = self.checked(&fields).await?;
        let changes = store::Changes {
            url: &url,
            event_types: &kinds,
            description: &description,
            enabled,
        };
        let row = store::update(&self.db, user_id, webhook_id, changes)
            .await?
            .ok_or_else(not_found)?;
        if enabled {
            // What waited while it was disabled may go now.
            self.wake.notify_one();
        }
        Ok(row)
    }

    pub async fn delete(&self, user_id: Uuid, webhook_id: Uuid) -> Result<(), Error> {
        if store::delete(&self.db, user_id, webhook_id).await? {
            Ok(())
        } else {
            Err(not_found())
        }
    }

    /// A new secret (shown once); the old one signs too until the returned time.
    pub async fn rotate(&self, user_id: Uuid, webhook_id: Uuid) -> Result<(String, DateTime<Utc>), Error> {
        let secret = signing::new_secret();
        let until = self.clock.now() + OVERLAP;
        if store::rotate(&self.db, user_id, webhook_id, &secret, until).await? {
            Ok((secret, until))
        } else {
            Err(not_found())
        }
    }

    /// One page of the webhook's delivery log, newest first; the next page's keyset.
    pub async fn deliveries(
        &self,
        user_id: Uuid,
        webhook_id: Uuid,
        page: &Page<i64>,
    ) -> Result<(Vec<DeliveryRow>, String), Error> {
        if !store::owns(&self.db, user_id, webhook_id).await? {
            return Err(not_found());
        }
        let rows = store::deliveries(&self.db, webhook_id, page.after, page.fetch()).await?;
        Ok(page.split(rows, |row| row.seq))
    }

    /// A new delivery of the event of `delivery_id`, with the same id, sent at once.
    pub async fn replay(
        &self,
        user_id: Uuid,
        webhook_id: Uuid,
        delivery_id: Uuid,
    ) -> Result<DeliveryRow, Error> {
        let now = self.clock.now();
        let id = store::replay(&self.db, user_id, webhook_id, delivery_id, now)
            .await?
            .ok_or_else(|| Error::NotFound("No such delivery of this webhook.".into()))?;
        self.wake.notify_one();
        self.shown(id).await
    }

    /// A `webhook.test` event to this webhook alone, sent at once.
    pub async fn test(&self, user_id: Uuid, webhook_id: Uuid) -> Result<DeliveryRow, Error> {
        if !store::owns(&self.db, user_id, webhook_id).await? {
            return Err(not_found());
        }
        let now = self.clock.now();
        let event_id = Uuid::now_v7();
        let payload = json!({
            "id": event_id,
            "type": kinds::TEST,
            "timestamp": crate::inbox::rfc3339(now),
            "data": { "webhook_id": webhook_id },
        });
        let key = format!("{}:{event_id}", kinds::TEST);
        let id =
            store::insert_single(&self.db, webhook_id, event_id, kinds::TEST, &key, &payload, now).await?;
        self.wake.notify_one();
        self.shown(id).await
    }

    async fn shown(&self, delivery_id: Uuid) -> Result<DeliveryRow, Error> {
        store::delivery(&self.db, delivery_id)
            .await?
            .ok_or_else(|| Error::NotFound("No such delivery of this webhook.".into()))
    }

    /// Enqueues `envelope`'s deliveries to every webhook that wants it and may see it (none twice,
    /// however often the event is read), and wakes the worker.
    pub async fn fan_out(&self, envelope: &Envelope) -> Result<(), Error> {
        let Some(occurrence) = kinds::occurrence(&envelope.event) else {
            return Ok(());
        };
        let payload = json!({
            "id": envelope.event_id,
            "type": occurrence.kind,
            "timestamp": envelope.occurred_at,
            "data": occurrence.data,
        });
        let enqueued = store::fan_out(
            &self.db,
            envelope.event_id,
            occurrence.kind,
            &occurrence.record_key,
            &payload,
            &occurrence.owners,
            self.clock.now(),
        )
        .await?;
        if enqueued > 0 {
            self.wake.notify_one();
        }
        Ok(())
    }
}

fn not_found() -> Error {
    Error::NotFound("No such webhook.".into())
}
