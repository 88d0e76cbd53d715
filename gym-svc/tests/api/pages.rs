//! The lists that grow, in pages (`limit`, `after`): the gym's court availability, the gym's
//! pending requests and the coach's reservations. Pages are disjoint, keep the whole list's order,
//! a keyset the service did not write is refused, and a page is one statement however long the list.

use proto::gym::v1 as pb;
use tonic::Code;

use crate::helpers::{Actor, TestApp, in_days};

/// Court time on `days` days, 18:00-19:00 and 20:00-21:00 each, on the court.
async fn offer_days(
    app: &TestApp,
    gym: &Actor,
    court_id: &str,
    days: std::ops::Range<u64>,
) -> Vec<pb::CourtAvailability> {
    let mut offered = Vec::new();
    for day in days {
        for (start, end) in [("18:00", "19:00"), ("20:00", "21:00")] {
            offered.push(app.offer(gym, court_id, &in_days(day), start, end).await);
        }
    }
    offered
}

/// Every page of one list, `limit` at a time, following `next`; each page's ids.
async fn walk<F, Fut>(limit: u32, mut page: F) -> Vec<Vec<String>>
where
    F: FnMut(u32, String) -> Fut,
    Fut: std::future::Future<Output = (Vec<String>, String)>,
{
    let mut pages = Vec::new();
    let mut after = String::new();
    loop {
        let (ids, next) = page(limit, after).await;
        pages.push(ids);
        if next.is_empty() {
            return pages;
        }
        after = next;
        assert!(pages.len() < 50, "the pages never end");
    }
}

async fn availability_page(
    app: &TestApp,
    gym: &Actor,
    limit: u32,
    after: String,
) -> Result<(Vec<String>, String), tonic::Status> {
    let reply = app
        .client()
        .list_court_availability(gym.req(pb::ListCourtAvailabilityRequest { limit, after }))
        .await?
        .into_inner();
    Ok((
        reply
            .availability
            .into_iter()
            .map(|a| a.availability_id)
            .collect(),
        reply.next,
    ))
}

async fn coach_page(app: &TestApp, coach: &Actor, limit: u32, after: String) -> (Vec<String>, String) {
    let reply = app
        .client()
        .list_coach_reservations(coach.req(pb::ListCoachReservationsRequest { limit, after }))
        .await
        .expect("a page of the coach's reservations")
        .into_inner();
    (
        reply.reservations.into_iter().map(|r| r.reservation_id).collect(),
        reply.next,
    )
}

async fn pending_page(app: &TestApp, gym: &Actor, limit: u32, after: String) -> (Vec<String>, String) {
    let reply = app
        .client()
        .list_pending_reservations(gym.req(pb::ListPendingReservationsRequest { limit, after }))
        .await
        .expect("a page of pending requests")
        .into_inner();
    (
        reply.reservations.into_iter().map(|r| r.reservation_id).collect(),
        reply.next,
    )
}

/// The fewest statements one call of `call` cost over three (the scheduler's tick can only add to
/// one of them).
async fn fewest_statements<F, Fut, T>(app: &TestApp, mut call: F) -> usize
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = T>,
{
    let mut fewest = usize::MAX;
    for _ in 0..3 {
        let before = app.statements_run();
        call().await;
        fewest = fewest.min(app.statements_run() - before);
    }
    fewest
}

#[tokio::test]
async fn the_gym_s_court_availability_comes_in_disjoint_pages_in_order_of_one_statement() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Paged Hoops").await;
    let second = app
        .create_court(&setup.gym, &setup.location.location_id, "Court 2")
        .await;
    offer_days(&app, &setup.gym, &setup.court.court_id, 1..4).await;
    offer_days(&app, &setup.gym, &second.court_id, 1..4).await;
    let whole: Vec<String> = app
        .gym_availability(&setup.gym)
        .await
        .into_iter()
        .map(|a| a.availability_id)
        .collect();
    assert_eq!(whole.len(), 12);

    let (app_ref, gym) = (&app, &setup.gym);
    let pages = walk(5, |limit, after| async move {
        availability_page(app_ref, gym, limit, after).await.unwrap()
    })
    .await;

    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [5, 5, 2]);
    assert_eq!(
        pages.concat(),
        whole,
        "the pages are the whole list, in its order, nothing twice"
    );
    let few = fewest_statements(&app, || availability_page(&app, &setup.gym, 5, String::new())).await;
    offer_days(&app, &setup.gym, &setup.court.court_id, 4..30).await;
    let many = fewest_statements(&app, || availability_page(&app, &setup.gym, 5, String::new())).await;
    assert_eq!(
        (few, many),
        (1, 1),
        "a page is one statement, however much court time there is"
    );

    for forged in [
        "[1,2]",
        "{",
        "[\"2030-01-01\",\"18:00:00\",\"Court 1\",\"not an id\"]",
    ] {
        let refused = availability_page(&app, &setup.gym, 5, forged.into())
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{forged}");
    }
}

#[tokio::test]
async fn reservations_come_in_pages_for_the_coach_and_the_gym_of_one_statement() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Paged Reservations").await;
    let offered = offer_days(&app, &setup.gym, &setup.court.court_id, 1..4).await;
    let coach = app.coach();
    for time in &offered[..5] {
        app.request(&coach, &time.availability_id).await;
    }
    let whole_coach: Vec<String> = app
        .coach_reservations(&coach)
        .await
        .into_iter()
        .map(|r| r.reservation_id)
        .collect();
    let whole_pending: Vec<String> = app
        .pending(&setup.gym)
        .await
        .into_iter()
        .map(|r| r.reservation_id)
        .collect();
    assert_eq!((whole_coach.len(), whole_pending.len()), (5, 5));

    let coach_pages = walk(2, |limit, after| coach_page(&app, &coach, limit, after)).await;
    let pending_pages = walk(2, |limit, after| pending_page(&app, &setup.gym, limit, after)).await;

    assert_eq!(coach_pages.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 1]);
    assert_eq!(coach_pages.concat(), whole_coach);
    assert_eq!(pending_pages.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 1]);
    assert_eq!(pending_pages.concat(), whole_pending);
    let coach_cost = fewest_statements(&app, || coach_page(&app, &coach, 2, String::new())).await;
    let pending_cost = fewest_statements(&app, || pending_page(&app, &setup.gym, 2, String::new())).await;
    assert_eq!((coach_cost, pending_cost), (1, 1), "a page is one statement");

    // A request made while the coach pages (newest, so on the first page) shifts no later page.
    let (_, next) = coach_page(&app, &coach, 2, String::new()).await;
    let before = coach_page(&app, &coach, 2, next.clone()).await;
    app.request(&coach, &offered[5].availability_id).await;
    assert_eq!(coach_page(&app, &coach, 2, next).await, before);
}
