//! Payments (issue 33) against a real localstripe, on the injected clock: a paid booking needs a
//! card, its price is held, and each outcome charges, releases or refunds what the policy says,
//! once, at the provider and in the books. The shared arrangements of the payment suites live
//! here too.

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate};
use platform::{
    clock::Clock,
    testing::{CARD_OK, Localstripe, until},
};
use proto::{booking::v1 as pb, coaching::v1 as cpb};
use serde_json::Value;
use tonic::Code;

use crate::helpers::{TestApp, User, as_user, expect_code};

/// A coach charging `hourly` dollars an hour, with a profile (where the rate lives).
pub async fn paid_coach(app: &TestApp, hourly: f64) -> User {
    let coach = app.coach();
    app.coaching
        .clone()
        .create_coach_profile(as_user(
            &coach,
            cpb::CreateCoachProfileRequest {
                fields: Some(cpb::CoachProfileFields {
                    bio: "Tennis coach".into(),
                    specialties: vec!["tennis".into()],
                    hourly_rate: hourly,
                    years_experience: 5,
                    time_zone: None,
                    coach_name: None,
                }),
            },
        ))
        .await
        .expect("coaching-svc creates the profile");
    app.renew_coaching_stamp().await;
    coach
}

/// Sets `coach`'s two fees (the other limits at their defaults, a day's free cancellation).
pub async fn set_fees(app: &TestApp, coach: &User, late: i32, no_show: i32) {
    app.coaching
        .clone()
        .update_booking_policy(as_user(
            coach,
            cpb::UpdateBookingPolicyRequest {
                policy: Some(cpb::BookingPolicy {
                    min_notice_minutes: 0,
                    max_advance_days: 365,
                    response_window_minutes: 2880,
                    cancellation_window_minutes: 1440,
                    late_cancellation_fee_percent: Some(late),
                    no_show_fee_percent: Some(no_show),
                }),
            },
        ))
        .await
        .expect("coaching-svc sets the policy");
    app.renew_coaching_stamp().await;
}

/// A $75-an-hour coach, a client with a saved card, and the coach's one-hour slot 15:00–16:00
/// UTC on the date `days` after the app's clock.
pub struct Session {
    pub coach: User,
    pub client: User,
    pub slot_id: String,
    pub date: NaiveDate,
}

impl Session {
    pub async fn new(app: &TestApp, days: i64) -> Session {
        let coach = paid_coach(app, 75.0).await;
        let (client, _card) = app.client_with_card(CARD_OK).await;
        let date = (app.clock.now() + Duration::days(days)).date_naive();
        let slot_id = app.one_time_slot(&coach, date, "15:00", "16:00").await;
        Session {
            coach,
            client,
            slot_id,
            date,
        }
    }

    /// The client books it.
    pub async fn book(&self, app: &TestApp) -> pb::BookingRecord {
        app.book(&self.client, self.coach.id, &self.slot_id, self.date)
            .await
            .expect("the client books")
    }

    /// The client books it, the hold is made, and the coach approves it.
    pub async fn confirmed(&self, app: &TestApp) -> String {
        let id = self.book(app).await.booking_id;
        wait_payment(app, &id, "authorized").await;
        app.approve(&self.coach, &id).await.expect("the coach approves");
        id
    }
}

/// A booking's payment status, amount paid and amount refunded, as stored.
pub async fn money(app: &TestApp, booking_id: &str) -> (String, i64, i64) {
    sqlx::query_as::<_, (String, i64, i64)>(
        "select payment_status, amount_paid_cents, amount_refunded_cents from booking.booking
         where booking_id = $1::uuid",
    )
    .bind(booking_id)
    .fetch_one(&app.db)
    .await
    .unwrap()
}

/// Waits until the booking's payment status is `status`.
pub async fn wait_payment(app: &TestApp, booking_id: &str, status: &str) {
    until(
        &format!("booking {booking_id}'s payment to be {status}"),
        || async { money(app, booking_id).await.0 == status },
    )
    .await;
}

/// The sum of the ledger's entries per account (with "total", which must be 0).
pub async fn ledger(app: &TestApp) -> BTreeMap<String, i64> {
    let mut sums: BTreeMap<String, i64> = sqlx::query_as::<_, (String, i64)>(
        "select account, sum(amount_cents)::int8 from booking.ledger_entry group by account",
    )
    .fetch_all(&app.db)
    .await
    .unwrap()
    .into_iter()
    .collect();
    let total = sums.values().sum();
    sums.insert("total".into(), total);
    sums
}

/// What localstripe holds for a booking: its intents (by their metadata), how much of them is
/// held now, captured, and refunded by our refunds (a partial capture's own refund of the rest
/// carries no refund_id).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AtProvider {
    pub intents: usize,
    pub held: i64,
    pub captured: i64,
    pub refunded: i64,
}

async fn get(stripe: &Localstripe, path: &str) -> Value {
    let body = reqwest::Client::new()
        .get(format!("{}{path}", stripe.url()))
        .bearer_auth(stripe.secret_key())
        .send()
        .await
        .expect("localstripe answers")
        .text()
        .await
        .expect("localstripe answers");
    serde_json::from_str(&body).unwrap_or_else(|_| panic!("GET {path}: localstripe answered {body}"))
}

pub async fn at_provider(app: &TestApp, booking_id: &str) -> AtProvider {
    let stripe = app.stripe();
    let intents = get(stripe, "/v1/payment_intents?limit=1000").await;
    let mut found = AtProvider::default();
    for intent in intents["data"].as_array().unwrap() {
        if intent["metadata"]["booking_id"].as_str() != Some(booking_id) {
            continue;
        }
        found.intents += 1;
        let amount = intent["amount"].as_i64().unwrap();
        if intent["status"] == "requires_capture" {
            found.held += amount;
        }
        let charge = match &intent["latest_charge"] {
            Value::String(id) => get(stripe, &format!("/v1/charges/{id}")).await,
            Value::Object(_) => intent["latest_charge"].clone(),
            _ => continue,
        };
        if charge["captured"] != true {
            continue;
        }
        let refunds = &charge["refunds"];
        let (ours, rest): (Vec<&Value>, Vec<&Value>) = refunds["data"]
            .as_array()
            .unwrap()
            .iter()
            .partition(|r| r["metadata"]["refund_id"].is_string());
        let sum = |refunds: &[&Value]| refunds.iter().map(|r| r["amount"].as_i64().unwrap()).sum::<i64>();
        found.captured += charge["amount"].as_i64().unwrap() - sum(&rest);
        found.refunded += sum(&ours);
    }
    found
}

/// The types of the payment events of a booking, in order.
pub async fn payment_events(app: &TestApp, booking_id: &str) -> Vec<String> {
    app.events_of(booking_id)
        .await
        .into_iter()
        .filter(|kind| kind.starts_with("payment_"))
        .collect()
}

#[tokio::test]
async fn a_paid_slot_needs_a_card_and_a_free_one_does_not() {
    let app = TestApp::spawn_with_payments().await;
    let coach = paid_coach(&app, 75.0).await;
    let date = (app.clock.now() + Duration::days(3)).date_naive();
    let slot_id = app.one_time_slot(&coach, date, "15:00", "16:00").await;
    let cardless = app.client();

    let refused = app.book(&cardless, coach.id, &slot_id, date).await;
    let message = expect_code(refused, Code::FailedPrecondition);
    assert_eq!(
        message,
        "payment_required: This session costs $75.00. Add a card under Payment methods on your \
         dashboard, then book again."
    );

    // Another client's card is not theirs to use.
    let (_, someone_elses) = app.client_with_card(CARD_OK).await;
    let (client, _) = app.client_with_card(CARD_OK).await;
    let request = pb::CreateBookingRequest {
        coach_id: coach.id.to_string(),
        slot_id: slot_id.clone(),
        booking_date: date.to_string(),
        payment_method_id: Some(someone_elses),
    };
    let refused = app
        .booking
        .clone()
        .create_booking(as_user(&client, request))
        .await;
    assert!(expect_code(refused, Code::InvalidArgument).contains("not one of yours"));

    let free_coach = app.coach();
    let free_slot = app.one_time_slot(&free_coach, date, "15:00", "16:00").await;
    let free = app
        .book(&cardless, free_coach.id, &free_slot, date)
        .await
        .unwrap();
    assert_eq!((free.price_cents, free.payment_status.as_str()), (0, "none"));
}

#[tokio::test]
async fn a_booking_keeps_its_price_and_is_held_at_once_then_charged_in_full_when_it_completes() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let booking = s.book(&app).await;
    assert_eq!(
        (
            booking.price_cents,
            booking.currency.as_str(),
            booking.payment_status.as_str()
        ),
        (7500, "usd", "pending")
    );
    let id = booking.booking_id;
    wait_payment(&app, &id, "authorized").await;
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            held: 7500,
            ..AtProvider::default()
        }
    );
    app.approve(&s.coach, &id).await.unwrap();
    // A later change of the rate changes nothing booked.
    app.coaching
        .clone()
        .update_coach_profile(as_user(
            &s.coach,
            cpb::UpdateCoachProfileRequest {
                fields: Some(cpb::CoachProfileFields {
                    bio: "Tennis coach".into(),
                    specialties: vec![],
                    hourly_rate: 200.0,
                    years_experience: 5,
                    time_zone: None,
                    coach_name: None,
                }),
            },
        ))
        .await
        .unwrap();

    app.clock.advance(Duration::days(4));
    wait_payment(&app, &id, "paid").await;

    assert_eq!(money(&app, &id).await, ("paid".into(), 7500, 0));
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            captured: 7500,
            ..AtProvider::default()
        }
    );
    let books = ledger(&app).await;
    assert_eq!(books["total"], 0);
    assert_eq!(books["provider"], 7500);
    assert_eq!(books["platform:fees"], -750);
    assert_eq!(books[&format!("coach:{}", s.coach.id)], -6750);
    assert_eq!(payment_events(&app, &id).await, ["payment_captured"]);
    let captured = app.event_of(&id, "payment_captured").await;
    assert_eq!(
        (captured["amount_cents"].as_i64(), captured["currency"].as_str()),
        (Some(7500), Some("usd"))
    );
}

#[tokio::test]
async fn a_hold_further_than_six_days_out_is_made_six_days_before_the_start() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 10).await;
    let id = s.book(&app).await.booking_id;
    // Its hold is due at the start less six days: nothing yet.
    let due: Option<chrono::DateTime<chrono::Utc>> =
        sqlx::query_scalar("select payment_due_at from booking.booking where booking_id = $1::uuid")
            .bind(&id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    let starts = s.date.and_hms_opt(15, 0, 0).unwrap().and_utc();
    assert_eq!(due, Some(starts - Duration::days(6)));
    assert_eq!(money(&app, &id).await.0, "pending");
    assert_eq!(at_provider(&app, &id).await.intents, 0);
    // Approved (else it expires unanswered, two days after it was made).
    app.approve(&s.coach, &id).await.unwrap();
    assert_eq!(money(&app, &id).await.0, "pending");

    app.clock.set(starts - Duration::days(6));
    wait_payment(&app, &id, "authorized").await;
    assert_eq!(at_provider(&app, &id).await.held, 7500);
}

#[tokio::test]
async fn a_denied_an_expired_a_free_cancel_and_a_coach_cancel_release_the_hold_and_charge_nothing() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let other_slot = app.one_time_slot(&s.coach, s.date, "17:00", "18:00").await;
    let third_slot = app.one_time_slot(&s.coach, s.date, "19:00", "20:00").await;
    let fourth_slot = app.one_time_slot(&s.coach, s.date, "09:00", "10:00").await;

    let denied = s.book(&app).await.booking_id;
    let cancelled = app
        .book(&s.client, s.coach.id, &other_slot, s.date)
        .await
        .unwrap()
        .booking_id;
    let coach_cancelled = app
        .book(&s.client, s.coach.id, &third_slot, s.date)
        .await
        .unwrap()
        .booking_id;
    let expires = app
        .book(&s.client, s.coach.id, &fourth_slot, s.date)
        .await
        .unwrap()
        .booking_id;
    for id in [&denied, &cancelled, &coach_cancelled, &expires] {
        wait_payment(&app, id, "authorized").await;
    }
    app.approve(&s.coach, &coach_cancelled).await.unwrap();

    app.deny(&s.coach, &denied).await.unwrap();
    app.cancel(&s.client, &cancelled).await.unwrap();
    app.coach_cancel(&s.coach, &coach_cancelled, Some("I am ill"))
        .await
        .unwrap();
    // Two days later the unanswered request has expired (its response window).
    app.clock.advance(Duration::hours(49));

    for id in [&denied, &cancelled, &coach_cancelled, &expires] {
        wait_payment(&app, id, "released").await;
        assert_eq!(money(&app, id).await, ("released".into(), 0, 0));
        assert_eq!(
            at_provider(&app, id).await,
            AtProvider {
                intents: 1,
                ..AtProvider::default()
            },
            "{id}: its one intent is cancelled, nothing captured"
        );
        assert!(payment_events(&app, id).await.is_empty());
    }
    assert_eq!(app.status_of(&expires).await, "expired");
    assert_eq!(ledger(&app).await["total"], 0);
    assert_eq!(ledger(&app).await.len(), 1, "nothing was booked");
}

#[tokio::test]
async fn a_late_cancel_charges_the_coachs_late_fee_and_releases_the_rest() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    set_fees(&app, &s.coach, 30, 100).await;
    let id = s.confirmed(&app).await;

    // Inside the day before the start: late.
    let starts = s.date.and_hms_opt(15, 0, 0).unwrap().and_utc();
    app.clock.set(starts - Duration::hours(2));
    let cancelled = app.cancel(&s.client, &id).await.unwrap();
    assert!(cancelled.late_cancellation);

    wait_payment(&app, &id, "partially_paid").await;
    assert_eq!(money(&app, &id).await, ("partially_paid".into(), 2250, 0));
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            captured: 2250,
            ..AtProvider::default()
        }
    );
    let books = ledger(&app).await;
    assert_eq!(
        (books["provider"], books["platform:fees"], books["total"]),
        (2250, -225, 0)
    );
}

#[tokio::test]
async fn a_no_show_charges_the_no_show_fee_even_after_the_session_was_captured() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    set_fees(&app, &s.coach, 50, 40).await;
    let id = s.confirmed(&app).await;
    app.clock.advance(Duration::days(4));
    wait_payment(&app, &id, "paid").await;

    app.no_show(&s.coach, &id).await.unwrap();

    // 40 % of $75.00 is $30.00: the other $45.00 goes back.
    until("the no-show's refund", || async {
        money(&app, &id).await.2 == 4500
    })
    .await;
    assert_eq!(money(&app, &id).await, ("partially_refunded".into(), 7500, 4500));
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            captured: 7500,
            refunded: 4500,
            ..AtProvider::default()
        }
    );
    let books = ledger(&app).await;
    // $30.00 kept, its 10 % fee $3.00.
    assert_eq!(
        (books["provider"], books["platform:fees"], books["total"]),
        (3000, -300, 0)
    );
    assert_eq!(
        payment_events(&app, &id).await,
        ["payment_captured", "payment_refunded"]
    );
}

#[tokio::test]
async fn a_free_booking_has_no_payment_work_whatever_becomes_of_it() {
    let app = TestApp::spawn_with_payments().await;
    let coach = app.coach();
    let client = app.client();
    let date = (app.clock.now() + Duration::days(3)).date_naive();
    let slot = app.one_time_slot(&coach, date, "15:00", "16:00").await;
    let id = app.book(&client, coach.id, &slot, date).await.unwrap().booking_id;
    app.approve(&coach, &id).await.unwrap();
    app.clock.advance(Duration::days(4));
    app.wait_for_status(&id, "completed").await;
    let (status, charge, due): (String, Option<i64>, Option<chrono::DateTime<chrono::Utc>>) = sqlx::query_as(
        "select payment_status, charge_cents, payment_due_at from booking.booking
             where booking_id = $1::uuid",
    )
    .bind(&id)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!((status.as_str(), charge, due), ("none", None, None));
}
