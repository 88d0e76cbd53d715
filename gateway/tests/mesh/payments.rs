//! Issue 33's money over HTTP, through the gateway, against the mesh's own localstripe: a paid
//! session needs a card (402), a card is added as the browser adds it (a SetupIntent confirmed
//! with Stripe.js's request), the price is held, and each outcome captures, releases or refunds
//! what the coach's policy says; receipts, earnings (JSON and CSV), the admin's payments, refunds
//! and totals; the webhook's signature. booking-svc's clock is injected, so time moves without
//! sleeping; its payment worker carries each outcome to localstripe within moments.

use chrono::{DateTime, Utc};
use platform::{
    clock::{Clock, ManualClock},
    testing::{CARD_DECLINED_ON_SAVE, CARD_OK, eventually},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, paid_coach_with_slot, user},
    helpers::Mesh,
    stripe::{WEBHOOK_SECRET, signature},
};

/// A Wednesday; the fixture's 17:00–18:00 slot in Austin (CDT) is 22:00–23:00 UTC then.
const WEDNESDAY: &str = "2030-06-05";
/// Four days before it: inside the 6 days a hold is made ahead, so the price is held at once.
const NOW: &str = "2030-06-01T12:00:00Z";
/// $75 an hour, one hour.
const PRICE: i64 = 7500;

fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

/// A mesh on a clock at [`NOW`] and a client without a card.
async fn mesh() -> (Mesh, ManualClock, User) {
    let clock = ManualClock::at(at(NOW));
    let mesh = Mesh::start_with_booking_clock(clock.clone()).await;
    let client = user(&mesh, "client", "Paula Payer").await;
    (mesh, clock, client)
}

/// A coach at $75 an hour with the Wednesday slot.
async fn coach(mesh: &Mesh, name: &str) -> (User, String) {
    paid_coach_with_slot(mesh, name, 75.0).await
}

/// Adds a card as the web app does: a SetupIntent from the API, confirmed at the provider by
/// Stripe.js, then the list (which is where booking-svc learns of it). Answers the card's id.
pub async fn add_card(mesh: &Mesh, client: &User, number: &str) -> Result<String, String> {
    let (status, intent) = mesh
        .call(
            Method::POST,
            "/client/payment-methods/setup",
            Some(&client.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{intent}");
    assert!(intent["setup_intent_id"].as_str().unwrap().starts_with("seti_"));
    let secret = intent["client_secret"].as_str().expect("a client secret");
    let card = mesh.stripe.confirm_card(secret, number).await?;
    eventually("the saved card in the list", || async {
        let (status, cards) = mesh.get("/client/payment-methods", Some(&client.token)).await;
        assert_eq!(status, StatusCode::OK, "{cards}");
        cards
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["payment_method_id"] == card.as_str())
            .then_some(())
    })
    .await;
    Ok(card)
}

async fn book(mesh: &Mesh, client: &User, coach: &User, slot_id: &str) -> (StatusCode, Value) {
    mesh.post(
        "/bookings",
        Some(&client.token),
        json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": WEDNESDAY}),
    )
    .await
}

/// Books and answers the booking's id.
async fn booked(mesh: &Mesh, client: &User, coach: &User, slot_id: &str) -> String {
    let (status, booking) = book(mesh, client, coach, slot_id).await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    assert_eq!(
        (&booking["price_cents"], &booking["currency"]),
        (&json!(PRICE), &json!("usd"))
    );
    booking["booking_id"].as_str().unwrap().to_owned()
}

async fn patch(mesh: &Mesh, path: &str, who: &User, body: Option<Value>) -> Value {
    let (status, answer) = mesh.call(Method::PATCH, path, Some(&who.token), body).await;
    assert_eq!(status, StatusCode::OK, "PATCH {path}: {answer}");
    answer
}

/// The booking as `who` lists it.
async fn listed(mesh: &Mesh, who: &User, booking_id: &str) -> Value {
    let (status, list) = mesh.get("/bookings", Some(&who.token)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array()
        .unwrap()
        .iter()
        .find(|b| b["booking_id"] == booking_id)
        .cloned()
        .unwrap_or_else(|| panic!("booking {booking_id} in {list}"))
}

/// Waits until the booking's payment reads `payment_status` (the worker's work done).
pub async fn until_payment(mesh: &Mesh, who: &User, booking_id: &str, payment_status: &str) -> Value {
    eventually(&format!("booking {booking_id} {payment_status}"), || async {
        let booking = listed(mesh, who, booking_id).await;
        (booking["payment_status"] == payment_status).then_some(booking)
    })
    .await
}

fn money(booking: &Value) -> (i64, i64, i64) {
    (
        booking["price_cents"].as_i64().unwrap(),
        booking["amount_paid_cents"].as_i64().unwrap(),
        booking["amount_refunded_cents"].as_i64().unwrap(),
    )
}

#[tokio::test]
async fn a_paid_session_needs_a_card_then_is_held_and_charged_when_it_completes() {
    let (mesh, clock, client) = mesh().await;
    let (coach, slot_id) = coach(&mesh, "Carla Coach").await;

    let (status, refused) = book(&mesh, &client, &coach, &slot_id).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{refused}");
    let detail = refused["detail"].as_str().unwrap();
    assert!(
        detail.contains("Payment methods") && !detail.contains("payment_required"),
        "{detail}"
    );

    let declined = add_card(&mesh, &client, CARD_DECLINED_ON_SAVE).await;
    assert!(declined.is_err(), "a declined card is not saved: {declined:?}");
    let card = add_card(&mesh, &client, CARD_OK)
        .await
        .expect("the card is saved");
    let (_, cards) = mesh.get("/client/payment-methods", Some(&client.token)).await;
    assert_eq!(cards.as_array().unwrap().len(), 1, "{cards}");
    assert_eq!(
        (&cards[0]["last4"], &cards[0]["is_default"]),
        (&json!("4242"), &json!(true))
    );

    let booking_id = booked(&mesh, &client, &coach, &slot_id).await;
    let held = until_payment(&mesh, &client, &booking_id, "authorized").await;
    assert_eq!(money(&held), (PRICE, 0, 0));
    let receipt = format!("/bookings/{booking_id}/receipt");
    let (status, body) = mesh.get(&receipt, Some(&client.token)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "nothing charged yet: {body}");
    let (status, body) = mesh
        .call(
            Method::DELETE,
            &format!("/client/payment-methods/{card}"),
            Some(&client.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "the card holds a payment: {body}");

    patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    clock.set(at("2030-06-05T23:01:00Z"));
    let paid = until_payment(&mesh, &client, &booking_id, "paid").await;
    assert_eq!(paid["status"], "completed");
    assert_eq!(money(&paid), (PRICE, PRICE, 0));

    for who in [&client, &coach] {
        let (status, body) = mesh.get(&receipt, Some(&who.token)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            (&body["amount_paid_cents"], &body["card_last4"], &body["currency"]),
            (&json!(PRICE), &json!("4242"), &json!("usd"))
        );
        assert_eq!(body["booking"]["client_name"], "Paula Payer");
        assert_eq!(body["booking"]["coach_name"], "Carla Coach");
        let captures: Vec<&Value> = body["lines"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["kind"] == "capture")
            .collect();
        assert_eq!(captures.len(), 1, "{body}");
        assert_eq!(captures[0]["amount_cents"], PRICE);
    }
    let stranger = user(&mesh, "client", "Sam Stranger").await;
    let (status, _) = mesh.get(&receipt, Some(&stranger.token)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, earnings) = mesh
        .get("/coach/earnings?month=2030-06", Some(&coach.token))
        .await;
    assert_eq!(status, StatusCode::OK, "{earnings}");
    assert_eq!(
        (
            &earnings["paid_cents"],
            &earnings["fees_cents"],
            &earnings["net_cents"],
            &earnings["held_cents"]
        ),
        (&json!(7500), &json!(750), &json!(6750), &json!(0))
    );
    assert_eq!(earnings["lines"][0]["client_name"], "Paula Payer");
    let csv = mesh
        .http
        .get(mesh.url("/coach/earnings.csv?month=2030-06"))
        .bearer_auth(&coach.token)
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), StatusCode::OK);
    assert!(
        csv.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("earnings-2030-06.csv")
    );
    let csv = csv.text().await.unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows[0].starts_with("booking_id,booking_date,client,kind,gross,fee,net"));
    assert!(
        rows[1].contains(&format!(
            "{booking_id},2030-06-05,Paula Payer,capture,75.00,7.50,67.50"
        )),
        "{csv}"
    );
    let (status, body) = mesh.get("/coach/earnings?month=June", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    let admin = mesh.admin().await;
    let (status, stats) = mesh.get("/admin/stats", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{stats}");
    assert_eq!(
        (
            &stats["gross_cents"],
            &stats["fees_cents"],
            &stats["refunds_cents"]
        ),
        (&json!(7500), &json!(750), &json!(0))
    );
}

#[tokio::test]
async fn denied_expired_cancelled_in_time_and_coach_cancelled_sessions_release_the_hold() {
    let (mesh, clock, client) = mesh().await;
    add_card(&mesh, &client, CARD_OK)
        .await
        .expect("the card is saved");
    let mut cases = Vec::new();
    for name in ["Dee Denier", "Eve Expirer", "Cal Cancelled", "Cody Coachcancel"] {
        let (coach, slot_id) = coach(&mesh, name).await;
        if name == "Eve Expirer" {
            let (status, body) = mesh
                .call(
                    Method::PUT,
                    "/coach/policy",
                    Some(&coach.token),
                    Some(json!({"min_notice_minutes": 0, "max_advance_days": 365,
                                "response_window_minutes": 1, "cancellation_window_minutes": 1440})),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let booking_id = booked(&mesh, &client, &coach, &slot_id).await;
        until_payment(&mesh, &client, &booking_id, "authorized").await;
        cases.push((name, coach, booking_id));
    }
    for (name, coach, id) in &cases {
        match *name {
            "Dee Denier" => {
                patch(&mesh, &format!("/coach/bookings/{id}/deny"), coach, None).await;
            }
            "Cal Cancelled" => {
                patch(&mesh, &format!("/bookings/{id}/cancel"), &client, None).await;
            }
            "Cody Coachcancel" => {
                patch(&mesh, &format!("/coach/bookings/{id}/approve"), coach, None).await;
                let body = json!({"reason": "Court flooded."});
                patch(&mesh, &format!("/coach/bookings/{id}/cancel"), coach, Some(body)).await;
            }
            _ => {}
        }
    }
    // The unanswered one expires after its one-minute window.
    clock.advance(chrono::TimeDelta::minutes(2));
    for (name, _, id) in &cases {
        let released = until_payment(&mesh, &client, id, "released").await;
        assert_eq!(money(&released), (PRICE, 0, 0), "{name}");
    }
    let (_, cards) = mesh.get("/client/payment-methods", Some(&client.token)).await;
    let card = cards[0]["payment_method_id"].as_str().unwrap();
    let (status, body) = mesh
        .call(
            Method::DELETE,
            &format!("/client/payment-methods/{card}"),
            Some(&client.token),
            None,
        )
        .await;
    assert_eq!(
        status,
        StatusCode::NO_CONTENT,
        "nothing is held on it now: {body}"
    );
}

#[tokio::test]
async fn a_late_cancel_costs_the_late_fee_and_a_no_show_the_no_show_fee() {
    let (mesh, clock, client) = mesh().await;
    add_card(&mesh, &client, CARD_OK)
        .await
        .expect("the card is saved");
    let (late_coach, late_slot) = coach(&mesh, "Lara Late").await;
    let (absent_coach, absent_slot) = coach(&mesh, "Nico Noshow").await;
    let (status, body) = mesh
        .call(
            Method::PUT,
            "/coach/policy",
            Some(&absent_coach.token),
            Some(json!({"min_notice_minutes": 0, "max_advance_days": 365,
                        "response_window_minutes": 2880, "cancellation_window_minutes": 1440,
                        "no_show_fee_percent": 40})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (
            &body["late_cancellation_fee_percent"],
            &body["no_show_fee_percent"]
        ),
        (&json!(50), &json!(40)),
        "a fee left out is kept"
    );
    let late = booked(&mesh, &client, &late_coach, &late_slot).await;
    let absent = booked(&mesh, &client, &absent_coach, &absent_slot).await;
    for (coach, id) in [(&late_coach, &late), (&absent_coach, &absent)] {
        until_payment(&mesh, &client, id, "authorized").await;
        patch(&mesh, &format!("/coach/bookings/{id}/approve"), coach, None).await;
    }

    // Inside the 24-hour window: a late cancel, half the price.
    clock.set(at("2030-06-05T10:00:00Z"));
    let cancelled = patch(&mesh, &format!("/bookings/{late}/cancel"), &client, None).await;
    assert_eq!(cancelled["late_cancellation"], true);
    let fee = until_payment(&mesh, &client, &late, "partially_paid").await;
    assert_eq!(money(&fee), (PRICE, 3750, 0));

    // The other completes (captured in full), then is marked no-show: 40 % is kept.
    clock.set(at("2030-06-05T23:01:00Z"));
    until_payment(&mesh, &client, &absent, "paid").await;
    patch(
        &mesh,
        &format!("/coach/bookings/{absent}/no-show"),
        &absent_coach,
        None,
    )
    .await;
    let kept = until_payment(&mesh, &client, &absent, "partially_refunded").await;
    assert_eq!(money(&kept), (PRICE, PRICE, 4500));

    let (status, earnings) = mesh
        .get("/coach/earnings?month=2030-06", Some(&late_coach.token))
        .await;
    assert_eq!(status, StatusCode::OK, "{earnings}");
    assert_eq!(
        (&earnings["paid_cents"], &earnings["fees_cents"]),
        (&json!(3750), &json!(375))
    );
}

#[tokio::test]
async fn a_rescheduled_booking_takes_its_hold_along() {
    let (mesh, _clock, client) = mesh().await;
    add_card(&mesh, &client, CARD_OK)
        .await
        .expect("the card is saved");
    let (coach, slot_id) = coach(&mesh, "Rita Reschedule").await;
    let (status, later) = mesh
        .post(
            "/availability",
            Some(&coach.token),
            json!({"slot_type": "recurring", "day_of_week": "Wednesday", "start_time": "19:00",
                   "end_time": "20:00"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{later}");
    let old = booked(&mesh, &client, &coach, &slot_id).await;
    until_payment(&mesh, &client, &old, "authorized").await;

    let (status, moved) = mesh
        .post(
            &format!("/bookings/{old}/reschedule"),
            Some(&client.token),
            json!({"slot_id": later["slot_id"], "booking_date": WEDNESDAY}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{moved}");
    assert_eq!(moved["payment_status"], "authorized", "the hold followed");
    let old_now = listed(&mesh, &client, &old).await;
    assert_eq!(
        (&old_now["payment_status"], &old_now["amount_paid_cents"]),
        (&json!("released"), &json!(0))
    );
}

#[tokio::test]
async fn an_admin_refunds_part_then_the_rest_and_never_more_than_was_paid() {
    let (mesh, clock, client) = mesh().await;
    add_card(&mesh, &client, CARD_OK)
        .await
        .expect("the card is saved");
    let (coach, slot_id) = coach(&mesh, "Remy Refund").await;
    let id = booked(&mesh, &client, &coach, &slot_id).await;
    until_payment(&mesh, &client, &id, "authorized").await;
    patch(&mesh, &format!("/coach/bookings/{id}/approve"), &coach, None).await;
    clock.set(at("2030-06-05T23:01:00Z"));
    until_payment(&mesh, &client, &id, "paid").await;

    let admin = mesh.admin().await;
    let (status, page) = mesh
        .get(
            &format!("/admin/payments?payment_status=paid&coach_id={}", coach.id),
            Some(&admin),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page[0]["booking_id"], id.as_str());
    assert_eq!(page[0]["coach_name"], "Remy Refund");
    let (status, body) = mesh
        .get("/admin/payments?payment_status=nonsense", Some(&admin))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    let refund = format!("/admin/bookings/{id}/refund");
    for bad in [
        json!({"amount_cents": 0, "reason": "x"}),
        json!({"amount_cents": 100, "reason": "   "}),
        json!({"amount_cents": 100}),
    ] {
        let (status, body) = mesh.post(&refund, Some(&admin), bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
    }
    let (status, body) = mesh
        .post(
            &refund,
            Some(&admin),
            json!({"amount_cents": PRICE + 1, "reason": "Too much."}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "above what was paid: {body}");
    let (status, body) = mesh
        .post(
            &refund,
            Some(&admin),
            json!({"amount_cents": 2500, "reason": "Started late."}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let part = until_payment(&mesh, &client, &id, "partially_refunded").await;
    assert_eq!(money(&part), (PRICE, PRICE, 2500));
    let (status, body) = mesh
        .post(
            &refund,
            Some(&admin),
            json!({"amount_cents": 5001, "reason": "More than is left."}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = mesh
        .post(
            &refund,
            Some(&admin),
            json!({"amount_cents": 5000, "reason": "The rest, as agreed."}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let whole = until_payment(&mesh, &client, &id, "refunded").await;
    assert_eq!(money(&whole), (PRICE, PRICE, PRICE));
    let (status, body) = mesh
        .post(
            &refund,
            Some(&admin),
            json!({"amount_cents": 1, "reason": "Nothing is left."}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    let (_, receipt) = mesh
        .get(&format!("/bookings/{id}/receipt"), Some(&client.token))
        .await;
    let refunds: Vec<&Value> = receipt["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "refund")
        .collect();
    assert_eq!(refunds.len(), 2, "{receipt}");
    let (_, stats) = mesh.get("/admin/stats", Some(&admin)).await;
    assert_eq!(
        (
            &stats["gross_cents"],
            &stats["fees_cents"],
            &stats["refunds_cents"]
        ),
        (&json!(7500), &json!(0), &json!(7500)),
        "a whole refund returns the whole fee"
    );
}

/// Posts `payload` to the webhook with `signature` (None: no header).
async fn webhook(mesh: &Mesh, payload: &str, signature: Option<String>) -> (StatusCode, Value) {
    let mut request = mesh
        .http
        .post(mesh.url("/payments/webhook"))
        .header("content-type", "application/json")
        .body(payload.to_owned());
    if let Some(signature) = signature {
        request = request.header("stripe-signature", signature);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_webhook_takes_only_fresh_events_signed_with_the_secret_and_each_once() {
    let (mesh, clock, _) = mesh().await;
    let now = clock.now().timestamp();
    let event = json!({"id": "evt_mesh_1", "object": "event", "type": "customer.created",
                       "data": {"object": {"id": "cus_x", "object": "customer"}}})
    .to_string();

    let (status, body) = webhook(&mesh, &event, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no signature: {body}");
    let (status, body) = webhook(&mesh, &event, Some(signature("whsec_wrong", now, &event))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "another secret: {body}");
    assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()));
    let stale = signature(WEBHOOK_SECRET, now - 301, &event);
    let (status, body) = webhook(&mesh, &event, Some(stale)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "older than 5 minutes: {body}");
    let body_changed = event.replace("customer.created", "customer.deleted");
    let (status, _) = webhook(&mesh, &body_changed, Some(signature(WEBHOOK_SECRET, now, &event))).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "a body the signature does not cover"
    );

    let fresh = signature(WEBHOOK_SECRET, now, &event);
    for _ in 0..2 {
        let (status, body) = webhook(&mesh, &event, Some(fresh.clone())).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    }
    let db = sqlx::PgPool::connect(&mesh.database_url).await.unwrap();
    let kept: i64 =
        sqlx::query_scalar("select count(*) from booking.webhook_event where event_id = 'evt_mesh_1'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(kept, 1, "a replay is applied once");
    let not_json = mesh
        .raw(
            Method::POST,
            "/payments/webhook",
            None,
            Some("text/plain"),
            event.clone(),
        )
        .await;
    assert_eq!(
        not_json.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "{}",
        not_json.body
    );
}

#[tokio::test]
async fn the_browser_reads_where_stripe_js_is_and_the_key_and_the_secret_is_never_kept() {
    let (mesh, _, client) = mesh().await;
    let (status, config) = mesh.get("/payments/config", None).await;
    assert_eq!(status, StatusCode::OK, "{config}");
    assert_eq!(
        config,
        json!({"publishable_key": platform::testing::Localstripe::PUBLISHABLE_KEY,
               "js_url": "https://js.stripe.com/v3/"})
    );
    let answer = mesh
        .http
        .post(mesh.url("/client/payment-methods/setup"))
        .bearer_auth(&client.token)
        .header("idempotency-key", "setup-once")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::CREATED);
    assert_eq!(answer.headers()["cache-control"], "no-store");
    let first: Value = answer.json().await.unwrap();
    let again: Value = mesh
        .http
        .post(mesh.url("/client/payment-methods/setup"))
        .bearer_auth(&client.token)
        .header("idempotency-key", "setup-once")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_ne!(
        first["setup_intent_id"], again["setup_intent_id"],
        "a client secret is never kept for a replay"
    );
}
