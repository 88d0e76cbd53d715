//! CreateBooking: who may book, which dates fit which slots, the snapshot, and no double booking
//! whatever the concurrency.

use chrono::{Days, Utc, Weekday};
use futures::future::join_all;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, expect_code, next, weekly};

#[tokio::test]
async fn a_client_books_a_recurring_slot_on_its_weekday_and_it_is_pending() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let location_id = app.location(&coach, "Eastside Gym").await;
    let slot_id = app
        .slot(&coach, weekly("Monday", "09:00", "10:30", Some(location_id)))
        .await;
    let monday = next(Weekday::Mon);

    let booking = app.book(&client, coach.id, &slot_id, monday).await.unwrap();

    assert_eq!(booking.status, "pending");
    // The coach has no rate (no profile): the session is free.
    assert_eq!(booking.payment_status, "none");
    assert_eq!(booking.client_id, client.id.to_string());
    assert_eq!(booking.coach_id, coach.id.to_string());
    assert_eq!(booking.slot_id, slot_id);
    assert_eq!(booking.booking_date, monday.to_string());
    assert_eq!(
        (booking.start_time.as_str(), booking.end_time.as_str()),
        ("09:00", "10:30")
    );
    assert_eq!(booking.location_name, "Eastside Gym");
    assert!(Uuid::parse_str(&booking.booking_id).is_ok());
}

#[tokio::test]
async fn a_slot_without_a_location_is_booked_with_an_empty_location_name() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Tuesday", "18:00", "19:00").await;

    let booking = app
        .book(&client, coach.id, &slot_id, next(Weekday::Tue))
        .await
        .unwrap();

    assert_eq!(booking.location_name, "");
}

#[tokio::test]
async fn a_one_time_slot_is_booked_on_its_date() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let date = Utc::now().date_naive() + Days::new(10);
    let slot_id = app.one_time_slot(&coach, date, "07:00", "08:00").await;

    let booking = app.book(&client, coach.id, &slot_id, date).await.unwrap();

    assert_eq!(booking.booking_date, date.to_string());
}

#[tokio::test]
async fn a_date_on_another_weekday_is_refused_naming_the_slot_s_day() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let wednesday = next(Weekday::Wed);

    let refused = app.book(&client, coach.id, &slot_id, wednesday).await;

    let detail = expect_code(refused, Code::InvalidArgument);
    assert_eq!(
        detail,
        format!("this slot is every Monday, but {wednesday} is a Wednesday; please pick a Monday")
    );
}

#[tokio::test]
async fn a_one_time_slot_on_another_date_is_refused_naming_its_date() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let date = Utc::now().date_naive() + Days::new(10);
    let slot_id = app.one_time_slot(&coach, date, "07:00", "08:00").await;

    let refused = app.book(&client, coach.id, &slot_id, date + Days::new(7)).await;

    let detail = expect_code(refused, Code::InvalidArgument);
    assert!(detail.contains(&date.to_string()), "{detail}");
}

#[tokio::test]
async fn february_the_thirtieth_is_refused() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;

    let refused = app
        .book_raw(&client, &coach.id.to_string(), &slot_id, "2030-02-30")
        .await;

    let detail = expect_code(refused, Code::InvalidArgument);
    assert!(detail.contains("booking_date"), "{detail}");
}

#[tokio::test]
async fn a_past_date_is_refused() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let mut past_monday = Utc::now().date_naive() - Days::new(2);
    while chrono::Datelike::weekday(&past_monday) != Weekday::Mon {
        past_monday = past_monday.pred_opt().unwrap();
    }

    let refused = app.book(&client, coach.id, &slot_id, past_monday).await;

    let detail = expect_code(refused, Code::FailedPrecondition);
    assert!(detail.contains("has already started or is over"), "{detail}");
}

#[tokio::test]
async fn malformed_ids_are_refused_naming_the_field() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon).to_string();

    let bad_coach = app.book_raw(&client, "coach-7", &slot_id, &monday).await;
    let bad_slot = app
        .book_raw(
            &client,
            &coach.id.to_string(),
            "'; drop table booking.booking; --",
            &monday,
        )
        .await;

    assert_eq!(
        expect_code(bad_coach, Code::InvalidArgument),
        "coach_id must be a UUID"
    );
    assert_eq!(
        expect_code(bad_slot, Code::InvalidArgument),
        "slot_id must be a UUID"
    );
}

#[tokio::test]
async fn a_slot_of_another_coach_is_refused() {
    let app = TestApp::spawn().await;
    let (coach, other_coach, client) = (app.coach(), app.coach(), app.client());
    let slot_id = app.weekly_slot(&other_coach, "Monday", "09:00", "10:00").await;

    let refused = app.book(&client, coach.id, &slot_id, next(Weekday::Mon)).await;

    assert_eq!(
        expect_code(refused, Code::InvalidArgument),
        "this slot does not belong to that coach"
    );
}

#[tokio::test]
async fn a_slot_that_no_longer_exists_is_not_found() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    app.delete_slot(&coach, &slot_id).await;

    let refused = app.book(&client, coach.id, &slot_id, next(Weekday::Mon)).await;

    assert_eq!(expect_code(refused, Code::NotFound), "this slot no longer exists");
}

#[tokio::test]
async fn only_a_client_can_book() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon);

    for role in [
        platform::auth::Role::Coach,
        platform::auth::Role::Gym,
        platform::auth::Role::Admin,
    ] {
        let refused = app.book(&app.user(role), coach.id, &slot_id, monday).await;
        expect_code(refused, Code::PermissionDenied);
    }
    assert!(app.list(&coach).await.unwrap().is_empty());
}

#[tokio::test]
async fn booking_without_signing_in_is_unauthenticated() {
    let app = TestApp::spawn().await;
    let request = proto::booking::v1::CreateBookingRequest {
        coach_id: Uuid::new_v4().to_string(),
        slot_id: Uuid::new_v4().to_string(),
        booking_date: next(Weekday::Mon).to_string(),
        payment_method_id: None,
    };

    let refused = app.booking.clone().create_booking(request).await;

    expect_code(refused, Code::Unauthenticated);
}

#[tokio::test]
async fn second_booking_of_a_taken_slot_is_a_conflict() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot_id = app.weekly_slot(&coach, "Friday", "17:00", "18:00").await;
    let friday = next(Weekday::Fri);
    app.book(&app.client(), coach.id, &slot_id, friday).await.unwrap();

    let second = app.book(&app.client(), coach.id, &slot_id, friday).await;

    assert_eq!(
        expect_code(second, Code::AlreadyExists),
        "This slot is already booked for that date. Please choose another date or slot."
    );
}

#[tokio::test]
async fn the_same_slot_on_another_date_can_be_booked() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot_id = app.weekly_slot(&coach, "Friday", "17:00", "18:00").await;
    let friday = next(Weekday::Fri);
    app.book(&app.client(), coach.id, &slot_id, friday).await.unwrap();

    let a_week_later = app
        .book(&app.client(), coach.id, &slot_id, friday + Days::new(7))
        .await;

    assert!(a_week_later.is_ok(), "{a_week_later:?}");
}

#[tokio::test]
async fn fifty_concurrent_bookings_of_one_slot_and_date_give_exactly_one() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot_id = app.weekly_slot(&coach, "Saturday", "10:00", "11:00").await;
    let saturday = next(Weekday::Sat);
    let clients: Vec<_> = (0..50).map(|_| app.client()).collect();

    let attempts = join_all(clients.iter().map(|client| {
        let (app_booking, slot_id) = (app.booking.clone(), slot_id.clone());
        let request = crate::helpers::as_user(
            client,
            proto::booking::v1::CreateBookingRequest {
                coach_id: coach.id.to_string(),
                slot_id,
                booking_date: saturday.to_string(),
                payment_method_id: None,
            },
        );
        tokio::spawn(async move { app_booking.clone().create_booking(request).await })
    }))
    .await;

    let results: Vec<_> = attempts.into_iter().map(|joined| joined.unwrap()).collect();
    let won = results.iter().filter(|r| r.is_ok()).count();
    let conflicts = results
        .iter()
        .filter(|r| matches!(r, Err(s) if s.code() == Code::AlreadyExists))
        .count();
    assert_eq!((won, conflicts), (1, 49), "{results:?}");
    assert_eq!(app.list(&coach).await.unwrap().len(), 1);
}

#[tokio::test]
async fn overlapping_slots_of_one_coach_cannot_both_be_held_on_one_date() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let early = app.weekly_slot(&coach, "Sunday", "09:00", "10:30").await;
    let late = app.weekly_slot(&coach, "Sunday", "10:00", "11:00").await;
    let sunday = next(Weekday::Sun);
    app.book(&app.client(), coach.id, &early, sunday).await.unwrap();

    let overlapping = app.book(&app.client(), coach.id, &late, sunday).await;

    assert_eq!(
        expect_code(overlapping, Code::AlreadyExists),
        "The coach already has a booking that overlaps this time on that date. \
         Please choose another date or slot."
    );
}

#[tokio::test]
async fn concurrent_bookings_of_overlapping_slots_give_exactly_one() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slots = [
        app.weekly_slot(&coach, "Sunday", "09:00", "10:30").await,
        app.weekly_slot(&coach, "Sunday", "10:00", "11:00").await,
        app.weekly_slot(&coach, "Sunday", "09:30", "10:15").await,
    ];
    let sunday = next(Weekday::Sun);
    let clients: Vec<_> = (0..30).map(|_| app.client()).collect();

    let attempts = join_all(clients.iter().enumerate().map(|(i, client)| {
        let request = crate::helpers::as_user(
            client,
            proto::booking::v1::CreateBookingRequest {
                coach_id: coach.id.to_string(),
                slot_id: slots[i % slots.len()].clone(),
                booking_date: sunday.to_string(),
                payment_method_id: None,
            },
        );
        let mut booking = app.booking.clone();
        tokio::spawn(async move { booking.create_booking(request).await })
    }))
    .await;

    let results: Vec<_> = attempts.into_iter().map(|joined| joined.unwrap()).collect();
    let won = results.iter().filter(|r| r.is_ok()).count();
    let conflicts = results
        .iter()
        .filter(|r| matches!(r, Err(s) if s.code() == Code::AlreadyExists))
        .count();
    assert_eq!((won, conflicts), (1, 29), "{results:?}");
}

#[tokio::test]
async fn back_to_back_slots_of_one_coach_can_both_be_held() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let first = app.weekly_slot(&coach, "Sunday", "09:00", "10:00").await;
    let second = app.weekly_slot(&coach, "Sunday", "10:00", "11:00").await;
    let sunday = next(Weekday::Sun);
    app.book(&app.client(), coach.id, &first, sunday).await.unwrap();

    let next_hour = app.book(&app.client(), coach.id, &second, sunday).await;

    assert!(next_hour.is_ok(), "{next_hour:?}");
}

#[tokio::test]
async fn two_coaches_can_be_booked_at_the_same_time() {
    let app = TestApp::spawn().await;
    let (coach, other_coach) = (app.coach(), app.coach());
    let slot = app.weekly_slot(&coach, "Sunday", "09:00", "10:00").await;
    let other_slot = app.weekly_slot(&other_coach, "Sunday", "09:00", "10:00").await;
    let sunday = next(Weekday::Sun);
    app.book(&app.client(), coach.id, &slot, sunday).await.unwrap();

    let other = app.book(&app.client(), other_coach.id, &other_slot, sunday).await;

    assert!(other.is_ok(), "{other:?}");
}

#[tokio::test]
async fn a_booking_keeps_its_snapshot_after_the_slot_is_deleted() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let location_id = app.location(&coach, "Riverside Court").await;
    let slot_id = app
        .slot(&coach, weekly("Thursday", "16:00", "17:15", Some(location_id)))
        .await;
    app.book(&client, coach.id, &slot_id, next(Weekday::Thu))
        .await
        .unwrap();

    app.delete_slot(&coach, &slot_id).await;

    let bookings = app.list(&client).await.unwrap();
    assert_eq!(bookings.len(), 1);
    assert_eq!(
        (bookings[0].start_time.as_str(), bookings[0].end_time.as_str()),
        ("16:00", "17:15")
    );
    assert_eq!(bookings[0].location_name, "Riverside Court");
}

#[tokio::test]
async fn when_coaching_is_unreachable_booking_asks_to_try_again_shortly() {
    let app = TestApp::spawn_without_coaching().await;
    let client = app.client();

    let refused = app
        .book(
            &client,
            Uuid::new_v4(),
            &Uuid::new_v4().to_string(),
            next(Weekday::Mon),
        )
        .await;

    assert_eq!(
        expect_code(refused, Code::Unavailable),
        "the coaching service is unavailable; please try again shortly"
    );
}
