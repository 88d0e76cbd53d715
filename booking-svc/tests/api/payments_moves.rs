//! Payments (issue 33) of bookings moved: a reschedule's hold follows the booking when the price
//! is the same (no provider call) and is let go and made afresh when it is not; an account closed
//! releases its bookings' holds.

use chrono::Duration;
use proto::booking::v1 as pb;

use crate::{
    helpers::{TestApp, as_user},
    payments::{AtProvider, Session, at_provider, ledger, money, wait_payment},
};

#[tokio::test]
async fn a_reschedule_moves_the_hold_to_the_new_booking_without_a_provider_call() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let later = app.one_time_slot(&s.coach, s.date, "17:00", "18:00").await;
    let old = s.confirmed(&app).await;

    let moved = app
        .booking
        .clone()
        .reschedule_booking(as_user(
            &s.client,
            pb::RescheduleBookingRequest {
                booking_id: old.clone(),
                slot_id: later,
                booking_date: s.date.to_string(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .booking
        .unwrap();

    assert_eq!(moved.payment_status, "authorized");
    assert_eq!(money(&app, &old).await, ("released".into(), 0, 0));
    // The one hold, made for the old booking, still held: now the new one's.
    assert_eq!(
        at_provider(&app, &old).await,
        AtProvider {
            intents: 1,
            held: 7500,
            ..AtProvider::default()
        }
    );
    let intents: Vec<Option<String>> = sqlx::query_scalar(
        "select payment_intent_id from booking.booking where booking_id in ($1::uuid, $2::uuid)
         order by created_at",
    )
    .bind(&old)
    .bind(&moved.booking_id)
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert!(intents[0].is_none() && intents[1].is_some(), "{intents:?}");

    app.approve(&s.coach, &moved.booking_id).await.unwrap();
    app.clock.advance(Duration::days(4));
    wait_payment(&app, &moved.booking_id, "paid").await;
    assert_eq!(at_provider(&app, &old).await.captured, 7500);
    assert_eq!(ledger(&app).await["provider"], 7500);
}

#[tokio::test]
async fn a_reschedule_to_another_price_releases_the_old_hold_and_holds_the_new_price_afresh() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    // Ninety minutes: $112.50.
    let longer = app.one_time_slot(&s.coach, s.date, "17:00", "18:30").await;
    let old = s.confirmed(&app).await;

    let moved = app
        .booking
        .clone()
        .reschedule_booking(as_user(
            &s.client,
            pb::RescheduleBookingRequest {
                booking_id: old.clone(),
                slot_id: longer,
                booking_date: s.date.to_string(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .booking
        .unwrap();
    assert_eq!(
        (moved.price_cents, moved.payment_status.as_str()),
        (11_250, "pending")
    );

    wait_payment(&app, &old, "released").await;
    wait_payment(&app, &moved.booking_id, "authorized").await;
    assert_eq!(
        at_provider(&app, &old).await,
        AtProvider {
            intents: 1,
            ..AtProvider::default()
        },
        "the old hold is let go"
    );
    assert_eq!(at_provider(&app, &moved.booking_id).await.held, 11_250);
}

#[tokio::test]
async fn a_closed_account_cancels_its_bookings_and_releases_their_holds() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let id = s.confirmed(&app).await;

    let mut conn = redis::Client::open("redis://127.0.0.1:6379")
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .expect("Redis is up at 127.0.0.1:6379");
    let envelope = platform::events::Envelope {
        event_id: uuid::Uuid::new_v4(),
        occurred_at: chrono::Utc::now().to_rfc3339(),
        event: platform::events::Event::UserDeleted {
            user_id: s.client.id,
            role: platform::auth::Role::Client,
        },
    };
    platform::events::publish(
        &mut conn,
        &platform::events::stream_key(&app.redis_namespace),
        &envelope,
    )
    .await
    .unwrap();

    app.wait_for_status(&id, "cancelled").await;
    wait_payment(&app, &id, "released").await;
    assert_eq!(money(&app, &id).await, ("released".into(), 0, 0));
    assert_eq!(at_provider(&app, &id).await.held, 0);
}
