//! Reactions to identity's events: a gym that leaves withdraws its open court time, denies its
//! pending requests and leaves the directory; a coach that leaves has their pending requests
//! cancelled; a redelivered event changes nothing.

use platform::{auth::Role, events::Event};
use proto::gym::v1 as pb;
use uuid::Uuid;

use crate::helpers::{Actor, TestApp, eventually, in_days};

async fn directory(app: &TestApp, coach: &Actor) -> Vec<pb::GymLocation> {
    app.client()
        .list_gym_locations(coach.req(pb::ListGymLocationsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .locations
}

#[tokio::test]
async fn a_deleted_gym_withdraws_its_open_time_denies_its_pending_requests_and_leaves_the_directory() {
    let app = TestApp::spawn().await;
    let (setup, requested) = app.open_court_time().await;
    let reserved = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(8), "10:00", "11:00")
        .await;
    let coach = app.coach();
    let pending = app.request(&coach, &requested.availability_id).await;
    let approved = app.request(&coach, &reserved.availability_id).await;
    app.approve(&setup.gym, &approved.reservation_id).await.unwrap();

    app.publish(
        Uuid::new_v4(),
        Event::UserDeleted {
            user_id: setup.gym.id,
            role: Role::Gym,
        },
    )
    .await;

    eventually("the pending request is denied", || async {
        app.status_of(&pending.reservation_id).await == "denied"
    })
    .await;
    let location = &setup.location.location_id;
    assert!(app.open_availability(&coach, location).await.is_err());
    assert!(directory(&app, &coach).await.is_empty());
    assert!(
        app.try_request(&app.coach(), &requested.availability_id)
            .await
            .is_err()
    );
    // History stays: the approved reservation keeps its names.
    let history = app.coach_reservations(&coach).await;
    let kept = history
        .iter()
        .find(|r| r.reservation_id == approved.reservation_id)
        .unwrap();
    assert_eq!(
        (kept.status.as_str(), kept.gym_name.as_str()),
        ("approved", "Hoops Arena")
    );
}

#[tokio::test]
async fn a_gym_that_becomes_a_client_withdraws_its_open_time() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;

    app.publish(
        Uuid::new_v4(),
        Event::RoleChanged {
            user_id: setup.gym.id,
            old_role: Role::Gym,
            new_role: Role::Client,
        },
    )
    .await;

    eventually("the gym leaves the directory", || async {
        directory(&app, &app.coach()).await.is_empty()
    })
    .await;
    let error = app
        .try_request(&app.coach(), &availability.availability_id)
        .await
        .unwrap_err();
    assert_eq!(error.code(), tonic::Code::FailedPrecondition);
}

#[tokio::test]
async fn a_deleted_coach_has_their_pending_requests_cancelled_and_others_are_untouched() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let (leaving, staying) = (app.coach(), app.coach());
    let theirs = app.request(&leaving, &availability.availability_id).await;
    let other = app.request(&staying, &availability.availability_id).await;

    app.publish(
        Uuid::new_v4(),
        Event::UserDeleted {
            user_id: leaving.id,
            role: Role::Coach,
        },
    )
    .await;

    eventually("the coach's request is cancelled", || async {
        app.status_of(&theirs.reservation_id).await == "cancelled"
    })
    .await;
    assert_eq!(app.status_of(&other.reservation_id).await, "pending");
    assert_eq!(app.pending(&setup.gym).await, vec![other]);
}

#[tokio::test]
async fn a_redelivered_event_is_applied_only_once() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let coach = app.coach();
    let first = app.request(&coach, &availability.availability_id).await;
    let event_id = Uuid::new_v4();
    let deleted = Event::UserDeleted {
        user_id: coach.id,
        role: Role::Coach,
    };
    app.publish(event_id, deleted.clone()).await;
    eventually("the first request is cancelled", || async {
        app.status_of(&first.reservation_id).await == "cancelled"
    })
    .await;
    let later = app.request(&coach, &availability.availability_id).await;
    let marker_coach = app.coach();
    let marker = app.request(&marker_coach, &availability.availability_id).await;

    app.publish(event_id, deleted).await;
    app.publish(
        Uuid::new_v4(),
        Event::UserDeleted {
            user_id: marker_coach.id,
            role: Role::Coach,
        },
    )
    .await;

    // Events are applied in order: once the marker's effect shows, the redelivery was handled.
    eventually("the marker event is applied", || async {
        app.status_of(&marker.reservation_id).await == "cancelled"
    })
    .await;
    assert_eq!(app.status_of(&later.reservation_id).await, "pending");
}
