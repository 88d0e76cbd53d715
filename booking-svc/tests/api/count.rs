//! CountBookings: the admin's totals, per user and per week.

use chrono::{Datelike, Days, Utc, Weekday};
use platform::auth::Role;
use tonic::Code;

use crate::helpers::{TestApp, expect_code, next};

#[tokio::test]
async fn only_an_admin_counts_bookings() {
    let app = TestApp::spawn().await;

    for role in [Role::Client, Role::Coach, Role::Gym] {
        expect_code(app.count(&app.user(role), None).await, Code::PermissionDenied);
    }
}

#[tokio::test]
async fn the_admin_sees_the_total_and_the_last_twelve_weeks_oldest_first() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon);
    app.book(&app.client(), coach.id, &slot, monday).await.unwrap();
    let older = app
        .book(&app.client(), coach.id, &slot, monday + Days::new(7))
        .await
        .unwrap();
    // Made three weeks ago: only the database can say so.
    sqlx::query(
        "update booking.booking set created_at = now() - interval '21 days' where booking_id = $1::uuid",
    )
    .bind(&older.booking_id)
    .execute(&app.db)
    .await
    .unwrap();

    let counts = app.count(&app.admin(), None).await.unwrap();

    assert_eq!(counts.total, 2);
    let today = Utc::now().date_naive();
    let this_week = today - Days::new(today.weekday().num_days_from_monday().into());
    let expected_weeks: Vec<_> = (0..12u64)
        .rev()
        .map(|ago| (this_week - Days::new(7 * ago)).to_string())
        .collect();
    let weeks: Vec<_> = counts.per_week.iter().map(|w| w.week_start.clone()).collect();
    assert_eq!(weeks, expected_weeks);
    let per_week: Vec<_> = counts.per_week.iter().map(|w| w.count).collect();
    assert_eq!(per_week, [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1]);
}

#[tokio::test]
async fn counts_for_one_user_cover_them_as_client_or_as_coach() {
    let app = TestApp::spawn().await;
    let (coach, other_coach, client) = (app.coach(), app.coach(), app.client());
    let slot = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let other_slot = app.weekly_slot(&other_coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon);
    app.book(&client, coach.id, &slot, monday).await.unwrap();
    app.book(&client, other_coach.id, &other_slot, monday)
        .await
        .unwrap();
    app.book(&app.client(), coach.id, &slot, monday + Days::new(7))
        .await
        .unwrap();
    let admin = app.admin();

    let of_client = app.count(&admin, Some(client.id)).await.unwrap();
    let of_coach = app.count(&admin, Some(coach.id)).await.unwrap();
    let of_nobody = app.count(&admin, Some(uuid::Uuid::new_v4())).await.unwrap();

    assert_eq!((of_client.total, of_coach.total, of_nobody.total), (2, 2, 0));
    assert!(of_client.per_week.is_empty());
}

#[tokio::test]
async fn a_malformed_user_id_is_refused() {
    let app = TestApp::spawn().await;
    let request = proto::booking::v1::CountBookingsRequest {
        user_id: Some("someone".into()),
    };

    let refused = app
        .booking
        .clone()
        .count_bookings(crate::helpers::as_user(&app.admin(), request))
        .await;

    assert_eq!(
        expect_code(refused, Code::InvalidArgument),
        "user_id must be a UUID"
    );
}
