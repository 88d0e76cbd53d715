//! "Not in the past" is exact, on the session's instant in its place's zone, and the coach's
//! booking policy (read with the slot from coaching-svc) limits how soon and how far ahead a
//! session may be booked: each refusal is FailedPrecondition (the gateway's 409) naming the limit.

use chrono::Duration;
use tonic::Code;

use crate::helpers::{TestApp, at, expect_code, weekly};

/// 09:00–10:00 UTC on this Monday (a slot at no location of a coach without a profile is UTC).
const MONDAY: &str = "2030-06-03";
const STARTS_AT: &str = "2030-06-03T09:00:00Z";

#[tokio::test]
async fn a_session_is_bookable_until_the_instant_it_starts_and_not_after() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let date = MONDAY.parse().unwrap();

    app.clock.set(at(STARTS_AT));
    let started = app.book(&client, coach.id, &slot_id, date).await;
    app.clock.set(at(STARTS_AT) - Duration::seconds(1));
    let just_in_time = app.book(&client, coach.id, &slot_id, date).await;

    let detail = expect_code(started, Code::FailedPrecondition);
    assert!(detail.contains("has already started or is over"), "{detail}");
    assert!(detail.contains("2030-06-03 09:00–10:00 UTC"), "{detail}");
    assert_eq!(just_in_time.unwrap().status, "pending");
}

#[tokio::test]
async fn a_morning_session_in_honolulu_is_still_ahead_when_that_date_is_over_in_utc() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let location = app
        .location_in(&coach, "Waikiki Courts", "Pacific/Honolulu")
        .await;
    let slot_id = app
        .slot(&coach, weekly("Monday", "09:00", "10:00", Some(location)))
        .await;
    // 09:00 in Honolulu (UTC-10) is 19:00 UTC; at 18:00 UTC the session is an hour ahead, while
    // 09:00 UTC that day has long passed.
    app.clock.set(at("2030-06-03T18:00:00Z"));

    let booking = app
        .book(&client, coach.id, &slot_id, MONDAY.parse().unwrap())
        .await
        .unwrap();

    assert_eq!(booking.starts_at, "2030-06-03T19:00:00Z");
    assert_eq!(booking.time_zone, "Pacific/Honolulu");
}

#[tokio::test]
async fn a_session_sooner_than_the_coach_s_minimum_notice_is_refused_naming_it() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    app.set_policy(&coach, 120, 365, 2880, 1440).await;
    let date = MONDAY.parse().unwrap();

    app.clock.set(at(STARTS_AT) - Duration::minutes(119));
    let too_soon = app.book(&client, coach.id, &slot_id, date).await;
    app.clock.set(at(STARTS_AT) - Duration::minutes(120));
    let in_time = app.book(&client, coach.id, &slot_id, date).await;

    let detail = expect_code(too_soon, Code::FailedPrecondition);
    assert!(detail.contains("at least 2 hours ahead"), "{detail}");
    assert_eq!(in_time.unwrap().status, "pending");
}

#[tokio::test]
async fn a_session_further_ahead_than_the_coach_s_maximum_is_refused_naming_it() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    app.set_policy(&coach, 0, 30, 2880, 1440).await;
    let date = MONDAY.parse().unwrap();

    app.clock
        .set(at(STARTS_AT) - Duration::days(30) - Duration::seconds(1));
    let too_far = app.book(&client, coach.id, &slot_id, date).await;
    app.clock.set(at(STARTS_AT) - Duration::days(30));
    let in_reach = app.book(&client, coach.id, &slot_id, date).await;

    let detail = expect_code(too_far, Code::FailedPrecondition);
    assert!(detail.contains("at most 30 days ahead"), "{detail}");
    assert_eq!(in_reach.unwrap().status, "pending");
}

#[tokio::test]
async fn a_coach_who_never_set_a_policy_takes_bookings_a_year_ahead() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    app.clock.set(at(STARTS_AT) - Duration::days(366));

    let refused = app
        .book(&client, coach.id, &slot_id, MONDAY.parse().unwrap())
        .await;

    let detail = expect_code(refused, Code::FailedPrecondition);
    assert!(detail.contains("at most 365 days ahead"), "{detail}");
}

#[tokio::test]
async fn a_policy_change_applies_to_the_next_booking_at_once() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    app.clock.set(at(STARTS_AT) - Duration::hours(3));
    let first = app
        .book(&client, coach.id, &slot_id, MONDAY.parse().unwrap())
        .await
        .unwrap();
    app.cancel(&client, &first.booking_id).await.unwrap();

    app.set_policy(&coach, 24 * 60, 365, 2880, 1440).await;
    let refused = app
        .book(&client, coach.id, &slot_id, MONDAY.parse().unwrap())
        .await;

    let detail = expect_code(refused, Code::FailedPrecondition);
    assert!(detail.contains("at least 1 day ahead"), "{detail}");
}

#[tokio::test]
async fn the_response_and_cancellation_windows_are_the_coach_s_at_booking_time() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    app.set_policy(&coach, 0, 365, 60, 120).await;
    app.clock.set(at(STARTS_AT) - Duration::days(1));
    let booking = app
        .book(&client, coach.id, &slot_id, MONDAY.parse().unwrap())
        .await
        .unwrap();
    app.approve(&coach, &booking.booking_id).await.unwrap();
    // A later change does not move what the booking was made under.
    app.set_policy(&coach, 0, 365, 60, 0).await;

    app.clock.set(at(STARTS_AT) - Duration::minutes(90));
    let cancelled = app.cancel(&client, &booking.booking_id).await.unwrap();

    assert!(
        cancelled.late_cancellation,
        "inside the 2 hours it was booked under"
    );
}
