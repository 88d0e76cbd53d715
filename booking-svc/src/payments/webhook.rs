//! The provider's webhook events (`POST /api/payments/webhook`, relayed by the gateway as it
//! came): verified, recorded once, and used only as a nudge.
//!
//! [`verify`] checks `Stripe-Signature` (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"
//! keyed by STRIPE_WEBHOOK_SECRET>`, any of several `v1` matching, `t` within [`TOLERANCE`] of
//! the injected clock either way); a refusal is InvalidArgument (the gateway answers 400) with
//! what was wrong. Each event id is applied once (booking.webhook_event): a replay changes
//! nothing.
//!
//! The payload is never trusted for money: a `payment_intent.*` event only makes its booking
//! (by `metadata.booking_id`, or by the intent's id on the booking) due for the payment worker
//! now, which reads the intent from the provider itself and decides from the booking's own row
//! (the worker acts only on a step that is due by the booking's own times, so an early nudge
//! never holds or cancels early). Other kinds are acknowledged and ignored. No state depends on a
//! webhook alone (localstripe sends few): the worker and the reconciliation find the same.

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;
use uuid::Uuid;

use super::Payments;
use crate::error::Error;

/// How far the signature's timestamp may be from now, either way (Stripe's default).
pub const TOLERANCE_SECONDS: i64 = 300;

/// Why a webhook's signature was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the Stripe-Signature header has no {0}")]
    Missing(&'static str),
    #[error("the Stripe-Signature header's t= is not a Unix time in seconds")]
    BadTimestamp,
    #[error(
        "no v1 signature of the Stripe-Signature header matches this body signed with the webhook secret"
    )]
    BadSignature,
    #[error(
        "the Stripe-Signature header's timestamp is {0} s from now, more than the {TOLERANCE_SECONDS} s allowed (a replayed or delayed event)"
    )]
    Stale(i64),
}

/// Checks that `header` (Stripe-Signature) signs `payload` with `secret` at a time within
/// [`TOLERANCE_SECONDS`] of `now`.
pub fn verify(secret: &str, payload: &[u8], header: &str, now: DateTime<Utc>) -> Result<(), Refusal> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) if timestamp.is_none() => timestamp = Some(value.trim()),
            Some(("v1", value)) => signatures.push(value.trim()),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(Refusal::Missing("t=<timestamp>"))?;
    if signatures.is_empty() {
        return Err(Refusal::Missing("v1=<signature>"));
    }
    let seconds: i64 = timestamp.parse().map_err(|_| Refusal::BadTimestamp)?;
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(payload);
    let signed = signatures
        .iter()
        .filter_map(|s| hex(s))
        .any(|s| mac.clone().verify_slice(&s).is_ok());
    if !signed {
        return Err(Refusal::BadSignature);
    }
    let age = now.timestamp() - seconds;
    if age.abs() > TOLERANCE_SECONDS {
        return Err(Refusal::Stale(age));
    }
    Ok(())
}

/// Lowercase or uppercase hex to bytes; None when it is not hex.
fn hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[derive(Deserialize)]
struct Event {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: EventData,
}

#[derive(Deserialize)]
struct EventData {
    object: EventObject,
}

#[derive(Deserialize)]
struct EventObject {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    metadata: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Verifies and applies one webhook event (see the module's doc).
pub async fn apply(p: &Payments, payload: &[u8], signature: &str) -> Result<(), Error> {
    verify(&p.webhook_secret, payload, signature, p.clock.now())
        .map_err(|refusal| Error::Invalid(format!("webhook refused: {refusal}")))?;
    let event: Event = serde_json::from_slice(payload)
        .map_err(|e| Error::Invalid(format!("webhook refused: the body is not a Stripe event ({e})")))?;
    let now = p.clock.now();
    let mut tx = p.db.begin().await?;
    let first = sqlx::query(
        "insert into booking.webhook_event (event_id, kind, received_at) values ($1, $2, $3) \
         on conflict (event_id) do nothing",
    )
    .bind(&event.id)
    .bind(&event.kind)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    let mut nudged = 0;
    if first && event.kind.starts_with("payment_intent.") {
        let object = &event.data.object;
        let booking = object
            .metadata
            .as_ref()
            .and_then(|m| m.get("booking_id"))
            .and_then(|v| v.as_str())
            .and_then(|id| Uuid::parse_str(id).ok());
        nudged = sqlx::query(
            "update booking.booking set payment_due_at = $3 \
             where (booking_id = $1 or payment_intent_id = $2) \
               and (payment_due_at is null or payment_due_at > $3)",
        )
        .bind(booking)
        .bind(object.id.as_deref())
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    }
    tx.commit().await?;
    tracing::info!(event_id = %event.id, kind = %event.kind, replay = !first, nudged, "webhook event");
    if nudged > 0 {
        p.wake.notify_one();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test";
    const BODY: &[u8] = br#"{"id":"evt_1","type":"payment_intent.succeeded"}"#;

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(seconds, 0).unwrap()
    }

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(format!("{t}.").as_bytes());
        mac.update(body);
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn a_good_signature_passes() {
        let t = 1_800_000_000;
        let header = format!("t={t},v1={}", sign(SECRET, t, BODY));
        assert_eq!(verify(SECRET, BODY, &header, at(t)), Ok(()));
    }

    #[test]
    fn a_signature_of_another_body_or_secret_is_refused() {
        let t = 1_800_000_000;
        let other_body = format!("t={t},v1={}", sign(SECRET, t, b"{}"));
        assert_eq!(
            verify(SECRET, BODY, &other_body, at(t)),
            Err(Refusal::BadSignature)
        );
        let other_secret = format!("t={t},v1={}", sign("whsec_other", t, BODY));
        assert_eq!(
            verify(SECRET, BODY, &other_secret, at(t)),
            Err(Refusal::BadSignature)
        );
        // Signed for another time than the header says.
        let moved = format!("t={},v1={}", t + 1, sign(SECRET, t, BODY));
        assert_eq!(verify(SECRET, BODY, &moved, at(t)), Err(Refusal::BadSignature));
        let not_hex = format!("t={t},v1=zz{}", &sign(SECRET, t, BODY)[2..]);
        assert_eq!(verify(SECRET, BODY, &not_hex, at(t)), Err(Refusal::BadSignature));
    }

    #[test]
    fn missing_parts_are_named() {
        let t = 1_800_000_000;
        let good = sign(SECRET, t, BODY);
        assert_eq!(
            verify(SECRET, BODY, &format!("v1={good}"), at(t)),
            Err(Refusal::Missing("t=<timestamp>"))
        );
        assert_eq!(
            verify(SECRET, BODY, &format!("t={t}"), at(t)),
            Err(Refusal::Missing("v1=<signature>"))
        );
        // A v0 (test-mode scheme) is not a v1.
        assert_eq!(
            verify(SECRET, BODY, &format!("t={t},v0={good}"), at(t)),
            Err(Refusal::Missing("v1=<signature>"))
        );
        assert_eq!(
            verify(SECRET, BODY, "", at(t)),
            Err(Refusal::Missing("t=<timestamp>"))
        );
        assert_eq!(
            verify(SECRET, BODY, &format!("t=soon,v1={good}"), at(t)),
            Err(Refusal::BadTimestamp)
        );
    }

    #[test]
    fn any_of_several_v1_signatures_may_match() {
        // Stripe sends one v1 per active secret while a secret is rolled.
        let t = 1_800_000_000;
        let header = format!(
            "t={t}, v1={}, v1={}",
            sign("whsec_old", t, BODY),
            sign(SECRET, t, BODY)
        );
        assert_eq!(verify(SECRET, BODY, &header, at(t)), Ok(()));
    }

    #[test]
    fn a_timestamp_more_than_five_minutes_away_either_way_is_stale() {
        let t = 1_800_000_000;
        let header = format!("t={t},v1={}", sign(SECRET, t, BODY));
        assert_eq!(verify(SECRET, BODY, &header, at(t + 300)), Ok(()));
        assert_eq!(verify(SECRET, BODY, &header, at(t - 300)), Ok(()));
        assert_eq!(
            verify(SECRET, BODY, &header, at(t + 301)),
            Err(Refusal::Stale(301))
        );
        assert_eq!(
            verify(SECRET, BODY, &header, at(t - 301)),
            Err(Refusal::Stale(-301))
        );
    }
}
