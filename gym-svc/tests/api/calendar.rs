//! Court reservations as calendars read them (issue 18): every change raises a reservation's
//! revision in the statement that makes it; a coach's feed and a gym's hold the court time that was
//! approved (and keep it once called off), from 30 days before now on, each one statement.

use chrono::Duration;
use platform::clock::ManualClock;
use proto::gym::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{Actor, TestApp, at, in_days};

impl TestApp {
    async fn feed(&self, owner: &Actor, role: &str) -> Result<Vec<pb::CalendarReservation>, tonic::Status> {
        let request = pb::ListCalendarReservationsRequest {
            user_id: owner.id.to_string(),
            role: role.into(),
        };
        Ok(self
            .client()
            .list_calendar_reservations(request)
            .await?
            .into_inner()
            .reservations)
    }

    /// The feed, and the fewest statements one read of it took over five reads, once the outbox
    /// relay has published every event of the writes before (the relay and the scheduler share
    /// the counter).
    async fn feed_counted(&self, owner: &Actor, role: &str) -> (Vec<pb::CalendarReservation>, usize) {
        for _ in 0..200 {
            let unpublished =
                sqlx::query_scalar::<_, i64>("select count(*) from gym.outbox where published_at is null")
                    .fetch_one(&self.db)
                    .await
                    .expect("the outbox");
            if unpublished == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        let mut fewest = usize::MAX;
        let mut feed = Vec::new();
        for _ in 0..5 {
            let before = self.statements_run();
            feed = self.feed(owner, role).await.expect("a feed");
            fewest = fewest.min(self.statements_run() - before);
        }
        (feed, fewest)
    }

    async fn revision(&self, reservation_id: &str) -> i64 {
        sqlx::query_scalar::<_, i64>(
            "select revision from gym.court_reservation where reservation_id = $1::uuid",
        )
        .bind(reservation_id)
        .fetch_one(&self.db)
        .await
        .expect("a stored reservation")
    }
}

fn ids(feed: &[pb::CalendarReservation]) -> Vec<String> {
    feed.iter()
        .map(|r| r.reservation.as_ref().unwrap().reservation_id.clone())
        .collect()
}

#[tokio::test]
async fn a_reservation_starts_at_revision_0_and_every_change_raises_it_by_one() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let coach = app.coach();
    let reservation = app.request(&coach, &availability.availability_id).await;
    let id = reservation.reservation_id.as_str();
    let requested = app.revision(id).await;

    app.approve(&setup.gym, id).await.unwrap();
    let approved = app.revision(id).await;
    app.gym_cancel(&setup.gym, id, Some("Floor repairs"))
        .await
        .unwrap();
    let cancelled = app.revision(id).await;

    assert_eq!((requested, approved, cancelled), (0, 1, 2));
}

#[tokio::test]
async fn any_statement_that_changes_a_reservation_raises_its_revision_in_that_statement() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let reservation = app.request(&app.coach(), &availability.availability_id).await;

    let revision = sqlx::query_scalar::<_, i64>(
        "update gym.court_reservation set cancellation_reason = 'x' where reservation_id = $1::uuid
         returning revision",
    )
    .bind(&reservation.reservation_id)
    .fetch_one(&app.db)
    .await
    .unwrap();

    assert_eq!(revision, 1);
}

#[tokio::test]
async fn the_feeds_of_the_coach_and_the_gym_hold_approved_court_time_in_one_statement_each() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let coach = app.coach();
    let later = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(9), "10:00", "11:00")
        .await;
    let sooner = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(8), "10:00", "11:00")
        .await;
    let denied_time = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(10), "10:00", "11:00")
        .await;
    let pending_time = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(11), "10:00", "11:00")
        .await;
    let first = app.request(&coach, &later.availability_id).await;
    let second = app.request(&coach, &sooner.availability_id).await;
    let denied = app.request(&coach, &denied_time.availability_id).await;
    app.request(&coach, &pending_time.availability_id).await;
    app.approve(&setup.gym, &first.reservation_id).await.unwrap();
    app.approve(&setup.gym, &second.reservation_id).await.unwrap();
    app.deny(&setup.gym, &denied.reservation_id).await.unwrap();
    let other_coach = app.coach();
    let elsewhere = app.gym_with_court("Elsewhere").await;
    let theirs = app
        .offer(
            &elsewhere.gym,
            &elsewhere.court.court_id,
            &in_days(8),
            "10:00",
            "11:00",
        )
        .await;
    let other = app.request(&other_coach, &theirs.availability_id).await;
    app.approve(&elsewhere.gym, &other.reservation_id).await.unwrap();

    let (coachs, coach_statements) = app.feed_counted(&coach, "coach").await;
    let (gyms, gym_statements) = app.feed_counted(&setup.gym, "gym").await;

    let soonest_first = [second.reservation_id.clone(), first.reservation_id.clone()];
    assert_eq!(ids(&coachs), soonest_first, "approved only, soonest first");
    assert_eq!(ids(&gyms), soonest_first, "this gym's courts only");
    assert_eq!((coach_statements, gym_statements), (1, 1));
    let event = &gyms[0];
    let reservation = event.reservation.as_ref().unwrap();
    assert_eq!(reservation.status, "approved");
    assert_eq!(reservation.gym_name, "Hoops Arena");
    assert_eq!(reservation.court_name, "Court 1");
    assert_eq!(reservation.coach_id, coach.id.to_string());
    assert_eq!(event.revision, 1);
    assert!(event.address.contains(&setup.location.city), "{}", event.address);
    assert!(!event.updated_at.is_empty());
}

#[tokio::test]
async fn approved_court_time_called_off_stays_in_both_feeds_as_it_now_stands() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let coach = app.coach();
    let reservation = app.request(&coach, &availability.availability_id).await;
    app.approve(&setup.gym, &reservation.reservation_id)
        .await
        .unwrap();

    app.gym_cancel(&setup.gym, &reservation.reservation_id, Some("Floor repairs"))
        .await
        .unwrap();

    for (owner, role) in [(&coach, "coach"), (&setup.gym, "gym")] {
        let feed = app.feed(owner, role).await.unwrap();
        assert_eq!(ids(&feed), vec![reservation.reservation_id.clone()], "{role}");
        let kept = feed[0].reservation.as_ref().unwrap();
        assert_eq!(kept.status, "cancelled");
        assert_eq!(kept.cancellation_reason.as_deref(), Some("Floor repairs"));
        assert_eq!(feed[0].revision, 2);
    }
}

#[tokio::test]
async fn a_feed_reaches_back_30_days_from_now_and_no_further() {
    let clock = ManualClock::at(chrono::Utc::now());
    let app = TestApp::spawn_at(&clock).await;
    let (setup, availability) = app.open_court_time().await;
    let coach = app.coach();
    let reservation = app.request(&coach, &availability.availability_id).await;
    app.approve(&setup.gym, &reservation.reservation_id)
        .await
        .unwrap();
    let starts_at = at(&availability.starts_at);

    clock.set(starts_at + Duration::days(30));
    let on_the_day = app.feed(&coach, "coach").await.unwrap();
    clock.set(starts_at + Duration::days(30) + Duration::seconds(1));
    let a_second_later = app.feed(&setup.gym, "gym").await.unwrap();

    assert_eq!(ids(&on_the_day), vec![reservation.reservation_id.clone()]);
    assert!(a_second_later.is_empty());
}

#[tokio::test]
async fn a_feed_is_asked_for_a_coach_or_a_gym_by_id() {
    let app = TestApp::spawn().await;

    for (user_id, role) in [
        (Uuid::new_v4().to_string(), "client"),
        ("nobody".to_owned(), "gym"),
    ] {
        let request = pb::ListCalendarReservationsRequest {
            user_id,
            role: role.into(),
        };
        let refused = app.client().list_calendar_reservations(request).await;
        assert_eq!(refused.unwrap_err().code(), Code::InvalidArgument, "{role}");
    }
}
