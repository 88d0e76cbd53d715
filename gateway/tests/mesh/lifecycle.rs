//! Issue 16's lifecycle over HTTP, through the gateway: an unanswered request expires (a
//! one-minute response window), a confirmed session completes and can be marked no-show, a client
//! cancel inside the cancellation window is late, the coach cancels with a reason. booking-svc's
//! clock is injected below the API, so time moves without sleeping; one test waits the real minute.

use std::time::Duration;

use chrono::{DateTime, Utc};
use platform::clock::ManualClock;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, coach_with_slot, next, user},
    helpers::Mesh,
};

/// A Wednesday; the fixture's 17:00–18:00 slot in Austin (CDT, UTC-5) is 22:00–23:00 UTC then.
const WEDNESDAY: &str = "2030-06-05";
const STARTS_AT: &str = "2030-06-05T22:00:00Z";
const ENDS_AT: &str = "2030-06-05T23:00:00Z";

fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

async fn set_policy(
    mesh: &Mesh,
    coach: &User,
    response_window_minutes: u32,
    cancellation_window_minutes: u32,
) {
    let (status, body) = mesh
        .call(
            Method::PUT,
            "/coach/policy",
            Some(&coach.token),
            Some(json!({"min_notice_minutes": 0, "max_advance_days": 365,
                        "response_window_minutes": response_window_minutes,
                        "cancellation_window_minutes": cancellation_window_minutes})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

async fn book(mesh: &Mesh, client: &User, coach: &User, slot_id: &str, date: &str) -> (StatusCode, Value) {
    mesh.post(
        "/bookings",
        Some(&client.token),
        json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date}),
    )
    .await
}

async fn patch(mesh: &Mesh, path: &str, who: &User, body: Option<Value>) -> (StatusCode, Value) {
    mesh.call(Method::PATCH, path, Some(&who.token), body).await
}

/// The booking as `who` lists it.
async fn listed(mesh: &Mesh, who: &User, booking_id: &str) -> Value {
    let (status, list) = mesh.get("/bookings", Some(&who.token)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array()
        .expect("a list")
        .iter()
        .find(|b| b["booking_id"] == booking_id)
        .cloned()
        .unwrap_or_else(|| panic!("booking {booking_id} in {list}"))
}

/// Waits (up to `within`) until `who` sees the booking in `status`.
async fn until_status(mesh: &Mesh, who: &User, booking_id: &str, status: &str, within: Duration) -> Value {
    let started = std::time::Instant::now();
    loop {
        let booking = listed(mesh, who, booking_id).await;
        if booking["status"] == status {
            return booking;
        }
        assert!(
            started.elapsed() < within,
            "booking {booking_id} still {} after {within:?}",
            booking["status"]
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A mesh on a clock at `now`, a coach with the Wednesday slot in Austin, and a client's pending
/// booking of [`WEDNESDAY`].
async fn booked(now: &str) -> (Mesh, ManualClock, User, User, String, String) {
    let clock = ManualClock::at(at(now));
    let mesh = Mesh::start_with_booking_clock(clock.clone()).await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (status, booking) = book(&mesh, &client, &coach, &slot_id, WEDNESDAY).await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    let booking_id = booking["booking_id"].as_str().unwrap().to_owned();
    (mesh, clock, coach, client, slot_id, booking_id)
}

#[tokio::test]
async fn a_booking_shows_its_place_s_zone_and_instants_to_both_sides() {
    let (mesh, _clock, coach, client, slot_id, booking_id) = booked("2030-06-01T12:00:00Z").await;

    let seen_by_client = listed(&mesh, &client, &booking_id).await;
    let seen_by_coach = listed(&mesh, &coach, &booking_id).await;

    assert_eq!(seen_by_client, seen_by_coach);
    assert_eq!(seen_by_client["time_zone"], "America/Chicago");
    assert_eq!(
        (
            &seen_by_client["start_time"],
            &seen_by_client["starts_at"],
            &seen_by_client["ends_at"]
        ),
        (&json!("17:00"), &json!(STARTS_AT), &json!(ENDS_AT))
    );
    assert_eq!(seen_by_client["created_at"], "2030-06-01T12:00:00Z");
    assert_eq!(seen_by_client["slot_id"], slot_id.as_str());
    assert_eq!(seen_by_client["coach_id"], coach.id.as_str());
    assert_eq!(seen_by_client["late_cancellation"], false);
    // The default 24-hour cancellation window, before the start.
    assert_eq!(seen_by_client["free_cancellation_until"], "2030-06-04T22:00:00Z");
    assert_eq!(seen_by_client["cancelled_by"], Value::Null);
    assert_eq!(seen_by_client["cancellation_reason"], Value::Null);
}

#[tokio::test]
async fn a_booking_keeps_the_cancellation_window_it_was_made_under_when_the_coach_changes_it() {
    let (mesh, clock, coach, client, _, booking_id) = booked("2030-06-01T12:00:00Z").await;
    let (status, body) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // The coach shortens the window to two hours after the booking was made.
    set_policy(&mesh, &coach, 2880, 120).await;
    let seen = listed(&mesh, &client, &booking_id).await;
    assert_eq!(seen["free_cancellation_until"], "2030-06-04T22:00:00Z");
    clock.set(at(STARTS_AT) - chrono::Duration::hours(3));
    let (status, cancelled) = patch(&mesh, &format!("/bookings/{booking_id}/cancel"), &client, None).await;

    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(
        cancelled["late_cancellation"], true,
        "late by the window it was booked under"
    );
}

#[tokio::test]
async fn a_request_the_coach_does_not_answer_within_a_minute_expires_and_frees_the_slot() {
    let clock = ManualClock::at(at("2030-06-01T12:00:00Z"));
    let mesh = Mesh::start_with_booking_clock(clock.clone()).await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    set_policy(&mesh, &coach, 1, 1440).await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (status, booking) = book(&mesh, &client, &coach, &slot_id, WEDNESDAY).await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    let booking_id = booking["booking_id"].as_str().unwrap();

    clock.advance(chrono::Duration::seconds(59));
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(listed(&mesh, &client, booking_id).await["status"], "pending");
    clock.advance(chrono::Duration::seconds(1));

    until_status(&mesh, &coach, booking_id, "expired", Duration::from_secs(5)).await;
    let (status, body) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let other = user(&mesh, "client", "Olga Other").await;
    let (status, body) = book(&mesh, &other, &coach, &slot_id, WEDNESDAY).await;
    assert_eq!(status, StatusCode::CREATED, "the slot is free again: {body}");
}

#[tokio::test]
async fn a_confirmed_session_completes_at_its_end_and_the_coach_marks_it_no_show() {
    let (mesh, clock, coach, client, _, booking_id) = booked("2030-06-04T12:00:00Z").await;
    let (status, body) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    clock.set(at(ENDS_AT) - chrono::Duration::minutes(10));
    let (status, body) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/no-show"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "not over yet: {body}");
    assert!(
        body["detail"].as_str().unwrap().contains("once it has ended"),
        "{body}"
    );
    clock.set(at(ENDS_AT));

    until_status(&mesh, &client, &booking_id, "completed", Duration::from_secs(5)).await;
    let (status, body) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/no-show"),
        &client,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, marked) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/no-show"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{marked}");
    assert_eq!(marked["status"], "no_show");
    assert_eq!(marked["client_name"], "Chris Client");
    assert_eq!(listed(&mesh, &client, &booking_id).await["status"], "no_show");
    let (status, _) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/no-show"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_client_cancel_inside_the_cancellation_window_is_late_and_both_sides_see_it() {
    let (mesh, clock, coach, client, _, booking_id) = booked("2030-06-04T12:00:00Z").await;
    let (status, body) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The default window is 24 hours; this is 3 hours before the start.
    clock.set(at(STARTS_AT) - chrono::Duration::hours(3));

    let (status, cancelled) = patch(
        &mesh,
        &format!("/bookings/{booking_id}/cancel"),
        &client,
        Some(json!({"reason": "Flight delayed"})),
    )
    .await;

    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled");
    assert_eq!(cancelled["late_cancellation"], true);
    assert_eq!(cancelled["cancelled_by"], "client");
    assert_eq!(cancelled["cancellation_reason"], "Flight delayed");
    assert_eq!(listed(&mesh, &coach, &booking_id).await, cancelled);
}

#[tokio::test]
async fn a_client_cancel_without_a_body_still_works_and_is_free_before_the_window() {
    let (mesh, _clock, coach, client, _, booking_id) = booked("2030-06-01T12:00:00Z").await;
    let (status, _) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    let (status, cancelled) = patch(&mesh, &format!("/bookings/{booking_id}/cancel"), &client, None).await;

    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["late_cancellation"], false);
    assert_eq!(cancelled["cancelled_by"], "client");
    assert_eq!(cancelled["cancellation_reason"], Value::Null);
}

#[tokio::test]
async fn the_coach_cancels_a_confirmed_session_with_a_reason_but_not_once_it_started() {
    let (mesh, clock, coach, client, slot_id, booking_id) = booked("2030-06-01T12:00:00Z").await;
    patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;

    let (status, cancelled) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/cancel"),
        &coach,
        Some(json!({"reason": "Court closed for repairs"})),
    )
    .await;

    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["cancelled_by"], "coach");
    assert_eq!(cancelled["cancellation_reason"], "Court closed for repairs");
    assert_eq!(listed(&mesh, &client, &booking_id).await, cancelled);

    let (status, again) = book(&mesh, &client, &coach, &slot_id, WEDNESDAY).await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    let again = again["booking_id"].as_str().unwrap();
    patch(&mesh, &format!("/coach/bookings/{again}/approve"), &coach, None).await;
    clock.set(at(STARTS_AT));
    let (status, body) = patch(&mesh, &format!("/coach/bookings/{again}/cancel"), &coach, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("can no longer be cancelled"),
        "{body}"
    );
}

#[tokio::test]
async fn a_session_that_has_started_or_is_outside_the_policy_is_refused_with_409() {
    let (mesh, clock, coach, client, slot_id, _) = booked("2030-06-01T12:00:00Z").await;
    let next_week = "2030-06-12";

    clock.set(at("2030-06-12T22:00:00Z"));
    let (status, body) = book(&mesh, &client, &coach, &slot_id, next_week).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["detail"].as_str().unwrap().contains("already started"),
        "{body}"
    );

    let (status, body) = mesh
        .call(
            Method::PUT,
            "/coach/policy",
            Some(&coach.token),
            Some(json!({"min_notice_minutes": 1440, "max_advance_days": 365,
                        "response_window_minutes": 2880, "cancellation_window_minutes": 1440})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    clock.set(at("2030-06-12T10:00:00Z"));
    let (status, body) = book(&mesh, &client, &coach, &slot_id, next_week).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["detail"].as_str().unwrap().contains("at least 1 day ahead"),
        "{body}"
    );
}

/// On the real clock: the scheduler of a running booking-svc expires a request a minute after it
/// was made, with nothing moved by the test.
#[tokio::test]
async fn on_the_real_clock_an_unanswered_request_expires_after_a_one_minute_window() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    set_policy(&mesh, &coach, 1, 1440).await;
    let client = user(&mesh, "client", "Chris Client").await;
    let date = next(chrono::Weekday::Wed).to_string();
    let (status, booking) = book(&mesh, &client, &coach, &slot_id, &date).await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    let booking_id = booking["booking_id"].as_str().unwrap();
    let made = at(booking["created_at"].as_str().unwrap());

    let expired = until_status(&mesh, &client, booking_id, "expired", Duration::from_secs(90)).await;

    let seen = Utc::now();
    assert!(
        seen >= made + chrono::Duration::minutes(1),
        "not before the minute was up"
    );
    assert!(
        seen <= made + chrono::Duration::minutes(1) + chrono::Duration::seconds(60),
        "within 60 seconds of its due time"
    );
    assert_eq!(expired["late_cancellation"], false);
}

/// On the real clock: a confirmed session a couple of minutes from now completes by itself within
/// 60 seconds of its end, with nothing moved by the test.
#[tokio::test]
async fn on_the_real_clock_a_confirmed_session_completes_within_a_minute_of_its_end() {
    use chrono::{DurationRound, TimeDelta};

    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    // No zone given: the profile's zone is UTC, and so is a slot's without a location. Free, so
    // no card is needed.
    let (status, body) = mesh
        .post(
            "/coach/profile",
            Some(&coach.token),
            json!({"bio": "Short sessions.", "specialties": ["Shooting"],
                   "hourly_rate": 0.0, "years_experience": 8}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    // The next whole minute at least a minute away, moved past 23:59 so that the one-minute
    // session ends on the date it starts.
    let mut starts = (Utc::now() + TimeDelta::minutes(2))
        .duration_trunc(TimeDelta::minutes(1))
        .unwrap();
    if starts.format("%H:%M").to_string() == "23:59" {
        starts += TimeDelta::minutes(1);
    }
    let ends = starts + TimeDelta::minutes(1);
    let (status, slot) = mesh
        .post(
            "/availability",
            Some(&coach.token),
            json!({"slot_type": "one-time", "specific_date": starts.date_naive().to_string(),
                   "start_time": starts.format("%H:%M").to_string(),
                   "end_time": ends.format("%H:%M").to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{slot}");
    let client = user(&mesh, "client", "Chris Client").await;
    let slot_id = slot["slot_id"].as_str().unwrap();
    let (status, booking) = book(&mesh, &client, &coach, slot_id, &starts.date_naive().to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    assert_eq!(at(booking["ends_at"].as_str().unwrap()), ends);
    let booking_id = booking["booking_id"].as_str().unwrap();
    let (status, body) = patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let wait = (ends - Utc::now()).to_std().unwrap_or_default() + Duration::from_secs(75);
    let completed = until_status(&mesh, &coach, booking_id, "completed", wait).await;

    let seen = Utc::now();
    assert!(seen >= ends, "not before the session ended");
    assert!(
        seen <= ends + TimeDelta::seconds(60),
        "within 60 seconds of its end"
    );
    assert_eq!(listed(&mesh, &client, booking_id).await["status"], "completed");
    assert_eq!(completed["cancelled_by"], Value::Null);
}
