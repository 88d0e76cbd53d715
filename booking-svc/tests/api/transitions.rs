//! ApproveBooking, DenyBooking and CancelBooking: who may move a booking, from which status, and
//! that a refused attempt leaves the booking as it was.

use chrono::Weekday;
use proto::booking::v1::BookingRecord;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, User, expect_code, next};

/// A coach, a client, and the client's pending booking of the coach's Monday slot.
async fn pending_booking(app: &TestApp) -> (User, User, BookingRecord) {
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let booking = app
        .book(&client, coach.id, &slot_id, next(Weekday::Mon))
        .await
        .unwrap();
    (coach, client, booking)
}

#[tokio::test]
async fn the_coach_approves_a_pending_booking() {
    let app = TestApp::spawn().await;
    let (coach, client, booking) = pending_booking(&app).await;

    let approved = app.approve(&coach, &booking.booking_id).await.unwrap();

    assert_eq!(approved.status, "confirmed");
    assert_eq!(app.list(&client).await.unwrap()[0].status, "confirmed");
}

#[tokio::test]
async fn the_coach_denies_a_pending_booking() {
    let app = TestApp::spawn().await;
    let (coach, _, booking) = pending_booking(&app).await;

    let denied = app.deny(&coach, &booking.booking_id).await.unwrap();

    assert_eq!(denied.status, "denied");
}

#[tokio::test]
async fn a_confirmed_booking_cannot_be_approved_or_denied_again() {
    let app = TestApp::spawn().await;
    let (coach, _, booking) = pending_booking(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();

    let again = app.approve(&coach, &booking.booking_id).await;
    let deny = app.deny(&coach, &booking.booking_id).await;

    assert_eq!(
        expect_code(again, Code::FailedPrecondition),
        "only a pending booking can be approved (this one is confirmed)"
    );
    assert_eq!(
        expect_code(deny, Code::FailedPrecondition),
        "only a pending booking can be denied (this one is confirmed)"
    );
    assert_eq!(app.status_of(&booking.booking_id).await, "confirmed");
}

#[tokio::test]
async fn a_denied_booking_cannot_be_approved() {
    let app = TestApp::spawn().await;
    let (coach, _, booking) = pending_booking(&app).await;
    app.deny(&coach, &booking.booking_id).await.unwrap();

    let approve = app.approve(&coach, &booking.booking_id).await;

    expect_code(approve, Code::FailedPrecondition);
    assert_eq!(app.status_of(&booking.booking_id).await, "denied");
}

#[tokio::test]
async fn a_cancelled_booking_cannot_be_approved() {
    let app = TestApp::spawn().await;
    let (coach, client, booking) = pending_booking(&app).await;
    app.cancel(&client, &booking.booking_id).await.unwrap();

    let approve = app.approve(&coach, &booking.booking_id).await;

    assert_eq!(
        expect_code(approve, Code::FailedPrecondition),
        "only a pending booking can be approved (this one is cancelled)"
    );
}

#[tokio::test]
async fn another_coach_cannot_approve_or_deny_and_the_booking_is_unchanged() {
    let app = TestApp::spawn().await;
    let (_, _, booking) = pending_booking(&app).await;
    let intruder = app.coach();

    let approve = app.approve(&intruder, &booking.booking_id).await;
    let deny = app.deny(&intruder, &booking.booking_id).await;

    expect_code(approve, Code::PermissionDenied);
    expect_code(deny, Code::PermissionDenied);
    assert_eq!(app.status_of(&booking.booking_id).await, "pending");
}

#[tokio::test]
async fn a_client_cannot_approve_their_own_booking() {
    let app = TestApp::spawn().await;
    let (_, client, booking) = pending_booking(&app).await;

    let approve = app.approve(&client, &booking.booking_id).await;

    expect_code(approve, Code::PermissionDenied);
    assert_eq!(app.status_of(&booking.booking_id).await, "pending");
}

#[tokio::test]
async fn approving_an_unknown_booking_is_not_found() {
    let app = TestApp::spawn().await;

    let approve = app.approve(&app.coach(), &Uuid::new_v4().to_string()).await;
    let malformed = app.deny(&app.coach(), "42").await;

    assert_eq!(
        expect_code(approve, Code::NotFound),
        "this booking does not exist"
    );
    assert_eq!(
        expect_code(malformed, Code::InvalidArgument),
        "booking_id must be a UUID"
    );
}

#[tokio::test]
async fn approve_and_deny_at_the_same_time_leave_exactly_one_outcome() {
    let app = TestApp::spawn().await;
    let (coach, _, booking) = pending_booking(&app).await;

    let (approve, deny) = tokio::join!(
        app.approve(&coach, &booking.booking_id),
        app.deny(&coach, &booking.booking_id)
    );

    let outcome = app.status_of(&booking.booking_id).await;
    match outcome.as_str() {
        "confirmed" => {
            assert!(approve.is_ok());
            expect_code(deny, Code::FailedPrecondition);
        }
        "denied" => {
            assert!(deny.is_ok());
            expect_code(approve, Code::FailedPrecondition);
        }
        other => panic!("unexpected status {other}"),
    }
}

#[tokio::test]
async fn the_client_cancels_a_pending_booking() {
    let app = TestApp::spawn().await;
    let (_, client, booking) = pending_booking(&app).await;

    let cancelled = app.cancel(&client, &booking.booking_id).await.unwrap();

    assert_eq!(cancelled.status, "cancelled");
}

#[tokio::test]
async fn the_client_cancels_a_confirmed_booking() {
    let app = TestApp::spawn().await;
    let (coach, client, booking) = pending_booking(&app).await;
    app.approve(&coach, &booking.booking_id).await.unwrap();

    let cancelled = app.cancel(&client, &booking.booking_id).await.unwrap();

    assert_eq!(cancelled.status, "cancelled");
}

#[tokio::test]
async fn a_cancelled_booking_cannot_be_cancelled_again() {
    let app = TestApp::spawn().await;
    let (_, client, booking) = pending_booking(&app).await;
    app.cancel(&client, &booking.booking_id).await.unwrap();

    let again = app.cancel(&client, &booking.booking_id).await;

    assert_eq!(
        expect_code(again, Code::FailedPrecondition),
        "only a pending or confirmed booking can be cancelled (this one is cancelled)"
    );
}

#[tokio::test]
async fn a_denied_booking_cannot_be_cancelled() {
    let app = TestApp::spawn().await;
    let (coach, client, booking) = pending_booking(&app).await;
    app.deny(&coach, &booking.booking_id).await.unwrap();

    let cancel = app.cancel(&client, &booking.booking_id).await;

    expect_code(cancel, Code::FailedPrecondition);
    assert_eq!(app.status_of(&booking.booking_id).await, "denied");
}

#[tokio::test]
async fn another_client_cannot_cancel_and_the_booking_is_unchanged() {
    let app = TestApp::spawn().await;
    let (_, _, booking) = pending_booking(&app).await;

    let cancel = app.cancel(&app.client(), &booking.booking_id).await;

    expect_code(cancel, Code::PermissionDenied);
    assert_eq!(app.status_of(&booking.booking_id).await, "pending");
}

#[tokio::test]
async fn the_coach_cannot_cancel_a_client_s_booking() {
    let app = TestApp::spawn().await;
    let (coach, _, booking) = pending_booking(&app).await;

    let cancel = app.cancel(&coach, &booking.booking_id).await;

    expect_code(cancel, Code::PermissionDenied);
    assert_eq!(app.status_of(&booking.booking_id).await, "pending");
}

#[tokio::test]
async fn cancelling_frees_the_slot_for_that_date_again() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Wednesday", "12:00", "13:00").await;
    let wednesday = next(Weekday::Wed);
    let first = app.book(&client, coach.id, &slot_id, wednesday).await.unwrap();
    app.approve(&coach, &first.booking_id).await.unwrap();
    app.cancel(&client, &first.booking_id).await.unwrap();

    let rebooked = app.book(&app.client(), coach.id, &slot_id, wednesday).await;

    assert_eq!(rebooked.unwrap().status, "pending");
}

#[tokio::test]
async fn denying_frees_the_slot_for_that_date_again() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Wednesday", "12:00", "13:00").await;
    let wednesday = next(Weekday::Wed);
    let first = app.book(&client, coach.id, &slot_id, wednesday).await.unwrap();
    app.deny(&coach, &first.booking_id).await.unwrap();

    let rebooked = app.book(&app.client(), coach.id, &slot_id, wednesday).await;

    assert!(rebooked.is_ok(), "{rebooked:?}");
}
