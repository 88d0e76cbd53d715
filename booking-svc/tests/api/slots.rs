//! booking-svc remembers the slots it has read from coaching-svc while coaching's change stamp
//! reads the same, and forgets them the moment it changes.

use chrono::{Days, Weekday};
use tonic::Code;

use crate::helpers::{TestApp, expect_code, next};

#[tokio::test]
async fn a_slot_deleted_after_it_was_booked_cannot_be_booked_on_another_date() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon);
    app.book(&client, coach.id, &slot_id, monday).await.unwrap();

    app.delete_slot(&coach, &slot_id).await;

    let refused = app.book(&client, coach.id, &slot_id, monday + Days::new(7)).await;
    assert_eq!(expect_code(refused, Code::NotFound), "this slot no longer exists");
}

#[tokio::test]
async fn a_slot_read_once_is_booked_again_without_asking_coaching_until_coaching_changes() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Friday", "17:00", "18:30").await;
    let friday = next(Weekday::Fri);
    app.book(&client, coach.id, &slot_id, friday).await.unwrap();

    let asked = app.coaching_statements_run();
    let again = app
        .book(&client, coach.id, &slot_id, friday + Days::new(7))
        .await
        .unwrap();
    assert_eq!(app.coaching_statements_run(), asked, "the slot was remembered");
    assert_eq!(
        (again.start_time.as_str(), again.end_time.as_str()),
        ("17:00", "18:30")
    );

    app.renew_coaching_stamp().await;
    app.book(&client, coach.id, &slot_id, friday + Days::new(14))
        .await
        .unwrap();
    assert_eq!(
        app.coaching_statements_run(),
        asked + 1,
        "a new stamp means the slot is read again, once"
    );
}

#[tokio::test]
async fn fifty_bookings_of_one_slot_at_once_cost_coaching_one_read() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot_id = app.weekly_slot(&coach, "Sunday", "10:00", "11:00").await;
    let sunday = next(Weekday::Sun);
    let asked = app.coaching_statements_run();

    // One client on fifty dates: what is measured is the slot, not fifty token checks.
    let client = app.client();
    let tries = (0..50).map(|week| {
        let client = client.clone();
        let slot_id = slot_id.clone();
        let app = &app;
        async move {
            app.book(&client, coach.id, &slot_id, sunday + Days::new(7 * week))
                .await
        }
    });
    let booked = futures::future::join_all(tries).await;

    assert!(booked.iter().all(Result::is_ok), "{booked:?}");
    assert_eq!(app.coaching_statements_run(), asked + 1);
}
