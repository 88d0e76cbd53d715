//! Issue 16's lifecycle through the gRPC API, on booking-svc's injected clock: a booking knows its
//! zone and instants; unanswered requests expire, confirmed sessions complete, each by itself;
//! cancels by either side (late or not, with reasons) and no-shows; every transition leaves its
//! event in booking's outbox.

use chrono::{Duration, NaiveDate};
use proto::booking::v1::BookingRecord;
use tonic::Code;

use crate::helpers::{TestApp, User, at, expect_code};

/// A Monday; 09:00–10:00 in Chicago (CDT) that day is 14:00–15:00 UTC.
const MONDAY: &str = "2030-06-03";
const STARTS_AT: &str = "2030-06-03T14:00:00Z";
const ENDS_AT: &str = "2030-06-03T15:00:00Z";
/// When the booking is made: two days and two hours before it starts, so with the default
/// 48-hour response window it expires at 12:00 UTC on the Monday.
const BOOKED_AT: &str = "2030-06-01T12:00:00Z";

fn monday() -> NaiveDate {
    MONDAY.parse().unwrap()
}

/// A coach with a Monday 09:00–10:00 slot at a location in Chicago, and a client's pending booking
/// of it made at [`BOOKED_AT`].
async fn booked(app: &TestApp) -> (User, User, String, BookingRecord) {
    app.clock.set(at(BOOKED_AT));
    let (coach, client) = (app.coach(), app.client());
    let location = app.location_in(&coach, "Lakeside Gym", "America/Chicago").await;
    let slot_id = app
        .slot(
            &coach,
            crate::helpers::weekly("Monday", "09:00", "10:00", Some(location)),
        )
        .await;
    let booking = app.book(&client, coach.id, &slot_id, monday()).await.unwrap();
    (coach, client, slot_id, booking)
}

#[tokio::test]
async fn a_booking_answers_its_place_s_zone_and_the_instants_of_its_wall_clock_times() {
    let app = TestApp::spawn().await;
    let (coach, client, slot_id, booking) = booked(&app).await;

    assert_eq!(booking.time_zone, "America/Chicago");
    assert_eq!(
        (booking.start_time.as_str(), booking.end_time.as_str()),
        ("09:00", "10:00")
    );
    assert_eq!(booking.starts_at, STARTS_AT);
    assert_eq!(booking.ends_at, ENDS_AT);
    assert_eq!(booking.created_at, BOOKED_AT);
    assert_eq!(booking.coach_id, coach.id.to_string());
    assert_eq!(booking.slot_id, slot_id);
    assert_eq!(booking.location_name, "Lakeside Gym");
    assert!(!booking.late_cancellation);
    assert_eq!(booking.cancelled_by, None);
    assert_eq!(booking.cancellation_reason, None);
    let listed = app.list(&client).await.unwrap();
    assert_eq!(listed, vec![booking.clone()], "the list answers the same fields");
    assert_eq!(app.list(&coach).await.unwrap(), vec![booking.clone()]);
    assert_eq!(app.events_of(&booking.booking_id).await, ["booking_requested"]);
    let event = app.event_of(&booking.booking_id, "booking_requested").await;
    assert_eq!(event["booking"]["starts_at"], STARTS_AT);
    assert_eq!(event["booking"]["time_zone"], "America/Chicago");
}

#[tokio::test]
async fn a_nine_o_clock_session_stays_nine_local_across_the_spring_change() {
    let app = TestApp::spawn().await;
    app.clock.set(at("2030-03-01T12:00:00Z"));
    let (coach, client) = (app.coach(), app.client());
    let location = app.location_in(&coach, "Lakeside Gym", "America/Chicago").await;
    let slot_id = app
        .slot(
            &coach,
            crate::helpers::weekly("Sunday", "09:00", "10:00", Some(location)),
        )
        .await;

    // Clocks go forward on Sunday 2030-03-10 at 02:00 in Chicago.
    let before = app
        .book(&client, coach.id, &slot_id, "2030-03-03".parse().unwrap())
        .await
        .unwrap();
    let after = app
        .book(&client, coach.id, &slot_id, "2030-03-10".parse().unwrap())
        .await
        .unwrap();

    assert_eq!(before.starts_at, "2030-03-03T15:00:00Z", "CST, UTC-6");
    assert_eq!(after.starts_at, "2030-03-10T14:00:00Z", "CDT, UTC-5");
}

#[tokio::test]
async fn an_unanswered_booking_expires_when_the_response_window_ends_and_frees_its_slot() {
    let app = TestApp::spawn().await;
    let (coach, _, slot_id, booking) = booked(&app).await;

    app.advance(Duration::hours(48) - Duration::seconds(1)).await;
    assert_eq!(app.status_of(&booking.booking_id).await, "pending");
    app.advance(Duration::seconds(1)).await;
    app.wait_for_status(&booking.booking_id, "expired").await;

    assert_eq!(
        app.events_of(&booking.booking_id).await,
        ["booking_requested", "booking_expired"]
    );
    let again = app.book(&app.client(), coach.id, &slot_id, monday()).await;
    assert_eq!(again.unwrap().status, "pending", "the slot is free again");
}

#[tokio::test]
async fn an_unanswered_booking_expires_at_its_start_when_that_comes_before_the_window_ends() {
    let app = TestApp::spawn().await;
    let (coach, _, slot_id, _) = booked(&app).await;
    let client = app.client();
    // Made an hour before the start: the 48-hour window would end long after it.
    app.clock.set(at(STARTS_AT) - Duration::hours(1));
    let late_request = app.book(&client, coach.id, &slot_id, monday()).await;
    // The first booking expired at 12:00; the slot was free for this one.
    let late_request = late_request.unwrap();

    app.advance(Duration::minutes(59)).await;
    assert_eq!(app.status_of(&late_request.booking_id).await, "pending");
    app.advance(Duration::minutes(1)).await;

    app.wait_for_status(&late_request.booking_id, "expired").await;
}

#[tokio::test]
async fn a_confirmed_booking_is_completed_at_its_end_and_not_before() {
    let app = TestApp::spawn().await;
    let (coach, _, _, booking) = booked(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();

    app.clock.set(at(ENDS_AT) - Duration::seconds(1));
    tokio::time::sleep(crate::helpers::TICK * 4).await;
    assert_eq!(app.status_of(&booking.booking_id).await, "confirmed");
    app.advance(Duration::seconds(1)).await;

    app.wait_for_status(&booking.booking_id, "completed").await;
    assert_eq!(
        app.events_of(&booking.booking_id).await,
        ["booking_requested", "booking_confirmed", "booking_completed"]
    );
}

#[tokio::test]
async fn a_pending_booking_cannot_be_approved_once_its_expiry_is_due_even_before_the_scheduler_comes() {
    let app = TestApp::spawn_with_idle_scheduler().await;
    let (coach, _, _, booking) = booked(&app).await;
    app.clock.set(at("2030-06-03T12:00:00Z"));

    let approve = app.approve(&coach, &booking.booking_id).await;

    assert_eq!(
        expect_code(approve, Code::FailedPrecondition),
        "only a pending booking can be approved (this one is expired)"
    );
    assert_eq!(app.status_of(&booking.booking_id).await, "expired");
    assert_eq!(
        app.events_of(&booking.booking_id).await,
        ["booking_requested", "booking_expired"]
    );
}

#[tokio::test]
async fn a_slot_held_by_a_booking_due_to_expire_is_free_at_once_for_another_client() {
    let app = TestApp::spawn_with_idle_scheduler().await;
    let (coach, _, slot_id, first) = booked(&app).await;
    app.clock.set(at("2030-06-03T12:00:00Z"));

    let second = app.book(&app.client(), coach.id, &slot_id, monday()).await;

    assert_eq!(second.unwrap().status, "pending");
    assert_eq!(app.status_of(&first.booking_id).await, "expired");
    // Before its expiry the slot was taken.
    let app = TestApp::spawn_with_idle_scheduler().await;
    let (coach, _, slot_id, _) = booked(&app).await;
    app.clock.set(at("2030-06-03T11:59:59Z"));
    let taken = app.book(&app.client(), coach.id, &slot_id, monday()).await;
    expect_code(taken, Code::AlreadyExists);
}

#[tokio::test]
async fn a_client_cancel_of_a_confirmed_booking_inside_the_cancellation_window_is_late() {
    let app = TestApp::spawn().await;
    let (coach, client, _, booking) = booked(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();
    // The default window is 24 hours; this is 23 hours before the start.
    app.clock.set(at(STARTS_AT) - Duration::hours(23));

    let cancelled = app
        .cancel_because(&client, &booking.booking_id, Some("  Sprained ankle  "))
        .await
        .unwrap();

    assert_eq!(cancelled.status, "cancelled");
    assert!(cancelled.late_cancellation);
    assert_eq!(cancelled.cancelled_by.as_deref(), Some("client"));
    assert_eq!(cancelled.cancellation_reason.as_deref(), Some("Sprained ankle"));
    assert_eq!(
        app.list(&coach).await.unwrap()[0],
        cancelled,
        "the coach sees it too"
    );
    let event = app.event_of(&booking.booking_id, "booking_cancelled").await;
    assert_eq!(event["by"], "client");
    assert_eq!(event["late"], true);
    assert_eq!(event["reason"], "Sprained ankle");
}

#[tokio::test]
async fn a_client_cancel_before_the_window_or_of_a_pending_booking_is_not_late() {
    let app = TestApp::spawn().await;
    let (coach, client, _, booking) = booked(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();
    app.clock.set(at(STARTS_AT) - Duration::hours(24));

    let free = app.cancel(&client, &booking.booking_id).await.unwrap();

    assert!(!free.late_cancellation, "exactly 24 hours before is still free");
    assert_eq!(free.cancelled_by.as_deref(), Some("client"));
    assert_eq!(free.cancellation_reason, None);
    let app = TestApp::spawn().await;
    let (_, client, _, pending) = booked(&app).await;
    app.clock.set(at("2030-06-03T11:00:00Z"));
    let cancelled = app.cancel(&client, &pending.booking_id).await.unwrap();
    assert!(!cancelled.late_cancellation);
}

#[tokio::test]
async fn neither_side_can_cancel_once_the_session_has_started() {
    let app = TestApp::spawn().await;
    let (coach, client, _, booking) = booked(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();
    app.clock.set(at(STARTS_AT));

    let by_client = app.cancel(&client, &booking.booking_id).await;
    let by_coach = app.coach_cancel(&coach, &booking.booking_id, None).await;

    let detail = expect_code(by_client, Code::FailedPrecondition);
    assert!(detail.contains("can no longer be cancelled"), "{detail}");
    expect_code(by_coach, Code::FailedPrecondition);
    assert_eq!(app.status_of(&booking.booking_id).await, "confirmed");
}

#[tokio::test]
async fn the_coach_cancels_a_confirmed_booking_before_it_starts_with_a_reason() {
    let app = TestApp::spawn().await;
    let (coach, client, _, booking) = booked(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();
    app.clock.set(at(STARTS_AT) - Duration::minutes(30));

    let cancelled = app
        .coach_cancel(&coach, &booking.booking_id, Some("The gym lost power"))
        .await
        .unwrap();

    assert_eq!(cancelled.status, "cancelled");
    assert_eq!(cancelled.cancelled_by.as_deref(), Some("coach"));
    assert_eq!(
        cancelled.cancellation_reason.as_deref(),
        Some("The gym lost power")
    );
    assert!(!cancelled.late_cancellation, "only a client's cancel is late");
    assert_eq!(app.list(&client).await.unwrap()[0], cancelled);
    let event = app.event_of(&booking.booking_id, "booking_cancelled").await;
    assert_eq!(event["by"], "coach");
    assert_eq!(event["reason"], "The gym lost power");
    assert_eq!(event["late"], false);
}

#[tokio::test]
async fn the_coach_cannot_cancel_a_pending_booking_nor_one_of_another_coach() {
    let app = TestApp::spawn().await;
    let (coach, client, _, booking) = booked(&app).await;

    let pending = app.coach_cancel(&coach, &booking.booking_id, None).await;
    let other = app.coach_cancel(&app.coach(), &booking.booking_id, None).await;
    let as_client = app.coach_cancel(&client, &booking.booking_id, None).await;

    assert_eq!(
        expect_code(pending, Code::FailedPrecondition),
        "only a confirmed booking can be cancelled by its coach (this one is pending)"
    );
    expect_code(other, Code::PermissionDenied);
    expect_code(as_client, Code::PermissionDenied);
    assert_eq!(app.status_of(&booking.booking_id).await, "pending");
}

#[tokio::test]
async fn a_reason_longer_than_500_characters_is_refused() {
    let app = TestApp::spawn().await;
    let (_, client, _, booking) = booked(&app).await;

    let refused = app
        .cancel_because(&client, &booking.booking_id, Some(&"x".repeat(501)))
        .await;

    let detail = expect_code(refused, Code::InvalidArgument);
    assert!(detail.contains("at most 500 characters"), "{detail}");
    assert_eq!(app.status_of(&booking.booking_id).await, "pending");
}

#[tokio::test]
async fn the_coach_marks_a_completed_session_no_show_within_seven_days_of_its_end() {
    let app = TestApp::spawn().await;
    let (coach, client, _, booking) = booked(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();

    app.clock.set(at(ENDS_AT) - Duration::minutes(1));
    let too_soon = app.no_show(&coach, &booking.booking_id).await;
    let detail = expect_code(too_soon, Code::FailedPrecondition);
    assert!(detail.contains("only once it has ended"), "{detail}");

    app.advance(Duration::days(7)).await;
    app.wait_for_status(&booking.booking_id, "completed").await;
    expect_code(
        app.no_show(&client, &booking.booking_id).await,
        Code::PermissionDenied,
    );
    expect_code(
        app.no_show(&app.coach(), &booking.booking_id).await,
        Code::PermissionDenied,
    );
    let marked = app.no_show(&coach, &booking.booking_id).await.unwrap();

    assert_eq!(marked.status, "no_show");
    assert_eq!(
        app.events_of(&booking.booking_id).await,
        [
            "booking_requested",
            "booking_confirmed",
            "booking_completed",
            "booking_no_show"
        ]
    );
    let again = app.no_show(&coach, &booking.booking_id).await;
    assert_eq!(
        expect_code(again, Code::FailedPrecondition),
        "only a completed booking can be marked no-show (this one is no-show)"
    );
}

#[tokio::test]
async fn a_no_show_more_than_seven_days_after_the_end_or_of_a_cancelled_booking_is_refused() {
    let app = TestApp::spawn().await;
    let (coach, _, _, booking) = booked(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();
    app.clock
        .set(at(ENDS_AT) + Duration::days(7) + Duration::seconds(1));
    app.wait_for_status(&booking.booking_id, "completed").await;

    let late = app.no_show(&coach, &booking.booking_id).await;

    let detail = expect_code(late, Code::FailedPrecondition);
    assert!(detail.contains("within 7 days"), "{detail}");
    assert_eq!(app.status_of(&booking.booking_id).await, "completed");

    let app = TestApp::spawn().await;
    let (coach, client, _, booking) = booked(&app).await;
    app.cancel(&client, &booking.booking_id).await.unwrap();
    app.clock.set(at(ENDS_AT) + Duration::hours(1));
    let cancelled = app.no_show(&coach, &booking.booking_id).await;
    assert_eq!(
        expect_code(cancelled, Code::FailedPrecondition),
        "only a completed booking can be marked no-show (this one is cancelled)"
    );
}

#[tokio::test]
async fn a_denied_booking_is_left_alone_by_the_clock() {
    let app = TestApp::spawn().await;
    let (coach, _, _, booking) = booked(&app).await;
    app.deny(&coach, &booking.booking_id).await.unwrap();

    app.advance(Duration::days(30)).await;

    assert_eq!(app.status_of(&booking.booking_id).await, "denied");
    assert_eq!(
        app.events_of(&booking.booking_id).await,
        ["booking_requested", "booking_denied"]
    );
}
