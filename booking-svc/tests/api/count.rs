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
    // Made three weeks ago: only the database can say so (the counters count it as it is written).
    sqlx::query(
        "insert into booking.booking (booking_id, client_id, coach_id, slot_id, booking_date,
                                      start_time, end_time, location_name, status, time_zone,
                                      starts_at, ends_at, expires_at, created_at)
         values (gen_random_uuid(), gen_random_uuid(), $1, $2::uuid, $3, '09:00', '10:00', 'Court',
                 'pending', 'UTC', $3 + time '09:00', $3 + time '10:00', $3 + time '09:00',
                 now() - interval '21 days')",
    )
    .bind(coach.id)
    .bind(&slot)
    .bind(monday + Days::new(7))
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

#[tokio::test]
async fn the_totals_cost_the_same_statements_however_many_bookings_there_are() {
    // booking's own scheduler would tick beside the counts; the outbox relay still polls each second.
    let app = TestApp::spawn_with_idle_scheduler().await;
    let admin = app.admin();
    let (few, empty) = fewest_statements(&app, &admin).await;

    // 2,000 bookings of 2,000 coaches made over the last 20 weeks, in one bulk insert (the counters
    // follow any write to the table, a bulk one included).
    sqlx::query(
        "insert into booking.booking (booking_id, client_id, coach_id, slot_id, booking_date,
                                      start_time, end_time, location_name, status, time_zone,
                                      starts_at, ends_at, expires_at, created_at)
         select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
                current_date + 1, '10:00', '11:00', 'Court', 'pending', 'UTC',
                (current_date + 1) + time '10:00', (current_date + 1) + time '11:00',
                (current_date + 1) + time '10:00', now() - make_interval(days => i % 140)
         from generate_series(0, 1999) i",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let (many, counts) = fewest_statements(&app, &admin).await;

    assert_eq!(empty.total, 0);
    assert_eq!(counts.total, 2_000);
    let in_twelve_weeks: i64 = sqlx::query_scalar(
        "select count(*) from booking.booking
         where created_at >= (date_trunc('week', now() at time zone 'utc') - interval '11 weeks') at time zone 'utc'",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(
        counts.per_week.iter().map(|w| w.count).sum::<i64>(),
        in_twelve_weeks
    );
    assert_eq!(
        many, few,
        "the totals and the weeks are read from counters, not counted from the bookings"
    );
    assert_eq!(many, 2, "the total and the twelve weeks: one statement each");
}

/// The fewest statements booking-svc sent for one admin count over three (the relay's poll can
/// only add to one of them), and the last count.
async fn fewest_statements(
    app: &TestApp,
    admin: &crate::helpers::User,
) -> (usize, proto::booking::v1::CountBookingsResponse) {
    let mut fewest = usize::MAX;
    let mut counts = None;
    for _ in 0..3 {
        let before = app.statements_run();
        counts = Some(app.count(admin, None).await.unwrap());
        fewest = fewest.min(app.statements_run() - before);
    }
    (fewest, counts.unwrap())
}
