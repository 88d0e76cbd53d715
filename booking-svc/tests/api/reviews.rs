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
