//! Idempotency keys over HTTP: a write sent again with its `Idempotency-Key` is carried out once
//! and answered the first answer again (`Idempotent-Replayed: true`); the same key with another
//! request is 422; keys belong to their caller (their address when anonymous); a read ignores
//! them; a malformed key is 400. The faults suite covers two gateways, a gateway restart, a
//! request still in flight and a booking whose answer was lost.

use chrono::{Days, Weekday};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::{
    coaching::{User, coach_with_slot, next, user},
    helpers::{Answer, Mesh},
};

/// Sends a request with an `Idempotency-Key`.
async fn keyed(
    mesh: &Mesh,
    method: Method,
    path: &str,
    token: Option<&str>,
    key: &str,
    body: Option<Value>,
) -> Answer {
    let mut request = mesh
        .http
        .request(method, mesh.url(path))
        .header("Idempotency-Key", key);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap_or_default();
    Answer {
        status,
        headers,
        body: serde_json::from_str(&text).unwrap_or(Value::Null),
    }
}

fn replayed(answer: &Answer) -> bool {
    answer
        .headers
        .get("idempotent-replayed")
        .is_some_and(|v| v == "true")
}

fn booking_body(coach: &User, slot_id: &str, date: &str) -> Value {
    json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date})
}

async fn bookings_of(mesh: &Mesh, who: &User) -> Vec<Value> {
    let (status, list) = mesh.get("/bookings", Some(&who.token)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array().expect("a list").clone()
}

fn key() -> String {
    Uuid::new_v4().to_string()
}

#[tokio::test]
async fn a_booking_sent_twice_with_one_key_is_made_once_and_answered_the_same_twice() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let body = booking_body(&coach, &slot_id, &next(Weekday::Wed).to_string());
    let key = key();

    let first = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&client.token),
        &key,
        Some(body.clone()),
    )
    .await;
    let again = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&client.token),
        &key,
        Some(body),
    )
    .await;

    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    assert!(!replayed(&first), "the first answer is not a replay");
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.body);
    assert_eq!(again.body, first.body, "the same body again");
    assert!(
        replayed(&again),
        "the retry says it is a replay: {:?}",
        again.headers
    );
    assert_eq!(
        again.headers.get("content-type"),
        first.headers.get("content-type")
    );
    assert_eq!(bookings_of(&mesh, &client).await.len(), 1, "one booking, not two");
}

#[tokio::test]
async fn the_same_key_with_another_body_is_422_and_changes_nothing() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let wednesday = next(Weekday::Wed);
    let later = (wednesday + Days::new(7)).to_string();
    let key = key();
    let first = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&client.token),
        &key,
        Some(booking_body(&coach, &slot_id, &wednesday.to_string())),
    )
    .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);

    let other = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&client.token),
        &key,
        Some(booking_body(&coach, &slot_id, &later)),
    )
    .await;

    assert_eq!(other.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", other.body);
    let detail = other.body["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("Idempotency-Key"), "{detail}");
    assert!(!replayed(&other));
    assert_eq!(bookings_of(&mesh, &client).await.len(), 1);
}

#[tokio::test]
async fn the_same_key_on_another_route_is_422() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let key = key();
    let booked = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&client.token),
        &key,
        Some(booking_body(&coach, &slot_id, &next(Weekday::Wed).to_string())),
    )
    .await;
    assert_eq!(booked.status, StatusCode::CREATED, "{}", booked.body);
    let booking_id = booked.body["booking_id"].as_str().unwrap();

    let cancel = keyed(
        &mesh,
        Method::PATCH,
        &format!("/bookings/{booking_id}/cancel"),
        Some(&client.token),
        &key,
        None,
    )
    .await;

    assert_eq!(cancel.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", cancel.body);
    assert_eq!(bookings_of(&mesh, &client).await[0]["status"], "pending");
}

#[tokio::test]
async fn a_cancel_retried_with_its_key_is_answered_the_cancel_again_not_a_conflict() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (_, booked) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            booking_body(&coach, &slot_id, &next(Weekday::Wed).to_string()),
        )
        .await;
    let path = format!("/bookings/{}/cancel", booked["booking_id"].as_str().unwrap());
    let key = key();
    let reason = json!({"reason": "Rain."});

    let first = keyed(
        &mesh,
        Method::PATCH,
        &path,
        Some(&client.token),
        &key,
        Some(reason.clone()),
    )
    .await;
    let again = keyed(
        &mesh,
        Method::PATCH,
        &path,
        Some(&client.token),
        &key,
        Some(reason.clone()),
    )
    .await;
    let fresh = keyed(
        &mesh,
        Method::PATCH,
        &path,
        Some(&client.token),
        &self::key(),
        Some(reason),
    )
    .await;

    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!((again.status, &again.body), (StatusCode::OK, &first.body));
    assert!(replayed(&again));
    assert_eq!(
        fresh.status,
        StatusCode::CONFLICT,
        "a new key runs the cancel again: {}",
        fresh.body
    );
}

#[tokio::test]
async fn a_refusal_is_kept_and_replayed_like_a_success() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let first = user(&mesh, "client", "First Client").await;
    let second = user(&mesh, "client", "Second Client").await;
    let body = booking_body(&coach, &slot_id, &next(Weekday::Wed).to_string());
    let (status, _) = mesh.post("/bookings", Some(&first.token), body.clone()).await;
    assert_eq!(status, StatusCode::CREATED);
    let key = key();

    let refused = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&second.token),
        &key,
        Some(body.clone()),
    )
    .await;
    let again = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&second.token),
        &key,
        Some(body),
    )
    .await;

    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert_eq!((again.status, &again.body), (StatusCode::CONFLICT, &refused.body));
    assert!(replayed(&again));
}

#[tokio::test]
async fn keys_belong_to_their_caller_so_two_clients_may_use_the_same_one() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let first = user(&mesh, "client", "First Client").await;
    let second = user(&mesh, "client", "Second Client").await;
    let wednesday = next(Weekday::Wed);
    let key = key();

    let mine = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&first.token),
        &key,
        Some(booking_body(&coach, &slot_id, &wednesday.to_string())),
    )
    .await;
    let theirs = keyed(
        &mesh,
        Method::POST,
        "/bookings",
        Some(&second.token),
        &key,
        Some(booking_body(
            &coach,
            &slot_id,
            &(wednesday + Days::new(7)).to_string(),
        )),
    )
    .await;

    assert_eq!(mine.status, StatusCode::CREATED, "{}", mine.body);
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.body);
    assert!(!replayed(&theirs), "another caller's key is not replayed to them");
    assert_ne!(mine.body["booking_id"], theirs.body["booking_id"]);
    assert_eq!(bookings_of(&mesh, &second).await.len(), 1);
}

#[tokio::test]
async fn a_registration_retried_with_its_key_runs_again_and_never_hands_back_the_first_token() {
    let mesh = Mesh::start().await;
    let email = format!("client-{}@mesh.test", Uuid::new_v4().simple());
    let body = json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Retry Client", "role": "client"});
    let key = key();

    let first = keyed(
        &mesh,
        Method::POST,
        "/auth/register",
        None,
        &key,
        Some(body.clone()),
    )
    .await;
    let again = keyed(
        &mesh,
        Method::POST,
        "/auth/register",
        None,
        &key,
        Some(body.clone()),
    )
    .await;

    // An answer with a token is never kept (issue 32): the retry is a new attempt.
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    assert!(!replayed(&again), "{}", again.body);
    assert_ne!(again.body["token"], first.body["token"], "{}", again.body);
}

#[tokio::test]
async fn a_read_ignores_the_key_and_a_malformed_key_is_400() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let key = key();

    let read = keyed(&mesh, Method::GET, "/auth/me", Some(&client.token), &key, None).await;
    let read_again = keyed(&mesh, Method::GET, "/auth/me", Some(&client.token), &key, None).await;
    let spaced = keyed(
        &mesh,
        Method::POST,
        "/auth/logout",
        Some(&client.token),
        "two words",
        None,
    )
    .await;
    let long = keyed(
        &mesh,
        Method::POST,
        "/auth/logout",
        Some(&client.token),
        &"k".repeat(256),
        None,
    )
    .await;

    assert_eq!(read.status, StatusCode::OK);
    assert!(!replayed(&read_again), "reads are not kept");
    for malformed in [&spaced, &long] {
        assert_eq!(malformed.status, StatusCode::BAD_REQUEST, "{}", malformed.body);
        assert!(
            malformed.body["detail"]
                .as_str()
                .unwrap_or_default()
                .contains("Idempotency-Key")
        );
    }
    let (status, _) = mesh.get("/auth/me", Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK, "the refused logouts did not run");
}

#[tokio::test]
async fn a_delete_retried_with_its_key_is_answered_204_again_not_404() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let path = format!("/availability/{slot_id}");
    let key = key();

    let first = keyed(&mesh, Method::DELETE, &path, Some(&coach.token), &key, None).await;
    let again = keyed(&mesh, Method::DELETE, &path, Some(&coach.token), &key, None).await;
    let fresh = keyed(
        &mesh,
        Method::DELETE,
        &path,
        Some(&coach.token),
        &self::key(),
        None,
    )
    .await;

    assert_eq!(first.status, StatusCode::NO_CONTENT, "{}", first.body);
    assert_eq!(again.status, StatusCode::NO_CONTENT, "{}", again.body);
    assert!(replayed(&again));
    assert_eq!(
        fresh.status,
        StatusCode::NOT_FOUND,
        "a new key deletes again: {}",
        fresh.body
    );
}
