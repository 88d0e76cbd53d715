//! One availability is never reserved twice, however many approvals and requests race.

use futures::future::join_all;
use tonic::Code;

use crate::helpers::TestApp;

async fn count_with_status(app: &TestApp, availability_id: &str, status: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(
        "select count(*) from gym.court_reservation where availability_id = $1::uuid and status = $2",
    )
    .bind(availability_id)
    .bind(status)
    .fetch_one(&app.db)
    .await
    .unwrap()
}

#[tokio::test]
async fn twenty_concurrent_approvals_reserve_the_time_exactly_once() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;
    let mut requests = Vec::new();
    for _ in 0..20 {
        requests.push(app.request(&app.coach(), &availability.availability_id).await);
    }

    let outcomes = join_all(requests.iter().map(|r| {
        let mut client = app.client();
        let request = setup.gym.req(proto::gym::v1::ApproveReservationRequest {
            reservation_id: r.reservation_id.clone(),
        });
        tokio::spawn(async move { client.approve_reservation(request).await })
    }))
    .await;

    let approved = outcomes.iter().filter(|o| matches!(o, Ok(Ok(_)))).count();
    let refused = outcomes
        .iter()
        .filter(|o| matches!(o, Ok(Err(e)) if e.code() == Code::FailedPrecondition))
        .count();
    assert_eq!((approved, refused), (1, 19), "{outcomes:?}");
    let id = &availability.availability_id;
    assert_eq!(count_with_status(&app, id, "approved").await, 1);
    assert_eq!(count_with_status(&app, id, "denied").await, 19);
    assert!(app.is_reserved(id).await);
}

#[tokio::test]
async fn twenty_coaches_requesting_while_the_gym_approves_reserve_the_time_exactly_once() {
    let app = TestApp::spawn().await;
    let (setup, availability) = app.open_court_time().await;

    // Each task: a new coach requests the time, and the gym approves that request at once.
    let outcomes = join_all((0..20).map(|_| {
        let (coach, gym) = (app.coach(), setup.gym.clone());
        let mut client = app.client();
        let availability_id = availability.availability_id.clone();
        tokio::spawn(async move {
            let reservation = client
                .create_court_reservation(
                    coach.req(proto::gym::v1::CreateCourtReservationRequest { availability_id }),
                )
                .await?
                .into_inner()
                .reservation
                .expect("a reservation");
            client
                .approve_reservation(gym.req(proto::gym::v1::ApproveReservationRequest {
                    reservation_id: reservation.reservation_id,
                }))
                .await
        })
    }))
    .await;

    let approved = outcomes.iter().filter(|o| matches!(o, Ok(Ok(_)))).count();
    let refused = outcomes
        .iter()
        .filter(|o| matches!(o, Ok(Err(e)) if e.code() == Code::FailedPrecondition))
        .count();
    assert_eq!((approved, refused), (1, 19), "{outcomes:?}");
    let id = &availability.availability_id;
    assert_eq!(count_with_status(&app, id, "approved").await, 1);
    // No request was left pending beside the approval.
    assert_eq!(count_with_status(&app, id, "pending").await, 0);
    assert!(app.is_reserved(id).await);
}
