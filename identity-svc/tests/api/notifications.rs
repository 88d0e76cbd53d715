//! Inboxes: the booking and gym contexts' events, read from the stream, leave each notification
//! with the people it concerns, once; reminders go out a day before; account facts notify too.

use chrono::{DateTime, Duration, SecondsFormat, Utc};
use platform::{
    clock::ManualClock,
    events::{BookingFact, Envelope, Event, Party, ReservationFact},
};
use proto::identity::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, authed, eventually, refused};

struct People {
    coach: (String, pb::User),
    client: (String, pb::User),
    gym: (String, pb::User),
}

impl People {
    async fn register(app: &TestApp) -> People {
        People {
            coach: app.register("coach").await,
            client: app.register("client").await,
            gym: app.register("gym").await,
        }
    }
}

fn id(user: &pb::User) -> Uuid {
    user.user_id.parse().expect("a user id")
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn booking(people: &People, starts_at: DateTime<Utc>) -> BookingFact {
    BookingFact {
        booking_id: Uuid::new_v4(),
        coach_id: id(&people.coach.1),
        client_id: id(&people.client.1),
        booking_date: starts_at.format("%Y-%m-%d").to_string(),
        start_time: starts_at.format("%H:%M").to_string(),
        end_time: (starts_at + Duration::hours(1)).format("%H:%M").to_string(),
        time_zone: "UTC".into(),
        starts_at: rfc3339(starts_at),
        ends_at: rfc3339(starts_at + Duration::hours(1)),
        location_name: "Court A".into(),
        rescheduled_from: None,
        rescheduled_to: None,
    }
}

fn reservation(people: &People, starts_at: DateTime<Utc>) -> ReservationFact {
    ReservationFact {
        reservation_id: Uuid::new_v4(),
        coach_id: id(&people.coach.1),
        gym_id: id(&people.gym.1),
        gym_name: "Hoops Gym".into(),
        location_name: "Downtown".into(),
        court_name: "Court 1".into(),
        date: starts_at.format("%Y-%m-%d").to_string(),
        start_time: starts_at.format("%H:%M").to_string(),
        end_time: (starts_at + Duration::hours(1)).format("%H:%M").to_string(),
        time_zone: "UTC".into(),
        starts_at: rfc3339(starts_at),
        ends_at: rfc3339(starts_at + Duration::hours(1)),
    }
}

fn envelope(event: Event, occurred_at: DateTime<Utc>) -> Envelope {
    Envelope {
        event_id: Uuid::new_v4(),
        occurred_at: occurred_at.to_rfc3339_opts(SecondsFormat::Millis, true),
        event,
    }
}

/// The kinds in the user's inbox, oldest first.
async fn kinds(app: &TestApp, token: &str) -> Vec<String> {
    let mut kinds: Vec<String> = app.inbox(token).await.into_iter().map(|n| n.kind).collect();
    kinds.reverse();
    kinds
}

/// Waits until the user's inbox holds `n` notifications and returns their kinds, oldest first.
async fn kinds_once(app: &TestApp, token: &str, n: usize) -> Vec<String> {
    eventually(&format!("{n} notifications"), || async {
        let kinds = kinds(app, token).await;
        (kinds.len() >= n).then_some(kinds)
    })
    .await
}

#[tokio::test]
async fn every_booking_and_reservation_fact_reaches_the_people_concerned_once() {
    let app = TestApp::start().await;
    let people = People::register(&app).await;
    let now = Utc::now();
    let later = now + Duration::days(5);
    let old = booking(&people, later);
    let moved = BookingFact {
        booking_id: Uuid::new_v4(),
        rescheduled_from: Some(old.booking_id),
        ..booking(&people, later + Duration::days(1))
    };
    let cancelled_late = booking(&people, later);
    let events = vec![
        Event::BookingRequested {
            booking: booking(&people, later),
        },
        Event::BookingConfirmed {
            booking: booking(&people, later),
        },
        Event::BookingDenied {
            booking: booking(&people, later),
        },
        Event::BookingCancelled {
            booking: cancelled_late.clone(),
            by: Party::Client,
            reason: Some("Twisted an ankle".into()),
            late: true,
        },
        Event::BookingCancelled {
            booking: booking(&people, later),
            by: Party::Coach,
            reason: None,
            late: false,
        },
        Event::BookingExpired {
            booking: booking(&people, later),
        },
        Event::BookingCompleted {
            booking: booking(&people, later),
        },
        Event::ReservationRequested {
            reservation: reservation(&people, later),
        },
        Event::ReservationApproved {
            reservation: reservation(&people, later),
        },
        Event::ReservationDenied {
            reservation: reservation(&people, later),
            reason: Some("Closed for repairs".into()),
        },
        Event::ReservationCancelled {
            reservation: reservation(&people, later),
            by: Party::Gym,
            reason: None,
        },
        Event::ReservationCancelled {
            reservation: reservation(&people, later),
            by: Party::Coach,
            reason: None,
        },
        Event::ReservationExpired {
            reservation: reservation(&people, later),
        },
        // A reschedule: the old booking's cancel tells nobody, the new one tells the coach it moved.
        Event::BookingCancelled {
            booking: BookingFact {
                rescheduled_to: Some(moved.booking_id),
                ..old.clone()
            },
            by: Party::Client,
            reason: None,
            late: false,
        },
        Event::BookingRequested {
            booking: moved.clone(),
        },
        // A no-show tells nobody: the coach marked it.
        Event::BookingNoShow {
            booking: booking(&people, later),
        },
    ];
    let envelopes: Vec<Envelope> = events.into_iter().map(|e| envelope(e, now)).collect();
    for envelope in &envelopes {
        app.publish(envelope).await;
    }

    let coach = kinds_once(&app, &people.coach.0, 9).await;
    assert_eq!(
        coach,
        [
            "welcome",
            "booking_requested",
            "booking_cancelled",
            "booking_expired",
            "reservation_approved",
            "reservation_denied",
            "reservation_cancelled",
            "reservation_expired",
            "booking_rescheduled",
        ]
    );
    let client = kinds_once(&app, &people.client.0, 5).await;
    assert_eq!(
        client,
        [
            "welcome",
            "booking_confirmed",
            "booking_denied",
            "booking_cancelled",
            "booking_expired"
        ]
    );
    let gym = kinds_once(&app, &people.gym.0, 3).await;
    assert_eq!(gym, ["welcome", "reservation_requested", "reservation_cancelled"]);

    let late = app
        .inbox(&people.coach.0)
        .await
        .into_iter()
        .find(|n| n.kind == "booking_cancelled")
        .expect("the coach hears of the client's cancel");
    assert!(late.body.contains("Twisted an ankle"), "{}", late.body);
    assert!(late.body.contains("late cancellation"), "{}", late.body);
    assert_eq!(
        late.link,
        format!("/coach/dashboard?booking={}", cancelled_late.booking_id),
        "the link opens the coach's dashboard at the booking"
    );

    // Replayed, every event changes nothing; a new one after them shows they were read.
    for envelope in &envelopes {
        app.publish(envelope).await;
    }
    app.publish(&envelope(
        Event::BookingRequested {
            booking: booking(&people, later),
        },
        now,
    ))
    .await;
    let coach_after = kinds_once(&app, &people.coach.0, 10).await;
    assert_eq!(coach_after.len(), 10);
    assert_eq!(coach_after.last().map(String::as_str), Some("booking_requested"));
    assert_eq!(kinds(&app, &people.client.0).await, client);
    assert_eq!(kinds(&app, &people.gym.0).await, gym);
}

#[tokio::test]
async fn a_confirmed_session_and_an_approved_court_are_reminded_a_day_before_and_a_cancelled_one_never() {
    let start = Utc::now();
    let clock = ManualClock::at(start);
    let app = TestApp::start_with_clock(clock.clone()).await;
    let people = People::register(&app).await;
    let session = booking(&people, start + Duration::days(3));
    let called_off = booking(&people, start + Duration::days(3));
    let court = reservation(&people, start + Duration::days(3));
    for event in [
        Event::BookingConfirmed {
            booking: session.clone(),
        },
        Event::BookingConfirmed {
            booking: called_off.clone(),
        },
        Event::BookingCancelled {
            booking: called_off.clone(),
            by: Party::Client,
            reason: None,
            late: false,
        },
        Event::ReservationApproved {
            reservation: court.clone(),
        },
    ] {
        app.publish(&envelope(event, start)).await;
    }
    kinds_once(&app, &people.coach.0, 3).await;

    // A day and a half before: nothing yet.
    clock.advance(Duration::hours(36));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !kinds(&app, &people.client.0)
            .await
            .contains(&"booking_reminder".to_owned())
    );

    // A day before: one reminder each for the session, the coach's for the court.
    clock.advance(Duration::hours(13));
    let client = kinds_once(&app, &people.client.0, 4).await;
    assert_eq!(
        client,
        [
            "welcome",
            "booking_confirmed",
            "booking_confirmed",
            "booking_reminder"
        ]
    );
    let coach = kinds_once(&app, &people.coach.0, 5).await;
    assert_eq!(coach.iter().filter(|k| *k == "booking_reminder").count(), 1);
    assert_eq!(coach.iter().filter(|k| *k == "reservation_reminder").count(), 1);

    // Later ticks send nothing more.
    clock.advance(Duration::hours(12));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(kinds(&app, &people.client.0).await.len(), 4);
    assert_eq!(kinds(&app, &people.coach.0).await.len(), 5);
}

#[tokio::test]
async fn notifications_are_marked_read_one_or_all_and_another_persons_is_not_found() {
    let app = TestApp::start().await;
    let people = People::register(&app).await;
    app.publish(&envelope(
        Event::BookingRequested {
            booking: booking(&people, Utc::now() + Duration::days(2)),
        },
        Utc::now(),
    ))
    .await;
    let inbox = eventually("the request", || async {
        let inbox = app.inbox(&people.coach.0).await;
        (inbox.len() == 2).then_some(inbox)
    })
    .await;
    let count = |token: String| {
        let mut client = app.client();
        async move {
            client
                .count_unread_notifications(authed(pb::CountUnreadNotificationsRequest {}, &token))
                .await
                .expect("count")
                .into_inner()
                .count
        }
    };
    assert_eq!(count(people.coach.0.clone()).await, 2);

    let mark = |token: String, notification_id: String| {
        let mut client = app.client();
        async move {
            client
                .mark_notification_read(authed(
                    pb::MarkNotificationReadRequest { notification_id },
                    &token,
                ))
                .await
        }
    };
    let newest = inbox[0].notification_id.clone();
    refused(
        mark(people.client.0.clone(), newest.clone()).await,
        Code::NotFound,
    );
    refused(
        mark(people.coach.0.clone(), Uuid::new_v4().to_string()).await,
        Code::NotFound,
    );
    mark(people.coach.0.clone(), newest.clone())
        .await
        .expect("the owner marks it read");
    mark(people.coach.0.clone(), newest.clone())
        .await
        .expect("marking it again is fine");
    assert_eq!(count(people.coach.0.clone()).await, 1);
    assert!(app.inbox(&people.coach.0).await[0].read_at.is_some());

    app.client()
        .mark_all_notifications_read(authed(pb::MarkAllNotificationsReadRequest {}, &people.coach.0))
        .await
        .expect("read all");
    assert_eq!(count(people.coach.0.clone()).await, 0);
    assert_eq!(count(people.client.0.clone()).await, 1);
}

#[tokio::test]
async fn an_admins_change_of_role_and_password_notifies_the_account() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, user) = app.register("client").await;

    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                role: Some("coach".into()),
                password: Some("a-new-password".into()),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .expect("the admin updates the user");

    let (token, _) = app
        .login(&user.email, "a-new-password")
        .await
        .expect("the new password signs in");
    let inbox = app.inbox(&token).await;
    let mut kinds: Vec<&str> = inbox.iter().map(|n| n.kind.as_str()).collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["password_changed", "role_changed", "welcome"]);
    let role = inbox
        .iter()
        .find(|n| n.kind == "role_changed")
        .expect("role_changed");
    assert_eq!(role.link, "/coach/dashboard");
}
