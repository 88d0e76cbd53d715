//! The limit of pending requests one client holds with one coach
//! (`MAX_PENDING_BOOKINGS_PER_COACH`), and HasBookingWithClient (who may read a client's profile).

use chrono::Weekday;
use futures::future::join_all;
use tonic::Code;

use crate::helpers::{TestApp, User, as_user, expect_code, next};
use proto::booking::v1 as pb;

const REFUSED: &str =
    "You already have 3 pending requests with this coach; wait for an answer or cancel one.";

/// `n` Monday slots of `coach`, an hour each from 08:00.
async fn mondays(app: &TestApp, coach: &User, n: u32) -> Vec<String> {
    let mut slots = Vec::new();
    for hour in 8..8 + n {
        let (start, end) = (format!("{hour:02}:00"), format!("{:02}:00", hour + 1));
        slots.push(app.weekly_slot(coach, "Monday", &start, &end).await);
    }
    slots
}

#[tokio::test]
async fn a_fourth_pending_request_with_one_coach_is_refused_with_what_to_do() {
    let app = TestApp::spawn_with_pending_limit(3).await;
    let (coach, other_coach, client) = (app.coach(), app.coach(), app.client());
    let slots = mondays(&app, &coach, 4).await;
    let other = app.weekly_slot(&other_coach, "Monday", "08:00", "09:00").await;
    let monday = next(Weekday::Mon);
    for slot in &slots[..3] {
        app.book(&client, coach.id, slot, monday).await.unwrap();
    }

    let fourth = app.book(&client, coach.id, &slots[3], monday).await;

    assert_eq!(expect_code(fourth, Code::FailedPrecondition), REFUSED);
    // Another coach, and another client of this coach, are not held back.
    app.book(&client, other_coach.id, &other, monday).await.unwrap();
    app.book(&app.client(), coach.id, &slots[3], monday)
        .await
        .unwrap();
}

#[tokio::test]
async fn an_answered_or_cancelled_request_frees_its_place() {
    let app = TestApp::spawn_with_pending_limit(3).await;
    let (coach, client) = (app.coach(), app.client());
    let slots = mondays(&app, &coach, 5).await;
    let monday = next(Weekday::Mon);
    let mut made = Vec::new();
    for slot in &slots[..3] {
        made.push(app.book(&client, coach.id, slot, monday).await.unwrap());
    }

    app.approve(&coach, &made[0].booking_id).await.unwrap();
    app.book(&client, coach.id, &slots[3], monday).await.unwrap();
    app.cancel(&client, &made[1].booking_id).await.unwrap();
    app.book(&client, coach.id, &slots[4], monday).await.unwrap();

    let pending = app
        .list(&client)
        .await
        .unwrap()
        .into_iter()
        .filter(|b| b.status == "pending")
        .count();
    assert_eq!(pending, 3);
}

#[tokio::test]
async fn concurrent_requests_of_one_client_with_one_coach_never_pass_the_limit() {
    let app = TestApp::spawn_with_pending_limit(3).await;
    let (coach, client) = (app.coach(), app.client());
    let slots = mondays(&app, &coach, 8).await;
    let monday = next(Weekday::Mon);

    let results = join_all(slots.iter().map(|slot| app.book(&client, coach.id, slot, monday))).await;

    let made = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(made, 3, "{results:?}");
    for refused in results.into_iter().filter(Result::is_err) {
        assert_eq!(expect_code(refused, Code::FailedPrecondition), REFUSED);
    }
}

async fn has_booking(app: &TestApp, coach: &User, client: &User) -> Result<bool, tonic::Status> {
    let request = pb::HasBookingWithClientRequest {
        client_id: client.id.to_string(),
    };
    Ok(app
        .booking
        .clone()
        .has_booking_with_client(as_user(coach, request))
        .await?
        .into_inner()
        .booked)
}

#[tokio::test]
async fn a_coach_learns_whether_a_client_booked_them_in_any_status() {
    let app = TestApp::spawn().await;
    let (coach, other_coach, client) = (app.coach(), app.coach(), app.client());
    let slot = app.weekly_slot(&coach, "Monday", "08:00", "09:00").await;
    let booking = app
        .book(&client, coach.id, &slot, next(Weekday::Mon))
        .await
        .unwrap();
    app.deny(&coach, &booking.booking_id).await.unwrap();

    assert!(has_booking(&app, &coach, &client).await.unwrap());
    assert!(!has_booking(&app, &other_coach, &client).await.unwrap());
    let asked_by_client = has_booking(&app, &app.client(), &client).await;
    expect_code(asked_by_client, Code::PermissionDenied);
}
