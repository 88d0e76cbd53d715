//! Closures of a gym location: court time on closed dates is not offered nor requestable, and
//! requests pending on them when the closure is made are denied with its reason.

use proto::gym::v1 as pb;
use tonic::{Code, Status};

use crate::helpers::{Actor, TestApp, in_days};

impl TestApp {
    async fn close(
        &self,
        gym: &Actor,
        location_id: &str,
        start: &str,
        end: &str,
        reason: Option<&str>,
    ) -> Result<pb::CreateClosureResponse, Status> {
        self.client()
            .create_closure(gym.req(pb::CreateClosureRequest {
                location_id: location_id.into(),
                start_date: start.into(),
                end_date: end.into(),
                reason: reason.map(Into::into),
            }))
            .await
            .map(|r| r.into_inner())
    }

    async fn closures(&self, gym: &Actor, location_id: &str) -> Result<Vec<pb::Closure>, Status> {
        self.client()
            .list_closures(gym.req(pb::ListClosuresRequest {
                location_id: location_id.into(),
            }))
            .await
            .map(|r| r.into_inner().closures)
    }

    async fn reopen(&self, gym: &Actor, closure_id: &str) -> Result<(), Status> {
        self.client()
            .delete_closure(gym.req(pb::DeleteClosureRequest {
                closure_id: closure_id.into(),
            }))
            .await
            .map(|_| ())
    }
}

#[tokio::test]
async fn a_closure_denies_pending_requests_on_its_dates_with_its_reason_and_hides_the_court_time() {
    let app = TestApp::spawn().await;
    let (setup, inside) = app.open_court_time().await; // in 7 days
    let outside = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(9), "10:00", "11:00")
        .await;
    let coach = app.coach();
    let pending = app.request(&coach, &inside.availability_id).await;
    let kept = app.request(&coach, &outside.availability_id).await;

    let made = app
        .close(
            &setup.gym,
            &setup.location.location_id,
            &in_days(6),
            &in_days(8),
            Some("Tournament"),
        )
        .await
        .unwrap();

    assert_eq!(made.denied_reservation_ids, vec![pending.reservation_id.clone()]);
    let closure = made.closure.unwrap();
    assert_eq!(closure.reason.as_deref(), Some("Tournament"));
    assert_eq!(app.status_of(&pending.reservation_id).await, "denied");
    assert_eq!(app.status_of(&kept.reservation_id).await, "pending");
    let denied = app
        .coach_reservations(&coach)
        .await
        .into_iter()
        .find(|r| r.reservation_id == pending.reservation_id)
        .unwrap();
    assert_eq!(
        denied.cancellation_reason.as_deref(),
        Some(
            format!(
                "this location is closed from {} to {} (Tournament)",
                in_days(6),
                in_days(8)
            )
            .as_str()
        )
    );
    assert!(
        app.events_of(&pending.reservation_id)
            .await
            .contains(&"reservation_denied".to_owned())
    );

    let open: Vec<_> = app
        .open_availability(&coach, &setup.location.location_id)
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.availability_id)
        .collect();
    assert_eq!(open, vec![outside.availability_id.clone()]);
    let refused = app
        .try_request(&app.coach(), &inside.availability_id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(
        refused.message().contains("this location is closed"),
        "{}",
        refused.message()
    );

    assert_eq!(
        app.closures(&setup.gym, &setup.location.location_id)
            .await
            .unwrap(),
        vec![closure.clone()]
    );
    app.reopen(&setup.gym, &closure.closure_id).await.unwrap();
    app.request(&app.coach(), &inside.availability_id).await;
    assert!(
        app.closures(&setup.gym, &setup.location.location_id)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn only_the_owning_gym_closes_lists_or_reopens_a_location() {
    let app = TestApp::spawn().await;
    let (setup, _) = app.open_court_time().await;
    let other = app.gym_with_court("Other Gym").await;
    let location = &setup.location.location_id;

    let theirs = app
        .close(&other.gym, location, &in_days(1), &in_days(2), None)
        .await
        .unwrap_err();
    assert_eq!(theirs.code(), Code::PermissionDenied);
    let by_coach = app
        .close(&app.coach(), location, &in_days(1), &in_days(2), None)
        .await
        .unwrap_err();
    assert_eq!(by_coach.code(), Code::PermissionDenied);
    let listed = app.closures(&other.gym, location).await.unwrap_err();
    assert_eq!(listed.code(), Code::PermissionDenied);

    let closure = app
        .close(&setup.gym, location, &in_days(1), &in_days(2), None)
        .await
        .unwrap()
        .closure
        .unwrap();
    let reopened = app.reopen(&other.gym, &closure.closure_id).await.unwrap_err();
    assert_eq!(reopened.code(), Code::NotFound);
    assert_eq!(app.closures(&setup.gym, location).await.unwrap().len(), 1);

    let reversed = app
        .close(&setup.gym, location, &in_days(3), &in_days(2), None)
        .await
        .unwrap_err();
    assert_eq!(reversed.code(), Code::InvalidArgument);
    assert!(
        reversed.message().contains("must not be before"),
        "{}",
        reversed.message()
    );
}
