//! Court time as instants and a reservation lifecycle that moves with the clock: open court time is
//! what starts after now, a request expires at its start by itself, the gym cancels an approved
//! reservation before it starts, and every transition leaves an event in the outbox. The clock is
//! injected (`ManualClock`) below the API.

use chrono::Duration;
use platform::clock::ManualClock;
use tonic::Code;

use crate::helpers::{GymSetup, TestApp, at, eventually};

/// 2030-06-03 10:00–11:00 in Austin (America/Chicago, CDT: UTC-5) is 15:00–16:00Z.
const DATE: &str = "2030-06-03";
const STARTS_AT: &str = "2030-06-03T15:00:00Z";

async fn court_time(app: &TestApp) -> (GymSetup, proto::gym::v1::CourtAvailability) {
    let setup = app.gym_with_court("Hoops Arena").await;
    let availability = app
        .offer(&setup.gym, &setup.court.court_id, DATE, "10:00", "11:00")
        .await;
    (setup, availability)
}

#[tokio::test]
async fn court_time_is_read_in_its_location_s_zone_with_its_instants() {
    let clock = ManualClock::at(at("2030-06-03T12:00:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let (setup, offered) = court_time(&app).await;
    let coach = app.coach();

    let reservation = app.request(&coach, &offered.availability_id).await;

    assert_eq!(setup.location.time_zone, "America/Chicago");
    assert_eq!(
        (
            offered.time_zone.as_str(),
            offered.starts_at.as_str(),
            offered.ends_at.as_str()
        ),
        ("America/Chicago", STARTS_AT, "2030-06-03T16:00:00Z")
    );
    assert_eq!(
        (
            reservation.time_zone.as_str(),
            reservation.starts_at.as_str(),
            reservation.ends_at.as_str()
        ),
        ("America/Chicago", STARTS_AT, "2030-06-03T16:00:00Z")
    );
    assert_eq!(
        (reservation.date.as_str(), reservation.start_time.as_str()),
        (DATE, "10:00")
    );
}

#[tokio::test]
async fn open_court_time_is_what_starts_after_now_and_a_request_after_its_start_is_refused() {
    let clock = ManualClock::at(at("2030-06-03T14:59:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let (setup, offered) = court_time(&app).await;
    let coach = app.coach();
    let location = &setup.location.location_id;

    let a_minute_before = app.open_availability(&coach, location).await.unwrap();
    clock.set(at(STARTS_AT));
    let at_the_start = app.open_availability(&coach, location).await.unwrap();
    let late = app
        .try_request(&coach, &offered.availability_id)
        .await
        .unwrap_err();

    assert_eq!(a_minute_before.len(), 1);
    assert_eq!(a_minute_before[0].availability_id, offered.availability_id);
    assert!(at_the_start.is_empty(), "{at_the_start:?}");
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert_eq!(
        late.message(),
        "this court time started at 2030-06-03T15:00:00Z (America/Chicago); it can no longer be \
         requested, approved or cancelled"
    );
}

#[tokio::test]
async fn a_request_nobody_answers_expires_at_its_start_and_leaves_the_gym_s_pending_list() {
    let clock = ManualClock::at(at("2030-06-03T13:00:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let (setup, offered) = court_time(&app).await;
    let coach = app.coach();
    let request = app.request(&coach, &offered.availability_id).await;
    let before = app.pending(&setup.gym).await;

    clock.set(at(STARTS_AT) - Duration::seconds(1));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let still_pending = app.status_of(&request.reservation_id).await;
    clock.set(at(STARTS_AT));
    let after = app.pending(&setup.gym).await;
    eventually("the request expires", || async {
        app.status_of(&request.reservation_id).await == "expired"
    })
    .await;
    let approve = app
        .approve(&setup.gym, &request.reservation_id)
        .await
        .unwrap_err();
    let seen_by_coach = app.coach_reservations(&coach).await;

    assert_eq!(before.len(), 1);
    assert_eq!(still_pending, "pending");
    assert!(after.is_empty(), "{after:?}");
    assert_eq!(approve.code(), Code::FailedPrecondition);
    assert_eq!(seen_by_coach[0].status, "expired");
    assert_eq!(
        app.events_of(&request.reservation_id).await,
        ["reservation_requested", "reservation_expired"]
    );
}

#[tokio::test]
async fn the_gym_cancels_an_approved_reservation_with_a_reason_and_the_time_is_open_again() {
    let clock = ManualClock::at(at("2030-06-03T12:00:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let (setup, offered) = court_time(&app).await;
    let (coach, next_coach) = (app.coach(), app.coach());
    let request = app.request(&coach, &offered.availability_id).await;
    app.approve(&setup.gym, &request.reservation_id).await.unwrap();
    let held = app.gym_availability(&setup.gym).await;

    let cancelled = app
        .gym_cancel(
            &setup.gym,
            &request.reservation_id,
            Some("  The floor is being refinished. "),
        )
        .await
        .unwrap();
    let freed = app.gym_availability(&setup.gym).await;
    let open = app
        .open_availability(&next_coach, &setup.location.location_id)
        .await
        .unwrap();
    let again = app.request(&next_coach, &offered.availability_id).await;
    app.approve(&setup.gym, &again.reservation_id).await.unwrap();

    assert_eq!(
        held[0].reservation_id.as_deref(),
        Some(request.reservation_id.as_str())
    );
    assert!(held[0].is_reserved);
    assert_eq!(cancelled.status, "cancelled");
    assert_eq!(
        cancelled.cancellation_reason.as_deref(),
        Some("The floor is being refinished.")
    );
    assert_eq!(
        (freed[0].is_reserved, freed[0].reservation_id.as_deref()),
        (false, None)
    );
    assert_eq!(open.len(), 1);
    assert_eq!(app.coach_reservations(&coach).await[0].status, "cancelled");
    assert_eq!(
        app.events_of(&request.reservation_id).await,
        [
            "reservation_requested",
            "reservation_approved",
            "reservation_cancelled"
        ]
    );
}

#[tokio::test]
async fn only_the_gym_cancels_only_an_approved_reservation_and_only_before_it_starts() {
    let clock = ManualClock::at(at("2030-06-03T12:00:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let (setup, offered) = court_time(&app).await;
    let later = app
        .offer(&setup.gym, &setup.court.court_id, DATE, "12:00", "13:00")
        .await;
    let coach = app.coach();
    let pending = app.request(&coach, &later.availability_id).await;
    let approved = app.request(&coach, &offered.availability_id).await;
    app.approve(&setup.gym, &approved.reservation_id).await.unwrap();

    let of_pending = app
        .gym_cancel(&setup.gym, &pending.reservation_id, None)
        .await
        .unwrap_err();
    let by_another_gym = app
        .gym_cancel(&app.gym(), &approved.reservation_id, None)
        .await
        .unwrap_err();
    let by_coach = app
        .gym_cancel(&coach, &approved.reservation_id, None)
        .await
        .unwrap_err();
    clock.set(at(STARTS_AT));
    let after_start = app
        .gym_cancel(&setup.gym, &approved.reservation_id, None)
        .await
        .unwrap_err();

    assert_eq!(of_pending.code(), Code::FailedPrecondition);
    assert_eq!(
        of_pending.message(),
        "this reservation is pending; only an approved reservation can be cancelled by the gym"
    );
    assert_eq!(by_another_gym.code(), Code::PermissionDenied);
    assert_eq!(by_coach.code(), Code::PermissionDenied);
    assert_eq!(after_start.code(), Code::FailedPrecondition);
    assert!(after_start.message().starts_with("this court time started at"));
    assert_eq!(app.status_of(&approved.reservation_id).await, "approved");
    assert!(app.is_reserved(&offered.availability_id).await);
}

#[tokio::test]
async fn approving_one_request_leaves_an_event_for_it_and_one_for_each_request_it_denies() {
    let clock = ManualClock::at(at("2030-06-03T12:00:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let (setup, offered) = court_time(&app).await;
    let first = app.request(&app.coach(), &offered.availability_id).await;
    let second = app.request(&app.coach(), &offered.availability_id).await;
    let third = app.request(&app.coach(), &offered.availability_id).await;
    // Another coach cannot cancel it for its own: it stays pending until the approval.
    let fourth = app.request(&app.coach(), &offered.availability_id).await;
    app.cancel(&app.coach(), &fourth.reservation_id)
        .await
        .unwrap_err();
    let denied = app.request(&app.coach(), &offered.availability_id).await;
    app.deny(&setup.gym, &denied.reservation_id).await.unwrap();

    app.approve(&setup.gym, &second.reservation_id).await.unwrap();

    assert_eq!(
        app.events_of(&second.reservation_id).await,
        ["reservation_requested", "reservation_approved"]
    );
    for other in [&first, &third, &fourth] {
        assert_eq!(
            app.events_of(&other.reservation_id).await,
            ["reservation_requested", "reservation_denied"]
        );
    }
    assert_eq!(
        app.events_of(&denied.reservation_id).await,
        ["reservation_requested", "reservation_denied"]
    );
    let reasons: Vec<Option<String>> = sqlx::query_scalar(
        "select payload->>'reason' from gym.outbox where payload->>'type' = 'reservation_denied'
         order by seq",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert_eq!(
        reasons,
        [
            None,
            Some("another request for this court time was approved".to_owned()),
            Some("another request for this court time was approved".to_owned()),
            Some("another request for this court time was approved".to_owned()),
        ]
    );
}

#[tokio::test]
async fn a_coach_s_cancel_leaves_an_event_and_the_relay_carries_every_event_to_the_stream() {
    let clock = ManualClock::at(at("2030-06-03T12:00:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let (_, offered) = court_time(&app).await;
    let coach = app.coach();
    let request = app.request(&coach, &offered.availability_id).await;

    app.cancel(&coach, &request.reservation_id).await.unwrap();

    assert_eq!(
        app.events_of(&request.reservation_id).await,
        ["reservation_requested", "reservation_cancelled"]
    );
    let mut redis = redis::Client::open(platform::testing::REDIS_URL)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let stream = platform::events::stream_key(&app.redis_namespace);
    eventually("both events reach the stream", || {
        let (stream, mut redis) = (stream.clone(), redis.clone());
        let id = request.reservation_id.clone();
        async move {
            let entries: redis::streams::StreamRangeReply = redis::cmd("XRANGE")
                .arg(&stream)
                .arg("-")
                .arg("+")
                .query_async(&mut redis)
                .await
                .unwrap();
            let kinds: Vec<String> = entries
                .ids
                .iter()
                .filter_map(|entry| entry.get::<String>(platform::events::FIELD))
                .filter_map(|json| serde_json::from_str::<serde_json::Value>(&json).ok())
                .filter(|event| event["reservation"]["reservation_id"] == id.as_str())
                .map(|event| event["type"].as_str().unwrap_or_default().to_owned())
                .collect();
            kinds == ["reservation_requested", "reservation_cancelled"]
        }
    })
    .await;
    let cancelled_by: String = sqlx::query_scalar(
        "select payload->>'by' from gym.outbox where payload->>'type' = 'reservation_cancelled'",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(cancelled_by, "coach");
    redis::cmd("DEL")
        .arg(&stream)
        .query_async::<()>(&mut redis)
        .await
        .unwrap();
}
