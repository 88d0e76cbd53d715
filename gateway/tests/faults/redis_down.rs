//! Redis down from the start, for every process: sign-in and booking keep working (rate limits
//! fail open; the revocation check asks identity-svc), and logging out still ends the session
//! (identity-svc answers 503 since it cannot publish the logout, but it is recorded). With
//! identity-svc down too, a signed-in request is refused with a 503, never let through.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use crate::mesh::{self, Backing, Upstreams, session_date};

/// Every Redis operation gives up after 150 ms; nothing here may wait on Redis for long.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn with_redis_down_people_register_sign_in_book_and_log_out_and_the_logged_out_token_stops_working() {
    // Arrange: the mesh with Redis on a port nobody listens on.
    let backing = Backing::new(mesh::DEAD_REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let coaching = mesh::coaching(&backing).await;
    let booking = mesh::booking(&backing, mesh::any_port(), &coaching.url()).await;
    let gateway = mesh::gateway(mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            coaching: coaching.url(),
            booking: booking.url(),
            ..Upstreams::none()
        },
    ))
    .await;
    let (coach, week) = gateway.coach_with_slot().await;
    let email = format!("redis-down-{}@faults.test", uuid::Uuid::new_v4().simple());

    // Act and assert, step by step: each is a thing a person does.
    let registered = gateway
        .post(
            "/auth/register",
            None,
            json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Rita Redisless", "role": "client"}),
        )
        .await;
    assert_eq!(
        registered.status,
        StatusCode::CREATED,
        "register: {}",
        registered.body
    );

    let login = gateway
        .post(
            "/auth/login",
            None,
            json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK, "login: {}", login.body);
    let token = login.body["token"].as_str().expect("a token").to_owned();

    let me = gateway.get("/auth/me", Some(&token)).await;
    assert_eq!(me.status, StatusCode::OK, "me: {}", me.body);
    assert_eq!(me.body["email"], email.as_str());

    let booked = gateway
        .post(
            "/bookings",
            Some(&token),
            json!({"coach_id": coach.id, "slot_id": week.on(&session_date(0)), "booking_date": session_date(0)}),
        )
        .await;
    assert_eq!(booked.status, StatusCode::CREATED, "book: {}", booked.body);

    // identity-svc records the logout but cannot publish it to Redis: it says so (503, try
    // again) rather than report a success; the token is refused all the same.
    let logout = gateway
        .call(reqwest::Method::POST, "/auth/logout", Some(&token), None)
        .await;
    assert_eq!(
        logout.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "logout: {}",
        logout.body
    );
    assert!(logout.detail().contains("try again"), "logout: {}", logout.body);

    let after = gateway.get("/auth/me", Some(&token)).await;
    assert_eq!(
        after.status,
        StatusCode::UNAUTHORIZED,
        "the logged-out token is refused: {}",
        after.body
    );

    for (step, reply) in [
        ("register", &registered),
        ("login", &login),
        ("me", &me),
        ("book", &booked),
        ("logout", &logout),
        ("me after logout", &after),
    ] {
        assert!(reply.took <= ANSWER_WITHIN, "{step} took {:?}", reply.took);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn with_redis_and_identity_svc_both_down_a_signed_in_request_is_refused_with_503_never_let_through() {
    // Arrange: Redis down from the start; a signed-in person whose token worked.
    let backing = Backing::new(mesh::DEAD_REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let gateway = mesh::gateway(mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            ..Upstreams::none()
        },
    ))
    .await;
    let person = gateway.register("client").await;
    let before = gateway.get("/auth/me", Some(&person.token)).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.body);

    // Act: identity-svc, the only other place that knows about revocations, goes too.
    identity.stop().await;
    let after = gateway.get("/calendar/feed", Some(&person.token)).await;

    // Assert: refused, with a detail that says why and to retry; not let through on old word.
    assert_eq!(after.status, StatusCode::SERVICE_UNAVAILABLE, "{}", after.body);
    assert!(
        after.detail().contains("cannot check your sign-in"),
        "{}",
        after.body
    );
}
