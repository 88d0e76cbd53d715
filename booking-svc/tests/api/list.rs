//! ListBookings: a client sees their own bookings, a coach the bookings with them, by date and
//! time; nobody else has a list.

use chrono::{Days, Weekday};
use platform::auth::Role;
use tonic::Code;

use crate::helpers::{TestApp, expect_code, next};

#[tokio::test]
async fn a_client_sees_only_their_own_bookings_by_date_then_time() {
    let app = TestApp::spawn().await;
    let (coach, other_coach, client) = (app.coach(), app.coach(), app.client());
    let late = app.weekly_slot(&coach, "Monday", "15:00", "16:00").await;
    let early = app.weekly_slot(&other_coach, "Monday", "08:00", "09:00").await;
    let monday = next(Weekday::Mon);
    let week_after = monday + Days::new(7);
    // Booked out of order on purpose.
    app.book(&client, coach.id, &late, week_after).await.unwrap();
    app.book(&client, coach.id, &late, monday).await.unwrap();
    app.book(&client, other_coach.id, &early, monday).await.unwrap();
    app.book(&app.client(), other_coach.id, &early, week_after)
        .await
        .unwrap();

    let bookings = app.list(&client).await.unwrap();

    let seen: Vec<_> = bookings
        .iter()
        .map(|b| (b.booking_date.clone(), b.start_time.clone()))
        .collect();
    assert_eq!(
        seen,
        [
            (monday.to_string(), "08:00".to_owned()),
            (monday.to_string(), "15:00".to_owned()),
            (week_after.to_string(), "15:00".to_owned()),
        ]
    );
    assert!(bookings.iter().all(|b| b.client_id == client.id.to_string()));
}

#[tokio::test]
async fn a_coach_sees_the_bookings_with_them() {
    let app = TestApp::spawn().await;
    let (coach, other_coach) = (app.coach(), app.coach());
    let slot = app.weekly_slot(&coach, "Monday", "15:00", "16:00").await;
    let other_slot = app.weekly_slot(&other_coach, "Monday", "15:00", "16:00").await;
    let monday = next(Weekday::Mon);
    let (ann, bob) = (app.client(), app.client());
    app.book(&ann, coach.id, &slot, monday + Days::new(7))
        .await
        .unwrap();
    app.book(&bob, coach.id, &slot, monday).await.unwrap();
    app.book(&app.client(), other_coach.id, &other_slot, monday)
        .await
        .unwrap();

    let bookings = app.list(&coach).await.unwrap();

    let clients: Vec<_> = bookings.iter().map(|b| b.client_id.clone()).collect();
    assert_eq!(clients, [bob.id.to_string(), ann.id.to_string()]);
}

#[tokio::test]
async fn a_new_user_has_no_bookings() {
    let app = TestApp::spawn().await;

    let bookings = app.list(&app.client()).await.unwrap();

    assert!(bookings.is_empty());
}

#[tokio::test]
async fn gyms_and_admins_have_no_bookings_list() {
    let app = TestApp::spawn().await;

    for role in [Role::Gym, Role::Admin] {
        expect_code(app.list(&app.user(role)).await, Code::PermissionDenied);
    }
}

#[tokio::test]
async fn a_coachs_500_bookings_come_back_from_one_statement() {
    // booking's own scheduler would tick beside the list; the outbox relay still polls each second.
    let app = TestApp::spawn_with_idle_scheduler().await;
    let coach = app.coach();
    // 500 bookings by 50 clients on 500 dates, arranged in the database directly.
    sqlx::query(
        "insert into booking.booking (booking_id, client_id, coach_id, slot_id, booking_date,
                                      start_time, end_time, location_name, status, time_zone,
                                      starts_at, ends_at, expires_at)
         select gen_random_uuid(), ('00000000-0000-4000-8000-' || lpad((i % 50)::text, 12, '0'))::uuid,
                $1, gen_random_uuid(), current_date + i, '10:00', '11:00', 'Court ' || i, 'pending',
                'UTC', (current_date + i) + time '10:00', (current_date + i) + time '11:00',
                (current_date + i) + time '10:00'
         from generate_series(1, 500) i",
    )
    .bind(coach.id)
    .execute(&app.db)
    .await
    .unwrap();

    // The fewest statements over three lists: the relay's poll can only add to one of them.
    let mut fewest = usize::MAX;
    let mut bookings = Vec::new();
    for _ in 0..3 {
        let before = app.statements_run();
        bookings = app.list(&coach).await.unwrap();
        fewest = fewest.min(app.statements_run() - before);
    }

    assert_eq!(fewest, 1, "a coach's list is one statement");
    assert_eq!(bookings.len(), 500);
    assert!(bookings.windows(2).all(|w| w[0].booking_date < w[1].booking_date));
}
