//! The transactional outbox and its relay: facts other contexts react to are written with the
//! change and reach the Redis stream at least once, in order, even after Redis was away.

use std::time::Duration;

use proto::identity::v1 as pb;
use serde_json::json;
use tonic::Code;

use crate::helpers::{
    DEAD_REDIS_URL, REDIS_URL, TestApp, authed, config, eventually, fresh_database, refused,
};

async fn delete(app: &TestApp, admin: &str, user_id: &str) -> Result<(), tonic::Status> {
    app.client()
        .delete_user(authed(
            pb::DeleteUserRequest {
                user_id: user_id.into(),
            },
            admin,
        ))
        .await
        .map(drop)
}

/// Waits until the stream holds `n` events and returns them.
async fn stream_of(app: &TestApp, n: usize) -> Vec<serde_json::Value> {
    eventually(&format!("{n} events on the stream"), || async {
        let events = app.stream_events().await;
        (events.len() >= n).then_some(events)
    })
    .await
}

#[tokio::test]
async fn deleting_a_user_records_the_fact_with_the_deletion() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, coach) = app.register("coach").await;

    delete(&app, &admin, &coach.user_id).await.expect("delete");

    let rows = app.outbox().await;
    assert_eq!(rows.len(), 1);
    let (event_id, payload) = &rows[0];
    assert_eq!(payload["event_id"], json!(event_id));
    assert_eq!(payload["type"], "user_deleted");
    assert_eq!(payload["user_id"], json!(coach.user_id));
    assert_eq!(payload["role"], "coach");
}

#[tokio::test]
async fn a_refused_change_records_nothing() {
    let app = TestApp::start().await;
    let (admin, me) = app.admin().await;
    let (_, user) = app.register("client").await;

    refused(delete(&app, &admin, &me.user_id).await, Code::PermissionDenied);
    let conflicting = app
        .client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id,
                full_name: Some("Renamed".into()),
                email: Some(crate::helpers::ADMIN_EMAIL.into()),
                ..Default::default()
            },
            &admin,
        ))
        .await;
    refused(conflicting, Code::AlreadyExists);

    assert!(app.outbox().await.is_empty());
}

#[tokio::test]
async fn the_relay_publishes_a_deletion_to_the_event_stream() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, gym) = app.register("gym").await;

    delete(&app, &admin, &gym.user_id).await.expect("delete");

    let events = stream_of(&app, 1).await;
    let (event_id, payload) = app.outbox().await.remove(0);
    assert_eq!(events, vec![payload]);
    assert_eq!(events[0]["type"], "user_deleted");
    assert_eq!(events[0]["event_id"], json!(event_id));
    eventually("the row marked published", || async {
        app.unpublished_events().await.is_empty().then_some(())
    })
    .await;
}

#[tokio::test]
async fn a_rename_and_a_role_change_are_published_in_the_order_they_happened() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, user) = app.register("coach").await;

    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                full_name: Some("Coach Renamed".into()),
                role: Some("client".into()),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .expect("update");
    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                full_name: Some("Renamed Again".into()),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .expect("second update");

    let events = stream_of(&app, 3).await;
    let facts: Vec<_> = events
        .iter()
        .map(|e| (e["type"].as_str().unwrap(), e["user_id"].as_str().unwrap()))
        .collect();
    assert_eq!(
        facts,
        [
            ("user_renamed", user.user_id.as_str()),
            ("role_changed", user.user_id.as_str()),
            ("user_renamed", user.user_id.as_str()),
        ]
    );
    assert_eq!(events[0]["full_name"], "Coach Renamed");
    assert_eq!(
        (&events[1]["old_role"], &events[1]["new_role"]),
        (&json!("coach"), &json!("client"))
    );
    assert_eq!(events[2]["full_name"], "Renamed Again");
}

#[tokio::test]
async fn events_wait_while_redis_is_down_and_are_delivered_when_it_returns() {
    let database_url = fresh_database().await;
    let cut_off = config(&database_url, DEAD_REDIS_URL);
    let namespace = cut_off.redis_namespace.clone();
    let without_redis = TestApp::start_with(cut_off).await;
    let (admin, _) = without_redis.admin().await;
    let (_, client) = without_redis.register("client").await;

    // The deletion is kept (and its event waits), but without Redis its revocation cannot be
    // published, so the call says to try again.
    let refusal = delete(&without_redis, &admin, &client.user_id)
        .await
        .expect_err("no revocation without Redis");
    assert_eq!(refusal.code(), tonic::Code::Unavailable);
    // Longer than the relay's poll interval: it has tried, and failed, at least once.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(without_redis.unpublished_events().await.len(), 1);
    assert!(without_redis.stream_events().await.is_empty());

    // Redis is back: a replica that reaches it delivers what waited.
    let mut reconnected = config(&database_url, REDIS_URL);
    reconnected.redis_namespace = namespace;
    let with_redis = TestApp::start_with(reconnected).await;

    let events = stream_of(&with_redis, 1).await;
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["type"], "user_deleted");
    assert_eq!(events[0]["user_id"], json!(client.user_id));
    eventually("the row marked published", || async {
        with_redis.unpublished_events().await.is_empty().then_some(())
    })
    .await;
}

#[tokio::test]
async fn two_replicas_deliver_each_event_once() {
    let database_url = fresh_database().await;
    let first_config = config(&database_url, REDIS_URL);
    let mut second_config = config(&database_url, REDIS_URL);
    second_config.redis_namespace = first_config.redis_namespace.clone();
    let first = TestApp::start_with(first_config).await;
    let second = TestApp::start_with(second_config).await;
    let (admin, _) = first.admin().await;
    let mut users = Vec::new();
    for _ in 0..10 {
        users.push(first.register("coach").await.1);
    }

    for user in &users {
        delete(&first, &admin, &user.user_id).await.expect("delete");
    }

    eventually("every row published", || async {
        first.unpublished_events().await.is_empty().then_some(())
    })
    .await;
    // Give a would-be duplicate time to arrive.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let published: Vec<_> = second
        .stream_events()
        .await
        .iter()
        .map(|e| e["user_id"].as_str().unwrap().to_owned())
        .collect();
    let deleted: Vec<_> = users.iter().map(|u| u.user_id.clone()).collect();
    assert_eq!(published, deleted);
}

#[tokio::test]
async fn events_delivered_more_than_a_day_ago_are_cleared_away() {
    let database_url = fresh_database().await;
    let first = TestApp::start_with(config(&database_url, REDIS_URL)).await;
    sqlx::query(
        "insert into identity.outbox (event_id, payload, published_at)
         values (gen_random_uuid(), '{}', now() - interval '25 hours'),
                (gen_random_uuid(), '{}', now() - interval '1 hour')",
    )
    .execute(&first.db)
    .await
    .unwrap();

    // The relay clears away when it starts, then every few minutes.
    let restarted = TestApp::start_with(config(&database_url, REDIS_URL)).await;

    eventually("the old row cleared away", || async {
        (restarted.outbox().await.len() == 1).then_some(())
    })
    .await;
}
