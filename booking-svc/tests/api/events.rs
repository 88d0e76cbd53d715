//! identity's events: a deleted user, or one whose role changed, leaves the bookings of that role
//! cancelled (and their slots free), each cancel with its own event; each event is applied once.
//! booking's own events reach the Redis stream through its outbox.

use std::time::Duration;

use chrono::Weekday;
use platform::{
    auth::Role,
    events::{Envelope, Event},
};
use uuid::Uuid;

use crate::helpers::{TestApp, User, next};

async fn publish(app: &TestApp, event_id: Uuid, event: Event) {
    let mut conn = redis::Client::open("redis://127.0.0.1:6379")
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .expect("Redis is up at 127.0.0.1:6379");
    let envelope = Envelope {
        event_id,
        occurred_at: chrono::Utc::now().to_rfc3339(),
        event,
    };
    platform::events::publish(
        &mut conn,
        &platform::events::stream_key(&app.redis_namespace),
        &envelope,
    )
    .await
    .unwrap();
}

/// Waits until the booking reaches `status`; panics after ten seconds.
async fn wait_for_status(app: &TestApp, booking_id: &str, status: &str) {
    for _ in 0..400 {
        if app.status_of(booking_id).await == status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("booking {booking_id} never became {status}");
}

/// A coach with a Monday slot, a second Monday slot, and a booking of each by different clients.
async fn two_bookings(app: &TestApp) -> (User, [(User, String); 2]) {
    let coach = app.coach();
    let monday = next(Weekday::Mon);
    let mut held = Vec::new();
    for start in ["09:00", "11:00"] {
        let end = if start == "09:00" { "10:00" } else { "12:00" };
        let slot = app.weekly_slot(&coach, "Monday", start, end).await;
        let client = app.client();
        let booking = app.book(&client, coach.id, &slot, monday).await.unwrap();
        held.push((client, booking.booking_id));
    }
    (coach, held.try_into().unwrap())
}

#[tokio::test]
async fn a_deleted_client_s_open_bookings_are_cancelled_and_others_stay() {
    let app = TestApp::spawn().await;
    let (_, [(gone, theirs), (_, others)]) = two_bookings(&app).await;

    publish(
        &app,
        Uuid::new_v4(),
        Event::UserDeleted {
            user_id: gone.id,
            role: Role::Client,
        },
    )
    .await;

    wait_for_status(&app, &theirs, "cancelled").await;
    assert_eq!(app.status_of(&others).await, "pending");
    let listed = app.list(&gone).await.unwrap();
    assert_eq!(listed[0].cancelled_by.as_deref(), Some("client"));
    assert_eq!(
        listed[0].cancellation_reason.as_deref(),
        Some("the client's account was closed")
    );
    let event = app.event_of(&theirs, "booking_cancelled").await;
    assert_eq!(event["by"], "client");
    assert_eq!(event["reason"], "the client's account was closed");
}

#[tokio::test]
async fn a_deleted_coach_s_open_bookings_are_cancelled() {
    let app = TestApp::spawn().await;
    let (coach, [(_, first), (_, second)]) = two_bookings(&app).await;
    app.approve(&coach, &first).await.unwrap();

    publish(
        &app,
        Uuid::new_v4(),
        Event::UserDeleted {
            user_id: coach.id,
            role: Role::Coach,
        },
    )
    .await;

    wait_for_status(&app, &first, "cancelled").await;
    wait_for_status(&app, &second, "cancelled").await;
    for booking_id in [&first, &second] {
        let event = app.event_of(booking_id, "booking_cancelled").await;
        assert_eq!(event["by"], "coach");
        assert_eq!(event["reason"], "the coach's account was closed");
    }
}

#[tokio::test]
async fn booking_s_events_reach_the_redis_stream_in_the_order_they_happened() {
    let app = TestApp::spawn().await;
    let (coach, [(_, booking_id), _]) = two_bookings(&app).await;
    app.approve(&coach, &booking_id).await.unwrap();

    let mut conn = redis::Client::open("redis://127.0.0.1:6379")
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .expect("Redis is up at 127.0.0.1:6379");
    let stream = platform::events::stream_key(&app.redis_namespace);
    let mut seen = Vec::new();
    for _ in 0..400 {
        let entries: redis::streams::StreamRangeReply = redis::AsyncCommands::xrange_all(&mut conn, &stream)
            .await
            .unwrap();
        seen = entries
            .ids
            .iter()
            .filter_map(|entry| entry.get::<String>(platform::events::FIELD))
            .filter_map(|json| serde_json::from_str::<Envelope>(&json).ok())
            .filter_map(|envelope| match envelope.event {
                Event::BookingRequested { booking } if booking.booking_id.to_string() == booking_id => {
                    Some("requested")
                }
                Event::BookingConfirmed { booking } if booking.booking_id.to_string() == booking_id => {
                    Some("confirmed")
                }
                _ => None,
            })
            .collect();
        if seen.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(seen, ["requested", "confirmed"]);
}

#[tokio::test]
async fn a_coach_who_becomes_a_client_loses_the_bookings_with_them() {
    let app = TestApp::spawn().await;
    let (coach, [(_, first), _]) = two_bookings(&app).await;

    publish(
        &app,
        Uuid::new_v4(),
        Event::RoleChanged {
            user_id: coach.id,
            old_role: Role::Coach,
            new_role: Role::Client,
        },
    )
    .await;

    wait_for_status(&app, &first, "cancelled").await;
}

#[tokio::test]
async fn an_event_delivered_twice_is_applied_once() {
    let app = TestApp::spawn().await;
    let (coach, [(client, first), (other_client, marker)]) = two_bookings(&app).await;
    let deleted = Uuid::new_v4();
    let event = Event::UserDeleted {
        user_id: client.id,
        role: Role::Client,
    };
    publish(&app, deleted, event.clone()).await;
    wait_for_status(&app, &first, "cancelled").await;
    // The client books again after the event was applied...
    let slot = app.weekly_slot(&coach, "Tuesday", "09:00", "10:00").await;
    let rebooked = app
        .book(&client, coach.id, &slot, next(Weekday::Tue))
        .await
        .unwrap();

    // ...the event is delivered again, then another one; the stream is read in order, so once
    // the second has taken effect the replay has been handled.
    publish(&app, deleted, event).await;
    publish(
        &app,
        Uuid::new_v4(),
        Event::UserDeleted {
            user_id: other_client.id,
            role: Role::Client,
        },
    )
    .await;
    wait_for_status(&app, &marker, "cancelled").await;

    assert_eq!(app.status_of(&rebooked.booking_id).await, "pending");
}
