//! ApplyPaymentWebhook (the gateway relays `POST /api/payments/webhook` as it came): a
//! Stripe-Signature that does not sign the body with STRIPE_WEBHOOK_SECRET, or is more than five
//! minutes from booking-svc's clock, is refused; each event id is applied once; a
//! `payment_intent.*` event makes its booking due for the payment worker (which reads the
//! intent from the provider), whatever amounts the payload claims.

use chrono::{Duration, Weekday};
use hmac::{Hmac, Mac};
use platform::clock::Clock;
use proto::booking::v1 as pb;
use sha2::Sha256;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, WEBHOOK_SECRET, expect_code, next};

fn signature(secret: &str, t: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("t={t},v1={hex}")
}

fn event(id: &str, kind: &str, intent: &str, booking: &str) -> Vec<u8> {
    serde_json::json!({
        "id": id,
        "object": "event",
        "type": kind,
        "data": {"object": {
            "id": intent,
            "object": "payment_intent",
            // Never believed: the worker reads the intent from the provider.
            "amount": 1,
            "amount_received": 1_000_000,
            "status": "succeeded",
            "metadata": {"booking_id": booking},
        }},
    })
    .to_string()
    .into_bytes()
}

async fn send(app: &TestApp, payload: &[u8], signature: &str) -> Result<(), tonic::Status> {
    app.booking
        .clone()
        .apply_payment_webhook(pb::ApplyPaymentWebhookRequest {
            payload: payload.to_vec(),
            signature: signature.into(),
        })
        .await?;
    Ok(())
}

async fn recorded(app: &TestApp, event_id: &str) -> i64 {
    sqlx::query_scalar("select count(*) from booking.webhook_event where event_id = $1")
        .bind(event_id)
        .fetch_one(&app.db)
        .await
        .unwrap()
}

/// A booking whose hold is authorized with the intent `intent` and nothing due.
async fn held_booking(app: &TestApp, intent: &str) -> Uuid {
    let (coach, client) = (app.coach(), app.client());
    let slot = app.weekly_slot(&coach, "Thursday", "10:00", "11:00").await;
    let booking = app
        .book(&client, coach.id, &slot, next(Weekday::Thu))
        .await
        .unwrap();
    let id = Uuid::parse_str(&booking.booking_id).unwrap();
    // Another replica's worker holds its lease: the webhook's wake-up of this replica's worker
    // cannot claim it, and the nudge is seen as the webhook left it.
    sqlx::query(
        "update booking.booking set price_cents = 7500, payment_status = 'authorized', \
             payment_intent_id = $2, payment_method_id = 'pm_x', payment_due_at = null, \
             payment_lease_until = $3 \
         where booking_id = $1",
    )
    .bind(id)
    .bind(intent)
    .bind(app.clock.now() + chrono::Duration::hours(1))
    .execute(&app.db)
    .await
    .unwrap();
    id
}

/// The booking's payment_due_at, in microseconds (as PostgreSQL keeps it).
async fn due_at(app: &TestApp, booking: Uuid) -> Option<i64> {
    sqlx::query_scalar::<_, Option<chrono::DateTime<chrono::Utc>>>(
        "select payment_due_at from booking.booking where booking_id = $1",
    )
    .bind(booking)
    .fetch_one(&app.db)
    .await
    .unwrap()
    .map(|at| at.timestamp_micros())
}

#[tokio::test]
async fn a_signed_payment_event_makes_its_booking_due_once_and_a_replay_changes_nothing() {
    let app = TestApp::with().idle_scheduler().start().await;
    let booking = held_booking(&app, "pi_webhook1").await;
    let other = held_booking(&app, "pi_other").await;
    let now = app.clock.now();
    let payload = event(
        "evt_1",
        "payment_intent.canceled",
        "pi_webhook1",
        &booking.to_string(),
    );

    send(
        &app,
        &payload,
        &signature(WEBHOOK_SECRET, now.timestamp(), &payload),
    )
    .await
    .unwrap();

    assert_eq!(recorded(&app, "evt_1").await, 1);
    assert_eq!(due_at(&app, booking).await, Some(now.timestamp_micros()));
    assert_eq!(due_at(&app, other).await, None, "only the event's booking");
    let (status, paid): (String, i64) =
        sqlx::query_as("select payment_status, amount_paid_cents from booking.booking where booking_id = $1")
            .bind(booking)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(
        (status.as_str(), paid),
        ("authorized", 0),
        "the payload's amounts are not believed"
    );

    // The worker is done with it; the same event again (a replay) is acknowledged and ignored.
    sqlx::query("update booking.booking set payment_due_at = null where booking_id = $1")
        .bind(booking)
        .execute(&app.db)
        .await
        .unwrap();
    send(
        &app,
        &payload,
        &signature(WEBHOOK_SECRET, now.timestamp(), &payload),
    )
    .await
    .unwrap();
    assert_eq!(recorded(&app, "evt_1").await, 1);
    assert_eq!(due_at(&app, booking).await, None);
}

#[tokio::test]
async fn an_event_found_by_its_intent_alone_nudges_that_booking() {
    let app = TestApp::with().idle_scheduler().start().await;
    let booking = held_booking(&app, "pi_by_intent").await;
    let now = app.clock.now();
    let payload = event("evt_2", "payment_intent.succeeded", "pi_by_intent", "not-a-uuid");

    send(
        &app,
        &payload,
        &signature(WEBHOOK_SECRET, now.timestamp(), &payload),
    )
    .await
    .unwrap();

    assert_eq!(due_at(&app, booking).await, Some(now.timestamp_micros()));
}

#[tokio::test]
async fn other_kinds_are_acknowledged_and_ignored() {
    let app = TestApp::with().idle_scheduler().start().await;
    let booking = held_booking(&app, "pi_ignored").await;
    let now = app.clock.now();
    let payload = event("evt_3", "customer.created", "pi_ignored", &booking.to_string());

    send(
        &app,
        &payload,
        &signature(WEBHOOK_SECRET, now.timestamp(), &payload),
    )
    .await
    .unwrap();

    assert_eq!(recorded(&app, "evt_3").await, 1);
    assert_eq!(due_at(&app, booking).await, None);
}

#[tokio::test]
async fn a_bad_signature_is_refused_with_what_was_wrong() {
    let app = TestApp::with().idle_scheduler().start().await;
    let now = app.clock.now().timestamp();
    let payload = event("evt_bad", "payment_intent.succeeded", "pi_1", "");

    let wrong_secret = send(&app, &payload, &signature("whsec_someone_else", now, &payload)).await;
    let message = expect_code(wrong_secret, Code::InvalidArgument);
    assert!(message.contains("no v1 signature"), "{message}");
    let tampered = signature(WEBHOOK_SECRET, now, &payload);
    let other_body = event("evt_bad", "payment_intent.succeeded", "pi_2", "");
    expect_code(send(&app, &other_body, &tampered).await, Code::InvalidArgument);
    let message = expect_code(send(&app, &payload, "").await, Code::InvalidArgument);
    assert!(message.contains("t=<timestamp>"), "{message}");

    assert_eq!(
        recorded(&app, "evt_bad").await,
        0,
        "a refused event is not recorded"
    );
}

#[tokio::test]
async fn a_stale_timestamp_is_refused_either_way() {
    let app = TestApp::with().idle_scheduler().start().await;
    let payload = event("evt_stale", "payment_intent.succeeded", "pi_1", "");
    let signed_at = app.clock.now();

    app.clock.advance(Duration::seconds(301));
    let late = send(
        &app,
        &payload,
        &signature(WEBHOOK_SECRET, signed_at.timestamp(), &payload),
    )
    .await;
    let message = expect_code(late, Code::InvalidArgument);
    assert!(message.contains("301 s"), "{message}");
    let early = signed_at + Duration::seconds(301 * 2 + 1);
    let future = send(
        &app,
        &payload,
        &signature(WEBHOOK_SECRET, early.timestamp(), &payload),
    )
    .await;
    expect_code(future, Code::InvalidArgument);

    assert_eq!(recorded(&app, "evt_stale").await, 0);
    // Within five minutes it is applied.
    let fresh = app.clock.now() - Duration::seconds(299);
    send(
        &app,
        &payload,
        &signature(WEBHOOK_SECRET, fresh.timestamp(), &payload),
    )
    .await
    .unwrap();
    assert_eq!(recorded(&app, "evt_stale").await, 1);
}
