//! Rescheduling: one transaction makes the new booking and cancels the old one, or changes
//! nothing.

use chrono::{Days, NaiveDate, Weekday};
use proto::booking::v1 as pb;
use tonic::{Code, Status};

use crate::helpers::{TestApp, User, as_user, expect_code, next};

impl TestApp {
    async fn reschedule(
        &self,
        client: &User,
        booking_id: &str,
        slot_id: &str,
        date: NaiveDate,
    ) -> Result<pb::BookingRecord, Status> {
        let request = pb::RescheduleBookingRequest {
            booking_id: booking_id.into(),
            slot_id: slot_id.into(),
            booking_date: date.to_string(),
        };
        Ok(self
            .booking
            .clone()
            .reschedule_booking(as_user(client, request))
            .await?
            .into_inner()
            .booking
            .unwrap())
    }

    async fn stored(&self, who: &User, booking_id: &str) -> pb::BookingRecord {
        self.list(who)
            .await
            .unwrap()
            .into_iter()
            .find(|b| b.booking_id == booking_id)
            .expect("the booking is listed")
    }
}

#[tokio::test]
async fn a_reschedule_makes_a_new_pending_booking_and_cancels_the_old_one_naming_each_other() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let mondays = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let thursdays = app.weekly_slot(&coach, "Thursday", "18:00", "19:00").await;
    let monday = next(Weekday::Mon);
    let old = app.book(&client, coach.id, &mondays, monday).await.unwrap();
    app.approve(&coach, &old.booking_id).await.unwrap();

    let thursday = monday + Days::new(3);
    let new = app
        .reschedule(&client, &old.booking_id, &thursdays, thursday)
        .await
        .unwrap();

    assert_eq!(new.status, "pending");
    assert_eq!(new.booking_date, thursday.to_string());
    assert_eq!(
        (new.slot_id.as_str(), new.start_time.as_str()),
        (thursdays.as_str(), "18:00")
    );
    assert_eq!(new.rescheduled_from.as_deref(), Some(old.booking_id.as_str()));
    assert_eq!(new.rescheduled_to, None);
    let old = app.stored(&client, &old.booking_id).await;
    assert_eq!(old.status, "cancelled");
    assert_eq!(old.cancelled_by.as_deref(), Some("client"));
    assert_eq!(old.rescheduled_to.as_deref(), Some(new.booking_id.as_str()));
    assert!(!old.late_cancellation, "a week ahead is outside the day's window");
    assert_eq!(
        app.events_of(&old.booking_id).await,
        vec!["booking_requested", "booking_confirmed", "booking_cancelled"]
    );
    assert_eq!(app.events_of(&new.booking_id).await, vec!["booking_requested"]);
    // The old date is free again.
    app.book(&app.client(), coach.id, &mondays, monday).await.unwrap();
}

#[tokio::test]
async fn a_reschedule_to_a_taken_or_refused_target_changes_nothing() {
    let app = TestApp::spawn().await;
    let (coach, client, rival) = (app.coach(), app.client(), app.client());
    let mondays = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon);
    let old = app.book(&client, coach.id, &mondays, monday).await.unwrap();
    app.book(&rival, coach.id, &mondays, monday + Days::new(7))
        .await
        .unwrap();

    let taken = app
        .reschedule(&client, &old.booking_id, &mondays, monday + Days::new(7))
        .await;
    expect_code(taken, Code::AlreadyExists);
    let wrong_day = app
        .reschedule(&client, &old.booking_id, &mondays, monday + Days::new(1))
        .await;
    expect_code(wrong_day, Code::InvalidArgument);
    let same = app.reschedule(&client, &old.booking_id, &mondays, monday).await;
    expect_code(same, Code::FailedPrecondition);
    let theirs = app
        .reschedule(&rival, &old.booking_id, &mondays, monday + Days::new(14))
        .await;
    expect_code(theirs, Code::NotFound);
    let other_coach = app.coach();
    let elsewhere = app.weekly_slot(&other_coach, "Monday", "09:00", "10:00").await;
    let moved_away = app
        .reschedule(&client, &old.booking_id, &elsewhere, monday + Days::new(14))
        .await;
    assert!(expect_code(moved_away, Code::InvalidArgument).contains("same coach"));

    let old = app.stored(&client, &old.booking_id).await;
    assert_eq!(
        (old.status.as_str(), old.rescheduled_to.as_deref()),
        ("pending", None)
    );
    assert_eq!(app.list(&client).await.unwrap().len(), 1, "no booking was made");
}

#[tokio::test]
async fn a_reschedule_inside_the_cancellation_window_counts_the_old_booking_s_cancel_as_late() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    // Two weeks' window: any confirmed booking of the next days is inside it.
    app.set_policy(&coach, 0, 365, 2880, 20160).await;
    let mondays = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon);
    let old = app.book(&client, coach.id, &mondays, monday).await.unwrap();
    app.approve(&coach, &old.booking_id).await.unwrap();

    let new = app
        .reschedule(&client, &old.booking_id, &mondays, monday + Days::new(28))
        .await
        .unwrap();

    let old = app.stored(&client, &old.booking_id).await;
    assert!(old.late_cancellation, "{old:?}");
    assert_eq!(old.rescheduled_to, Some(new.booking_id));
}
