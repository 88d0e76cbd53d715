//! Closures of a gym location: court time on closed dates is not offered nor requestable, and
//! requests pending on them when the closure is made are denied with its reason; an approval
//! never lands inside one.

use proto::gym::v1 as pb;
use tonic::{Code, Status};

use crate::helpers::{Actor, TestApp, eventually, in_days};

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

#[tokio::test]
async fn a_request_on_a_closed_date_cannot_be_approved() {
    let app = TestApp::spawn().await;
    let (setup, inside) = app.open_court_time().await; // in 7 days
    let pending = app.request(&app.coach(), &inside.availability_id).await;
    // The closure as it stands when it was committed while the approval was under way: its denial
    // of pending requests passed this one by. The API would deny the request, so it goes in here.
    sqlx::query(
        "insert into gym.closure (closure_id, location_id, start_date, end_date, reason)
         values ($1, $2::uuid, $3::date, $4::date, 'Tournament')",
    )
    .bind(uuid::Uuid::now_v7())
    .bind(&setup.location.location_id)
    .bind(in_days(6))
    .bind(in_days(8))
    .execute(&app.db)
    .await
    .unwrap();

    let refused = app
        .approve(&setup.gym, &pending.reservation_id)
        .await
        .unwrap_err();

    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        format!(
            "this location is closed from {} to {} (Tournament); this request cannot be approved",
            in_days(6),
            in_days(8)
        )
    );
    assert_eq!(app.status_of(&pending.reservation_id).await, "pending");
    assert!(!app.is_reserved(&inside.availability_id).await);
}

#[tokio::test]
async fn an_approval_waits_for_a_closure_being_made_and_is_then_refused() {
    let app = TestApp::spawn().await;
    let (setup, inside) = app.open_court_time().await; // in 7 days
    let pending = app.request(&app.coach(), &inside.availability_id).await;
    // A closure being made, held open: it has locked its location, as CreateClosure does first.
    let mut closing = app.db.begin().await.unwrap();
    sqlx::query("select 1 from gym.gym_location where location_id = $1::uuid for update")
        .bind(&setup.location.location_id)
        .execute(&mut *closing)
        .await
        .unwrap();

    let mut approval = tokio::spawn({
        let mut client = app.client();
        let request = setup.gym.req(pb::ApproveReservationRequest {
            reservation_id: pending.reservation_id.clone(),
        });
        async move { client.approve_reservation(request).await }
    });
    let waiting = async {
        eventually("the approval waits on a lock", || async {
            sqlx::query_scalar::<_, i64>(
                "select count(*) from pg_stat_activity
                 where datname = current_database() and wait_event_type = 'Lock'",
            )
            .fetch_one(&app.db)
            .await
            .unwrap()
                > 0
        })
        .await
    };
    tokio::select! {
        approved = &mut approval => panic!("approved while the closure was being made: {approved:?}"),
        () = waiting => {}
    }
    sqlx::query(
        "insert into gym.closure (closure_id, location_id, start_date, end_date, reason)
         values ($1, $2::uuid, $3::date, $4::date, null)",
    )
    .bind(uuid::Uuid::now_v7())
    .bind(&setup.location.location_id)
    .bind(in_days(7))
    .bind(in_days(7))
    .execute(&mut *closing)
    .await
    .unwrap();
    closing.commit().await.unwrap();

    let refused = approval.await.unwrap().unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(
        refused
            .message()
            .starts_with(&format!("this location is closed on {}", in_days(7))),
        "{}",
        refused.message()
    );
    assert!(!app.is_reserved(&inside.availability_id).await);
}
