//! Bookings as calendars read them (issue 18): every change raises a booking's revision in the
//! statement that makes it; a client's feed holds all their bookings, a coach's only those they
//! confirmed, both from 30 days before now on, each list one statement; one booking's event is for
//! its client and coach alone.

use chrono::{Duration, Weekday};
use proto::booking::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, User, as_user, expect_code, next};

impl TestApp {
    async fn feed(&self, owner: &User, role: &str) -> Result<Vec<pb::CalendarBooking>, tonic::Status> {
        let request = pb::ListCalendarBookingsRequest {
            user_id: owner.id.to_string(),
            role: role.into(),
        };
        Ok(self
            .booking
            .clone()
            .list_calendar_bookings(request)
            .await?
            .into_inner()
            .bookings)
    }

    async fn event(&self, who: &User, booking_id: &str) -> Result<pb::CalendarBooking, tonic::Status> {
        let request = pb::GetCalendarBookingRequest {
            booking_id: booking_id.into(),
        };
        Ok(self
            .booking
            .clone()
            .get_calendar_booking(as_user(who, request))
            .await?
            .into_inner()
            .booking
            .expect("a booking"))
    }

    /// The fewest statements one read of `owner`'s feed took over five reads (and the feed), once
    /// the outbox relay has published every event of the writes before: nothing else then talks
    /// to PostgreSQL.
    async fn feed_counted(&self, owner: &User, role: &str) -> (Vec<pb::CalendarBooking>, usize) {
        for _ in 0..200 {
            let unpublished = sqlx::query_scalar::<_, i64>(
                "select count(*) from booking.outbox where published_at is null",
            )
            .fetch_one(&self.db)
            .await
            .unwrap();
            if unpublished == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        let mut fewest = usize::MAX;
        let mut feed = Vec::new();
        for _ in 0..5 {
            let before = self.statements_run();
            feed = self.feed(owner, role).await.unwrap();
            fewest = fewest.min(self.statements_run() - before);
        }
        (feed, fewest)
    }

    async fn revision(&self, booking_id: &str) -> i64 {
        sqlx::query_scalar::<_, i64>("select revision from booking.booking where booking_id = $1::uuid")
            .bind(booking_id)
            .fetch_one(&self.db)
            .await
            .unwrap()
    }
}

fn ids(feed: &[pb::CalendarBooking]) -> Vec<String> {
    feed.iter()
        .map(|b| b.booking.as_ref().unwrap().booking_id.clone())
        .collect()
}

/// A coach with a weekly Wednesday 10:00–11:00 slot, and a client.
async fn coach_and_client(app: &TestApp) -> (User, User, String) {
    let coach = app.coach();
    let slot = app.weekly_slot(&coach, "Wednesday", "10:00", "11:00").await;
    (coach, app.client(), slot)
}

#[tokio::test]
async fn a_booking_starts_at_revision_0_and_every_change_raises_it_by_one() {
    let app = TestApp::spawn().await;
    let (coach, client, slot) = coach_and_client(&app).await;
    let booking = app
        .book(&client, coach.id, &slot, next(Weekday::Wed))
        .await
        .unwrap();
    let id = booking.booking_id.as_str();
    let made = app.revision(id).await;

    app.approve(&coach, id).await.unwrap();
    let approved = app.revision(id).await;
    app.cancel_because(&client, id, Some("Sick")).await.unwrap();
    let cancelled = app.revision(id).await;

    assert_eq!((made, approved, cancelled), (0, 1, 2));
    let event = app.event(&client, id).await.unwrap();
    assert_eq!(event.revision, 2);
    assert_eq!(event.booking.unwrap().status, "cancelled");
}

#[tokio::test]
async fn the_clocks_transitions_raise_the_revision_too() {
    let app = TestApp::spawn().await;
    let (coach, client, slot) = coach_and_client(&app).await;
    let booking = app
        .book(&client, coach.id, &slot, next(Weekday::Wed))
        .await
        .unwrap();
    let id = booking.booking_id.as_str();
    app.approve(&coach, id).await.unwrap();

    app.clock.set(
        chrono::DateTime::parse_from_rfc3339(&booking.ends_at)
            .unwrap()
            .to_utc(),
    );
    app.wait_for_status(id, "completed").await;
    app.no_show(&coach, id).await.unwrap();

    assert_eq!(app.revision(id).await, 3, "approved, completed, no-show");
}

#[tokio::test]
async fn any_statement_that_changes_a_booking_raises_its_revision_in_that_statement() {
    let app = TestApp::spawn().await;
    let (coach, client, slot) = coach_and_client(&app).await;
    let booking = app
        .book(&client, coach.id, &slot, next(Weekday::Wed))
        .await
        .unwrap();

    // A write no code path makes today, as a later feature might: the trigger still counts it.
    let revision = sqlx::query_scalar::<_, i64>(
        "update booking.booking set location_name = 'Gym B' where booking_id = $1::uuid
         returning revision",
    )
    .bind(&booking.booking_id)
    .fetch_one(&app.db)
    .await
    .unwrap();

    assert_eq!(revision, 1, "returned by the very statement that changed it");
}

#[tokio::test]
async fn a_clients_feed_holds_every_booking_of_theirs_in_one_statement() {
    // No scheduler ticking meanwhile: every statement counted is the feed's.
    let app = TestApp::spawn_with_idle_scheduler().await;
    let coach = app.coach();
    let client = app.client();
    let wednesday = app.weekly_slot(&coach, "Wednesday", "10:00", "11:00").await;
    let thursday = app.weekly_slot(&coach, "Thursday", "10:00", "11:00").await;
    let friday = app.weekly_slot(&coach, "Friday", "10:00", "11:00").await;
    let pending = app
        .book(&client, coach.id, &wednesday, next(Weekday::Wed))
        .await
        .unwrap();
    let denied = app
        .book(&client, coach.id, &thursday, next(Weekday::Thu))
        .await
        .unwrap();
    let cancelled = app
        .book(&client, coach.id, &friday, next(Weekday::Fri))
        .await
        .unwrap();
    app.deny(&coach, &denied.booking_id).await.unwrap();
    app.cancel(&client, &cancelled.booking_id).await.unwrap();
    let someone_else = app.client();
    app.book(
        &someone_else,
        coach.id,
        &wednesday,
        next(Weekday::Wed) + Duration::days(7),
    )
    .await
    .unwrap();

    let (feed, fewest) = app.feed_counted(&client, "client").await;

    assert_eq!(fewest, 1, "a feed is one statement");
    let mut expected = vec![
        (pending.starts_at.clone(), pending.booking_id.clone()),
        (denied.starts_at.clone(), denied.booking_id.clone()),
        (cancelled.starts_at.clone(), cancelled.booking_id.clone()),
    ];
    expected.sort();
    let expected: Vec<String> = expected.into_iter().map(|(_, id)| id).collect();
    assert_eq!(ids(&feed), expected, "soonest first, whatever their status");
    let statuses: Vec<(String, i64)> = feed
        .iter()
        .map(|b| (b.booking.as_ref().unwrap().status.clone(), b.revision))
        .collect();
    for (status, revision) in statuses {
        assert_eq!(revision, i64::from(status != "pending"), "{status}");
    }
}

#[tokio::test]
async fn a_coachs_feed_holds_what_they_confirmed_and_keeps_it_once_cancelled() {
    // No scheduler ticking meanwhile: every statement counted is the feed's.
    let app = TestApp::spawn_with_idle_scheduler().await;
    let coach = app.coach();
    let client = app.client();
    let wednesday = app.weekly_slot(&coach, "Wednesday", "10:00", "11:00").await;
    let thursday = app.weekly_slot(&coach, "Thursday", "10:00", "11:00").await;
    let friday = app.weekly_slot(&coach, "Friday", "10:00", "11:00").await;
    let requested = app
        .book(&client, coach.id, &wednesday, next(Weekday::Wed))
        .await
        .unwrap();
    let denied = app
        .book(&client, coach.id, &thursday, next(Weekday::Thu))
        .await
        .unwrap();
    let called_off = app
        .book(&client, coach.id, &friday, next(Weekday::Fri))
        .await
        .unwrap();
    app.deny(&coach, &denied.booking_id).await.unwrap();
    app.approve(&coach, &called_off.booking_id).await.unwrap();
    let before_cancel = app.feed(&coach, "coach").await.unwrap();
    app.coach_cancel(&coach, &called_off.booking_id, Some("Court flooded"))
        .await
        .unwrap();

    let (feed, fewest) = app.feed_counted(&coach, "coach").await;

    assert_eq!(ids(&before_cancel), vec![called_off.booking_id.clone()]);
    assert_eq!(
        ids(&feed),
        vec![called_off.booking_id.clone()],
        "not {}",
        requested.booking_id
    );
    let kept = feed[0].booking.as_ref().unwrap();
    assert_eq!(kept.status, "cancelled");
    assert_eq!(kept.cancellation_reason.as_deref(), Some("Court flooded"));
    assert_eq!(feed[0].revision, 2);
    assert_eq!(fewest, 1, "a feed is one statement");
}

#[tokio::test]
async fn a_feed_reaches_back_30_days_from_now_and_no_further() {
    let app = TestApp::spawn().await;
    let (coach, client, slot) = coach_and_client(&app).await;
    let booking = app
        .book(&client, coach.id, &slot, next(Weekday::Wed))
        .await
        .unwrap();
    app.cancel(&client, &booking.booking_id).await.unwrap();
    let starts_at = chrono::DateTime::parse_from_rfc3339(&booking.starts_at)
        .unwrap()
        .to_utc();

    app.clock.set(starts_at + Duration::days(30));
    let on_the_day = app.feed(&client, "client").await.unwrap();
    app.clock
        .set(starts_at + Duration::days(30) + Duration::seconds(1));
    let a_second_later = app.feed(&client, "client").await.unwrap();

    assert_eq!(ids(&on_the_day), vec![booking.booking_id.clone()]);
    assert!(a_second_later.is_empty());
}

#[tokio::test]
async fn a_feed_is_asked_for_a_client_or_a_coach_by_id() {
    let app = TestApp::spawn().await;

    let gym = pb::ListCalendarBookingsRequest {
        user_id: Uuid::new_v4().to_string(),
        role: "gym".into(),
    };
    let not_an_id = pb::ListCalendarBookingsRequest {
        user_id: "nobody".into(),
        role: "client".into(),
    };

    expect_code(
        app.booking.clone().list_calendar_bookings(gym).await,
        Code::InvalidArgument,
    );
    expect_code(
        app.booking.clone().list_calendar_bookings(not_an_id).await,
        Code::InvalidArgument,
    );
}

#[tokio::test]
async fn one_bookings_event_is_for_its_client_and_coach_and_absent_for_anyone_else() {
    let app = TestApp::spawn().await;
    let (coach, client, slot) = coach_and_client(&app).await;
    let booking = app
        .book(&client, coach.id, &slot, next(Weekday::Wed))
        .await
        .unwrap();
    let id = booking.booking_id.as_str();

    let for_client = app.event(&client, id).await.unwrap();
    let for_coach = app.event(&coach, id).await.unwrap();

    assert_eq!(for_client.booking.as_ref().unwrap(), &booking);
    assert_eq!(for_client.revision, 0);
    assert_eq!(for_client.updated_at, booking.created_at);
    assert_eq!(for_coach, for_client);
    for stranger in [app.client(), app.coach(), app.admin()] {
        expect_code(app.event(&stranger, id).await, Code::NotFound);
    }
    expect_code(
        app.event(&client, &Uuid::new_v4().to_string()).await,
        Code::NotFound,
    );
    expect_code(app.event(&client, "nope").await, Code::InvalidArgument);
}
