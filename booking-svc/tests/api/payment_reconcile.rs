//! The payment reconciliation against a real localstripe: a hold that differs from the books, and
//! one the provider does not know, are recorded (booking.payment_discrepancy).

use chrono::Weekday;
use platform::testing::{CARD_OK, Localstripe, eventually};
use uuid::Uuid;

use crate::helpers::{TICK, TestApp, User, next};

/// A hold of `amount` made at the app's localstripe with `client`'s card, confirmed.
async fn hold_at_the_provider(app: &TestApp, client: &User, card: &str, amount: i64) -> String {
    let customer: String =
        sqlx::query_scalar("select customer_id from booking.payment_customer where client_id = $1")
            .bind(client.id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    let http = reqwest::Client::new();
    let created: serde_json::Value = http
        .post(format!("{}/v1/payment_intents", app.stripe().url()))
        .bearer_auth(Localstripe::SECRET_KEY)
        .form(&[
            ("amount", amount.to_string().as_str()),
            ("currency", "usd"),
            ("customer", &customer),
            ("payment_method", card),
            ("capture_method", "manual"),
        ])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().expect("an intent").to_owned();
    let confirmed: serde_json::Value = http
        .post(format!("{}/v1/payment_intents/{id}/confirm", app.stripe().url()))
        .bearer_auth(Localstripe::SECRET_KEY)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(confirmed["status"], "requires_capture");
    id
}

/// A booking of `client`'s whose books say its price (7500) is held by `intent`.
async fn authorized_booking(
    app: &TestApp,
    client: &User,
    intent: &str,
    (name, day): (&str, Weekday),
) -> Uuid {
    let coach = app.coach();
    let slot = app.weekly_slot(&coach, name, "10:00", "11:00").await;
    let booking = app.book(client, coach.id, &slot, next(day)).await.unwrap();
    let id = Uuid::parse_str(&booking.booking_id).unwrap();
    sqlx::query(
        "update booking.booking set price_cents = 7500, payment_status = 'authorized', \
             payment_intent_id = $2, payment_method_id = 'pm_x' where booking_id = $1",
    )
    .bind(id)
    .bind(intent)
    .execute(&app.db)
    .await
    .unwrap();
    id
}

async fn discrepancies(app: &TestApp, booking: Uuid) -> Vec<(String, String)> {
    sqlx::query_as("select ours, theirs from booking.payment_discrepancy where booking_id = $1")
        .bind(booking)
        .fetch_all(&app.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_hold_that_differs_or_is_unknown_at_the_provider_is_recorded() {
    let app = TestApp::with().payments().reconcile_every(TICK).start().await;
    let (client, card) = app.client_with_card(CARD_OK).await;
    let smaller = hold_at_the_provider(&app, &client, &card, 5000).await;
    let short = authorized_booking(&app, &client, &smaller, ("Monday", Weekday::Mon)).await;
    let unknown = authorized_booking(&app, &client, "pi_unknown", ("Tuesday", Weekday::Tue)).await;

    let found = eventually("the short hold recorded", || async {
        Some(discrepancies(&app, short).await).filter(|d| !d.is_empty())
    })
    .await;
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.starts_with("authorized (price 7500"), "{found:?}");
    assert!(found[0].1.contains("amount 5000"), "{found:?}");
    let missing = eventually("the unknown hold recorded", || async {
        Some(discrepancies(&app, unknown).await).filter(|d| !d.is_empty())
    })
    .await;
    assert_eq!(missing[0].1, "no intent pi_unknown");
}
