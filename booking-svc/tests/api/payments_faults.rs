//! Payments (issue 33) when things go wrong: a declined card (failed, fixed with a new default
//! card, or the booking cancelled near its start), races (approve against cancel, completion
//! against an admin refund, two replicas' workers on one outcome), a provider that stops and
//! comes back, and a step the provider applied whose answer was lost: each ends charged once.

use std::sync::Arc;

use chrono::Duration;
use platform::{
    clock::Clock,
    testing::{CARD_DECLINED_ON_CHARGE, CARD_OK, until},
};
use proto::booking::v1 as pb;

use crate::{
    helpers::{TestApp, as_user},
    payments::{AtProvider, Session, at_provider, ledger, money, paid_coach, payment_events, wait_payment},
};

#[tokio::test]
async fn a_declined_hold_fails_tells_the_client_and_is_held_again_with_a_new_default_card() {
    let app = TestApp::spawn_with_payments().await;
    let coach = paid_coach(&app, 75.0).await;
    let (client, _) = app.client_with_card(CARD_DECLINED_ON_CHARGE).await;
    let date = (app.clock.now() + Duration::days(3)).date_naive();
    let slot = app.one_time_slot(&coach, date, "15:00", "16:00").await;
    let id = app.book(&client, coach.id, &slot, date).await.unwrap().booking_id;

    wait_payment(&app, &id, "failed").await;
    let error: Option<String> =
        sqlx::query_scalar("select payment_error from booking.booking where booking_id = $1::uuid")
            .bind(&id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert!(error.is_some_and(|e| e.contains("declined")));
    let failed = app.event_of(&id, "payment_failed").await;
    assert!(
        failed["reason"].as_str().unwrap().contains("declined"),
        "{failed}"
    );
    assert_eq!(
        app.status_of(&id).await,
        "pending",
        "the booking stays while the card is fixed"
    );

    let good = app.add_card(&client, CARD_OK).await.unwrap();
    app.booking
        .clone()
        .set_default_payment_method(as_user(
            &client,
            pb::SetDefaultPaymentMethodRequest {
                payment_method_id: good.clone(),
            },
        ))
        .await
        .unwrap();

    wait_payment(&app, &id, "authorized").await;
    let card: Option<String> =
        sqlx::query_scalar("select payment_method_id from booking.booking where booking_id = $1::uuid")
            .bind(&id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(card, Some(good));
    let at = at_provider(&app, &id).await;
    assert_eq!(
        (at.intents, at.held),
        (2, 7500),
        "the declined intent and the held one"
    );
}

#[tokio::test]
async fn a_hold_still_declined_a_day_before_the_start_cancels_the_booking_and_charges_nothing() {
    let app = TestApp::spawn_with_payments().await;
    let coach = paid_coach(&app, 75.0).await;
    let (client, _) = app.client_with_card(CARD_DECLINED_ON_CHARGE).await;
    let date = (app.clock.now() + Duration::days(3)).date_naive();
    let slot = app.one_time_slot(&coach, date, "15:00", "16:00").await;
    let id = app.book(&client, coach.id, &slot, date).await.unwrap().booking_id;
    app.approve(&coach, &id).await.unwrap();
    wait_payment(&app, &id, "failed").await;

    let starts = date.and_hms_opt(15, 0, 0).unwrap().and_utc();
    app.clock.set(starts - Duration::hours(25));
    // Not yet: a day and an hour before.
    app.scheduler().run_due().await.unwrap();
    assert_eq!(app.status_of(&id).await, "confirmed");

    app.clock.set(starts - Duration::hours(23));
    app.wait_for_status(&id, "cancelled").await;
    let row: (Option<String>, Option<String>, String) = sqlx::query_as(
        "select cancelled_by, cancellation_reason, payment_status from booking.booking
         where booking_id = $1::uuid",
    )
    .bind(&id)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(
        row,
        (
            None,
            Some("the card on file was declined and not replaced".into()),
            "released".into()
        )
    );
    assert!(app.events_of(&id).await.contains(&"booking_cancelled".to_owned()));
    assert_eq!(money(&app, &id).await, ("released".into(), 0, 0));
    assert_eq!(at_provider(&app, &id).await.captured, 0);
}

#[tokio::test]
async fn approve_against_cancel_ends_released_with_nothing_charged() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    for _ in 0..3 {
        let slot = app.one_time_slot(&s.coach, s.date, "18:00", "19:00").await;
        let id = app
            .book(&s.client, s.coach.id, &slot, s.date)
            .await
            .unwrap()
            .booking_id;
        wait_payment(&app, &id, "authorized").await;
        let (approved, cancelled) = tokio::join!(app.approve(&s.coach, &id), app.cancel(&s.client, &id));
        assert!(
            cancelled.is_ok(),
            "a pending or confirmed booking is cancelled either way"
        );
        let _ = approved;
        wait_payment(&app, &id, "released").await;
        assert_eq!(
            at_provider(&app, &id).await,
            AtProvider {
                intents: 1,
                ..AtProvider::default()
            }
        );
        app.delete_slot(&s.coach, &slot).await;
    }
    assert_eq!(ledger(&app).await.len(), 1, "nothing booked");
}

#[tokio::test]
async fn completion_against_an_admin_refund_charges_once_and_refunds_only_what_was_paid() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let admin = app.admin();
    let id = s.confirmed(&app).await;
    app.clock.advance(Duration::days(4));
    // The admin refunds as soon as they can: refused until the capture is booked, then accepted.
    until("the refund accepted", || {
        let (app, admin, id) = (&app, &admin, &id);
        async move {
            let answer = app
                .booking
                .clone()
                .refund_booking(as_user(
                    admin,
                    pb::RefundBookingRequest {
                        booking_id: id.clone(),
                        amount_cents: 7500,
                        reason: "the coach was late".into(),
                    },
                ))
                .await;
            answer.is_ok()
        }
    })
    .await;
    until("the refund booked", || async { money(&app, &id).await.2 == 7500 }).await;
    assert_eq!(money(&app, &id).await, ("refunded".into(), 7500, 7500));
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            captured: 7500,
            refunded: 7500,
            ..AtProvider::default()
        }
    );
    assert_eq!(
        payment_events(&app, &id).await,
        ["payment_captured", "payment_refunded"]
    );
    let books = ledger(&app).await;
    assert_eq!((books["provider"], books["total"]), (0, 0));
}

#[tokio::test]
async fn two_replicas_workers_racing_capture_each_booking_once() {
    // booking-svc's own worker ticks once an hour (it still wakes after its own commits: it makes
    // the holds); the completions are the test's scheduler's, so two workers of the test's race
    // for the captures.
    let app = TestApp::with().payments().idle_scheduler().start().await;
    let s = Session::new(&app, 3).await;
    let mut ids = Vec::new();
    for start in ["08:00", "10:00", "12:00", "14:00"] {
        let end = format!("{:02}:30", &start[..2]);
        let slot = app.one_time_slot(&s.coach, s.date, start, &end).await;
        let id = app
            .book(&s.client, s.coach.id, &slot, s.date)
            .await
            .unwrap()
            .booking_id;
        wait_payment(&app, &id, "authorized").await;
        app.approve(&s.coach, &id).await.unwrap();
        ids.push(id);
    }
    let clock = Arc::new(app.clock.clone());
    let worker = || {
        booking_svc::PaymentWorker::new(
            app.db.clone(),
            &app.stripe().url(),
            app.stripe().secret_key(),
            clock.clone(),
            1000,
        )
        .unwrap()
    };
    let (one, two) = (worker(), worker());
    app.clock.advance(Duration::days(4));
    app.scheduler().run_due().await.unwrap();
    let (a, b) = tokio::join!(one.run_due(), two.run_due());
    assert_eq!(a.unwrap() + b.unwrap(), ids.len(), "each capture applied once");
    for id in &ids {
        // Half an hour at $75.00 an hour.
        assert_eq!(money(&app, id).await, ("paid".into(), 3750, 0));
        assert_eq!(
            at_provider(&app, id).await,
            AtProvider {
                intents: 1,
                captured: 3750,
                ..AtProvider::default()
            }
        );
        assert_eq!(payment_events(&app, id).await, ["payment_captured"]);
    }
    let captures: i64 = sqlx::query_scalar("select count(*) from booking.ledger_txn where kind = 'capture'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(captures, ids.len() as i64);
    assert_eq!(ledger(&app).await["provider"], 3750 * ids.len() as i64);
}

#[tokio::test]
async fn a_stopped_provider_delays_the_capture_which_resumes_by_itself_once() {
    let mut app = TestApp::with().payments().idle_scheduler().start().await;
    let s = Session::new(&app, 3).await;
    let id = s.confirmed(&app).await;
    // A worker of the test's: booking-svc's own is idle but for the wake-ups of its commits.
    let worker = booking_svc::PaymentWorker::new(
        app.db.clone(),
        &app.stripe().url(),
        app.stripe().secret_key(),
        Arc::new(app.clock.clone()),
        1000,
    )
    .unwrap();

    app.localstripe.as_mut().unwrap().stop().await;
    app.clock.advance(Duration::days(4));
    app.scheduler().run_due().await.unwrap();
    // Approvals and reads go on; the capture waits.
    assert_eq!(worker.run_due().await.unwrap(), 0);
    let (status, attempts, error): (String, i32, Option<String>) = sqlx::query_as(
        "select payment_status, payment_attempts, payment_error from booking.booking
         where booking_id = $1::uuid",
    )
    .bind(&id)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!((status.as_str(), attempts), ("authorized", 1));
    assert!(error.is_some());
    // Not before its backoff (5 s): nothing is tried.
    assert_eq!(worker.run_due().await.unwrap(), 0);

    app.localstripe.as_mut().unwrap().resume().await;
    assert_eq!(worker.run_due().await.unwrap(), 0, "still backing off");
    app.clock.advance(Duration::seconds(6));
    assert_eq!(worker.run_due().await.unwrap(), 1);
    assert_eq!(money(&app, &id).await, ("paid".into(), 7500, 0));
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            captured: 7500,
            ..AtProvider::default()
        }
    );
}

#[tokio::test]
async fn a_capture_the_provider_made_but_whose_answer_was_lost_is_booked_once() {
    let app = TestApp::with().payments().idle_scheduler().start().await;
    let s = Session::new(&app, 3).await;
    let id = s.confirmed(&app).await;
    let worker = booking_svc::PaymentWorker::new(
        app.db.clone(),
        &app.stripe().url(),
        app.stripe().secret_key(),
        Arc::new(app.clock.clone()),
        1000,
    )
    .unwrap();
    app.clock.advance(Duration::days(4));
    app.scheduler().run_due().await.unwrap();

    // The worker's capture reached the provider and the process died before its commit: the
    // capture is at localstripe, not in the books.
    let intent: String =
        sqlx::query_scalar("select payment_intent_id from booking.booking where booking_id = $1::uuid")
            .bind(&id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    let captured = reqwest::Client::new()
        .post(format!(
            "{}/v1/payment_intents/{intent}/capture",
            app.stripe().url()
        ))
        .bearer_auth(app.stripe().secret_key())
        .form(&[("amount_to_capture", "7500")])
        .send()
        .await
        .unwrap();
    assert!(captured.status().is_success());

    assert_eq!(worker.run_due().await.unwrap(), 1);
    assert_eq!(money(&app, &id).await, ("paid".into(), 7500, 0));
    assert_eq!(at_provider(&app, &id).await.captured, 7500);
    assert_eq!(ledger(&app).await["provider"], 7500);
    assert_eq!(worker.run_due().await.unwrap(), 0, "nothing left to do");
}

#[tokio::test]
async fn workers_racing_for_one_refund_refund_it_once() {
    let app = TestApp::with().payments().idle_scheduler().start().await;
    let s = Session::new(&app, 3).await;
    let id = s.confirmed(&app).await;
    let clock = Arc::new(app.clock.clone());
    let worker = || {
        booking_svc::PaymentWorker::new(
            app.db.clone(),
            &app.stripe().url(),
            app.stripe().secret_key(),
            clock.clone(),
            1000,
        )
        .unwrap()
    };
    let (one, two) = (worker(), worker());
    app.clock.advance(Duration::days(4));
    app.scheduler().run_due().await.unwrap();
    one.run_due().await.unwrap();
    assert_eq!(money(&app, &id).await, ("paid".into(), 7500, 0));

    // booking-svc's own worker wakes on the refund's commit and races the two.
    app.booking
        .clone()
        .refund_booking(as_user(
            &app.admin(),
            pb::RefundBookingRequest {
                booking_id: id.clone(),
                amount_cents: 3000,
                reason: "a short session".into(),
            },
        ))
        .await
        .unwrap();
    let (a, b) = tokio::join!(one.run_due(), two.run_due());
    a.unwrap();
    b.unwrap();
    until("the refund booked", || async { money(&app, &id).await.2 == 3000 }).await;
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            captured: 7500,
            refunded: 3000,
            ..AtProvider::default()
        }
    );
    assert_eq!(
        payment_events(&app, &id).await,
        ["payment_captured", "payment_refunded"]
    );
    let books = ledger(&app).await;
    // $75.00 − $30.00; the fee $7.50 less $3.00's share, $3.00 × 10 %.
    assert_eq!(
        (books["provider"], books["platform:fees"], books["total"]),
        (4500, -450, 0)
    );
}
