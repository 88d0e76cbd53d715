//! Court reservations: coaches request open court time; the owning gym approves or denies; the
//! coach cancels their own pending request. Two gyms' or two coaches' data never mix.

use platform::auth::Role;
use proto::gym::v1 as pb;
use tonic::Code;

use crate::helpers::{TestApp, days_ago, in_days};

#[tokio::test]
async fn a_coach_requests_open_court_time_and_gets_a_pending_reservation_with_names() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let coach = app.coach();

    let reservation = app.request(&coach, &availability.availability_id).await;

    assert_eq!(reservation.status, "pending");
    assert_eq!(reservation.coach_id, coach.id.to_string());
    assert_eq!(reservation.availability_id, availability.availability_id);
    assert_eq!(reservation.gym_name, "Hoops Arena");
    assert_eq!(reservation.location_name, "Downtown");
    assert_eq!(reservation.court_name, "Court 1");
    assert_eq!(reservation.date, in_days(7));
    assert_eq!(
        (reservation.start_time.as_str(), reservation.end_time.as_str()),
        ("10:00", "11:00")
    );
}

#[tokio::test]
async fn only_a_coach_can_request_court_time() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;

    let by_gym = app
        .try_request(&setup.gym, &availability.availability_id)
        .await
        .unwrap_err();
    let by_client = app
        .try_request(&app.actor(Role::Client), &availability.availability_id)
        .await
        .unwrap_err();

    assert_eq!(by_gym.code(), Code::PermissionDenied);
    assert_eq!(by_client.code(), Code::PermissionDenied);
    assert!(app.pending(&setup.gym).await.is_empty());
}

#[tokio::test]
async fn requesting_unknown_court_time_is_not_found() {
    let app = TestApp::spawn().await;
    let coach = app.coach();

    let error = app
        .try_request(&coach, &uuid::Uuid::new_v4().to_string())
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
    assert_eq!(error.message(), "this court availability does not exist");
}

#[tokio::test]
async fn a_second_pending_request_by_the_same_coach_is_refused() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let coach = app.coach();
    app.request(&coach, &availability.availability_id).await;

    let error = app
        .try_request(&coach, &availability.availability_id)
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::AlreadyExists);
    assert_eq!(
        error.message(),
        "you already have a pending request for this court time"
    );
    assert_eq!(app.pending(&setup.gym).await.len(), 1);
}

#[tokio::test]
async fn a_coach_may_request_again_after_cancelling() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let coach = app.coach();
    let first = app.request(&coach, &availability.availability_id).await;
    app.cancel(&coach, &first.reservation_id).await.unwrap();

    let again = app.try_request(&coach, &availability.availability_id).await;

    assert_eq!(again.unwrap().status, "pending");
}

#[tokio::test]
async fn reserved_court_time_cannot_be_requested() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let winner = app.request(&app.coach(), &availability.availability_id).await;
    app.approve(&setup.gym, &winner.reservation_id).await.unwrap();

    let error = app
        .try_request(&app.coach(), &availability.availability_id)
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::FailedPrecondition);
    assert_eq!(error.message(), "this court time is already reserved");
}

#[tokio::test]
async fn past_court_time_cannot_be_requested() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    app.move_to_date(&availability.availability_id, &days_ago(1))
        .await;

    let error = app
        .try_request(&app.coach(), &availability.availability_id)
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::FailedPrecondition);
    assert!(
        error.message().starts_with("this court time started at "),
        "{}",
        error.message()
    );
}

#[tokio::test]
async fn approving_one_of_two_competing_requests_denies_the_other_and_reserves_the_time() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let (first_coach, second_coach) = (app.coach(), app.coach());
    let first = app.request(&first_coach, &availability.availability_id).await;
    let second = app.request(&second_coach, &availability.availability_id).await;

    let approved = app.approve(&setup.gym, &first.reservation_id).await.unwrap();

    assert_eq!(approved.status, "approved");
    assert_eq!(app.status_of(&second.reservation_id).await, "denied");
    assert!(app.is_reserved(&availability.availability_id).await);
    let listed = app.gym_availability(&setup.gym).await;
    assert!(listed[0].is_reserved);
    assert!(app.pending(&setup.gym).await.is_empty());
    let seen_by_loser = app.coach_reservations(&second_coach).await;
    assert_eq!(seen_by_loser[0].status, "denied");
}

#[tokio::test]
async fn the_gym_sees_pending_requests_on_its_own_courts_only() {
    let app = TestApp::spawn().await;
    let (mine, my_time) = app.open_court_time().await;
    let (_, their_time) = app.open_court_time().await;
    let coach = app.coach();
    let on_mine = app.request(&coach, &my_time.availability_id).await;
    app.request(&coach, &their_time.availability_id).await;

    let pending = app.pending(&mine.gym).await;

    assert_eq!(pending, vec![on_mine]);
    assert_eq!(pending[0].coach_id, coach.id.to_string());
}

#[tokio::test]
async fn a_gym_denies_a_pending_request_and_the_time_stays_open() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let coach = app.coach();
    let reservation = app.request(&coach, &availability.availability_id).await;

    let denied = app.deny(&setup.gym, &reservation.reservation_id).await.unwrap();

    assert_eq!(denied.status, "denied");
    assert!(!app.is_reserved(&availability.availability_id).await);
    assert_eq!(app.coach_reservations(&coach).await[0].status, "denied");
}

#[tokio::test]
async fn a_decided_request_cannot_be_approved_or_denied_again() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let reservation = app.request(&app.coach(), &availability.availability_id).await;
    app.deny(&setup.gym, &reservation.reservation_id).await.unwrap();

    let approve = app
        .approve(&setup.gym, &reservation.reservation_id)
        .await
        .unwrap_err();
    let deny = app
        .deny(&setup.gym, &reservation.reservation_id)
        .await
        .unwrap_err();

    assert_eq!(approve.code(), Code::FailedPrecondition);
    assert_eq!(
        approve.message(),
        "this reservation is already denied; only a pending request can be approved"
    );
    assert_eq!(deny.code(), Code::FailedPrecondition);
    assert_eq!(app.status_of(&reservation.reservation_id).await, "denied");
    assert!(!app.is_reserved(&availability.availability_id).await);
}

#[tokio::test]
async fn another_gym_cannot_approve_or_deny_and_the_request_stays_pending() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let reservation = app.request(&app.coach(), &availability.availability_id).await;
    let intruder = app.gym();

    let approve = app
        .approve(&intruder, &reservation.reservation_id)
        .await
        .unwrap_err();
    let deny = app
        .deny(&intruder, &reservation.reservation_id)
        .await
        .unwrap_err();

    assert_eq!(approve.code(), Code::PermissionDenied);
    assert_eq!(deny.code(), Code::PermissionDenied);
    assert_eq!(app.status_of(&reservation.reservation_id).await, "pending");
    assert!(!app.is_reserved(&availability.availability_id).await);
}

#[tokio::test]
async fn a_coach_cannot_approve_their_own_request() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let coach = app.coach();
    let reservation = app.request(&coach, &availability.availability_id).await;

    let error = app
        .approve(&coach, &reservation.reservation_id)
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
    assert_eq!(app.status_of(&reservation.reservation_id).await, "pending");
}

#[tokio::test]
async fn approving_past_court_time_is_refused() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let reservation = app.request(&app.coach(), &availability.availability_id).await;
    app.move_to_date(&availability.availability_id, &days_ago(1))
        .await;

    let error = app
        .approve(&setup.gym, &reservation.reservation_id)
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::FailedPrecondition);
    assert_eq!(app.status_of(&reservation.reservation_id).await, "pending");
}

#[tokio::test]
async fn a_coach_cancels_their_own_pending_request() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let coach = app.coach();
    let reservation = app.request(&coach, &availability.availability_id).await;

    app.cancel(&coach, &reservation.reservation_id).await.unwrap();

    assert_eq!(app.coach_reservations(&coach).await[0].status, "cancelled");
    assert!(app.pending(&setup.gym).await.is_empty());
}

#[tokio::test]
async fn a_coach_cannot_cancel_another_coachs_request_and_it_stays_pending() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let owner = app.coach();
    let reservation = app.request(&owner, &availability.availability_id).await;

    let error = app
        .cancel(&app.coach(), &reservation.reservation_id)
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
    assert_eq!(app.status_of(&reservation.reservation_id).await, "pending");
}

#[tokio::test]
async fn an_approved_request_cannot_be_cancelled() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let coach = app.coach();
    let reservation = app.request(&coach, &availability.availability_id).await;
    app.approve(&setup.gym, &reservation.reservation_id)
        .await
        .unwrap();

    let error = app.cancel(&coach, &reservation.reservation_id).await.unwrap_err();

    assert_eq!(error.code(), Code::FailedPrecondition);
    assert_eq!(
        error.message(),
        "this reservation is already approved; only a pending request can be cancelled"
    );
    assert_eq!(app.status_of(&reservation.reservation_id).await, "approved");
}

#[tokio::test]
async fn cancelling_an_unknown_reservation_is_not_found() {
    let app = TestApp::spawn().await;

    let error = app
        .cancel(&app.coach(), &uuid::Uuid::new_v4().to_string())
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
}

#[tokio::test]
async fn a_coach_lists_only_their_own_reservations_newest_first() {
    let app = TestApp::spawn().await;
    let (setup, earlier_time) = app.open_court_time().await;
    let later_time = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(8), "10:00", "11:00")
        .await;
    let coach = app.coach();
    let older = app.request(&coach, &earlier_time.availability_id).await;
    let newer = app.request(&coach, &later_time.availability_id).await;
    app.request(&app.coach(), &earlier_time.availability_id).await;

    let listed = app.coach_reservations(&coach).await;

    assert_eq!(listed, vec![newer, older]);
}

#[tokio::test]
async fn a_gym_cannot_list_a_coachs_reservations() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .client()
        .list_coach_reservations(gym.req(pb::ListCoachReservationsRequest::default()))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
}

#[tokio::test]
async fn a_request_retried_with_its_idempotency_key_is_answered_the_request_it_made() {
    let app = TestApp::spawn().await;
    let (_, availability) = app.open_court_time().await;
    let coach = app.coach();
    let keyed = |key: &str| {
        let mut request = coach.req(pb::CreateCourtReservationRequest {
            availability_id: availability.availability_id.clone(),
        });
        request
            .metadata_mut()
            .insert("idempotency-key", key.parse().unwrap());
        request
    };

    let first = app
        .client()
        .create_court_reservation(keyed("key-1"))
        .await
        .unwrap();
    let retry = app
        .client()
        .create_court_reservation(keyed("key-1"))
        .await
        .unwrap();
    let other_key = app
        .client()
        .create_court_reservation(keyed("key-2"))
        .await
        .unwrap_err();

    let (first, retry) = (
        first.into_inner().reservation.unwrap(),
        retry.into_inner().reservation.unwrap(),
    );
    assert_eq!(
        retry.reservation_id, first.reservation_id,
        "the retry finds the request, not a conflict"
    );
    assert_eq!(
        other_key.code(),
        Code::AlreadyExists,
        "a new key is a new request: {other_key:?}"
    );
}
