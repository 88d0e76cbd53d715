//! Reviews: each write that changes a coach's figures records them, with a growing revision, in a
//! `coach_rating_changed` event in booking's outbox, in its own transaction; concurrent reviews of
//! one coach queue, so the last revision counts every one of them.

use chrono::Weekday;
use proto::booking::v1 as pb;
use serde_json::Value;

use crate::helpers::{TestApp, User, as_user, next};

/// A completed booking of `client` with `coach` on the `weeks`th Monday from the next; returns
/// its id. (Completed by hand: the lifecycle's own tests cover how sessions complete.)
async fn completed(app: &TestApp, client: &User, coach: &User, slot: &str, weeks: u64) -> String {
    let date = next(Weekday::Mon) + chrono::Days::new(7 * weeks);
    let booking = app.book(client, coach.id, slot, date).await.unwrap();
    sqlx::query("update booking.booking set status = 'completed' where booking_id = $1::uuid")
        .bind(&booking.booking_id)
        .execute(&app.db)
        .await
        .unwrap();
    booking.booking_id
}

async fn post(app: &TestApp, client: &User, booking_id: &str, rating: i32) -> pb::Review {
    app.booking
        .clone()
        .post_review(as_user(
            client,
            pb::PostReviewRequest {
                booking_id: booking_id.into(),
                rating,
                comment: None,
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .review
        .unwrap()
}

/// The coach's `coach_rating_changed` events, as (count, sum, revision), by revision.
async fn figures(app: &TestApp, coach: &User) -> Vec<(i64, i64, i64)> {
    let events: Vec<Value> = sqlx::query_scalar(
        "select payload from booking.outbox
         where payload->>'type' = 'coach_rating_changed' and payload->>'coach_id' = $1
         order by (payload->>'revision')::int8",
    )
    .bind(coach.id.to_string())
    .fetch_all(&app.db)
    .await
    .unwrap();
    events
        .iter()
        .map(|e| {
            (
                e["rating_count"].as_i64().unwrap(),
                e["rating_sum"].as_i64().unwrap(),
                e["revision"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn posting_and_hiding_reviews_tell_the_coach_s_figures_with_a_growing_revision() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot = app.weekly_slot(&coach, "Monday", "15:00", "16:00").await;
    let (ann, bob) = (app.client(), app.client());
    let first = completed(&app, &ann, &coach, &slot, 0).await;
    let second = completed(&app, &bob, &coach, &slot, 1).await;

    post(&app, &ann, &first, 5).await;
    let review = post(&app, &bob, &second, 2).await;
    app.booking
        .clone()
        .hide_review(as_user(
            &app.admin(),
            pb::HideReviewRequest {
                review_id: review.review_id.clone(),
                reason: "Spam".into(),
            },
        ))
        .await
        .unwrap();

    assert_eq!(figures(&app, &coach).await, [(1, 5, 1), (2, 7, 2), (1, 5, 3)]);
    let hidden_by: Option<uuid::Uuid> =
        sqlx::query_scalar("select hidden_by from booking.review where review_id = $1::uuid")
            .bind(&review.review_id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert!(hidden_by.is_some(), "the admin who hid it is kept");
}

#[tokio::test]
async fn concurrent_reviews_of_one_coach_each_get_a_revision_and_the_last_counts_them_all() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot = app.weekly_slot(&coach, "Monday", "15:00", "16:00").await;
    let mut sessions = Vec::new();
    for week in 0..6 {
        let client = app.client();
        let booking_id = completed(&app, &client, &coach, &slot, week).await;
        sessions.push((client, booking_id));
    }

    let posts = sessions
        .iter()
        .map(|(client, booking_id)| post(&app, client, booking_id, 4));
    futures::future::join_all(posts).await;

    let told = figures(&app, &coach).await;
    assert_eq!(told.iter().map(|f| f.2).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(told.iter().map(|f| f.0).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(told.last(), Some(&(6, 24, 6)));
}

async fn all_reviews(
    app: &TestApp,
    who: &User,
    limit: u32,
    after: &str,
) -> Result<pb::ListAllReviewsResponse, tonic::Status> {
    app.booking
        .clone()
        .list_all_reviews(as_user(
            who,
            pb::ListAllReviewsRequest {
                limit,
                after: after.into(),
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn the_admin_pages_every_review_newest_first_hidden_ones_too_one_statement_a_page() {
    let app = TestApp::spawn().await;
    let (coach, other_coach) = (app.coach(), app.coach());
    let slot = app.weekly_slot(&coach, "Monday", "15:00", "16:00").await;
    let other_slot = app.weekly_slot(&other_coach, "Monday", "15:00", "16:00").await;
    let mut posted = Vec::new();
    for week in 0..3 {
        let (client, other_client) = (app.client(), app.client());
        let booking_id = completed(&app, &client, &coach, &slot, week).await;
        posted.push(post(&app, &client, &booking_id, 5).await.review_id);
        let booking_id = completed(&app, &other_client, &other_coach, &other_slot, week).await;
        posted.push(post(&app, &other_client, &booking_id, 3).await.review_id);
    }
    let admin = app.admin();
    app.booking
        .clone()
        .hide_review(as_user(
            &admin,
            pb::HideReviewRequest {
                review_id: posted[2].clone(),
                reason: "Spam".into(),
            },
        ))
        .await
        .unwrap();

    // The relay publishes the reviews' events first (its statements would count with a page's).
    for _ in 0..100 {
        let unpublished: i64 =
            sqlx::query_scalar("select count(*) from booking.outbox where published_at is null")
                .fetch_one(&app.db)
                .await
                .unwrap();
        if unpublished == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // The fewest statements over three reads of each page: the relay's polls can only add.
    let (mut seen, mut after) = (Vec::new(), String::new());
    loop {
        let mut fewest = usize::MAX;
        let mut page = pb::ListAllReviewsResponse::default();
        for _ in 0..3 {
            let before = app.statements_run();
            page = all_reviews(&app, &admin, 4, &after).await.unwrap();
            fewest = fewest.min(app.statements_run() - before);
        }
        assert_eq!(fewest, 1, "a page is one statement");
        seen.extend(page.reviews);
        if page.next.is_empty() {
            break;
        }
        after = page.next;
    }
    let ids: Vec<&str> = seen.iter().map(|r| r.review_id.as_str()).collect();
    let newest_first: Vec<&str> = posted.iter().rev().map(String::as_str).collect();
    assert_eq!(ids, newest_first, "every review once, newest first, across pages");
    let hidden = seen.iter().find(|r| r.review_id == posted[2]).unwrap();
    assert!(hidden.hidden);
    assert_eq!(hidden.hidden_reason.as_deref(), Some("Spam"));

    for who in [&coach, &app.client()] {
        let denied = all_reviews(&app, who, 4, "").await.unwrap_err();
        assert_eq!(denied.code(), tonic::Code::PermissionDenied, "{denied:?}");
    }
}

#[tokio::test]
async fn a_posted_review_is_told_as_review_posted_with_it_and_an_edit_is_not() {
    let app = TestApp::spawn().await;
    let coach = app.coach();
    let slot = app.weekly_slot(&coach, "Monday", "15:00", "16:00").await;
    let ann = app.client();
    let booking_id = completed(&app, &ann, &coach, &slot, 0).await;

    let review = post(&app, &ann, &booking_id, 4).await;
    app.booking
        .clone()
        .edit_review(as_user(
            &ann,
            pb::EditReviewRequest {
                booking_id: booking_id.clone(),
                rating: 5,
                comment: Some("Even better on reflection".into()),
            },
        ))
        .await
        .unwrap();

    let posted: Vec<Value> = sqlx::query_scalar(
        "select payload from booking.outbox where payload->>'type' = 'review_posted' order by seq",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert_eq!(posted.len(), 1, "posted once; an edit changes only the figures");
    let told = &posted[0]["review"];
    assert_eq!(told["review_id"], review.review_id.as_str());
    assert_eq!(told["booking_id"], booking_id.as_str());
    assert_eq!(told["coach_id"], coach.id.to_string());
    assert_eq!(told["client_id"], ann.id.to_string());
    assert_eq!(told["rating"], 4);
}
