//! The gateway's auth edges (issue 32): a sign-in is never replayed from the idempotency store, a
//! revocation that missed Redis still ends the token, the client address comes only from trusted
//! proxies, an attacker's failures never lock an owner out, and answers carrying a token or a
//! secret are `Cache-Control: no-store`.

use base64::Engine;
use redis::AsyncCommands;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{events::eventually, helpers::Mesh};

const PASSWORD: &str = platform::testing::FIXTURE_PASSWORD;

/// A claim of a token, read without checking it.
fn claim(token: &str, name: &str) -> Value {
    let payload = token.split('.').nth(1).expect("a JWT");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .expect("base64url");
    serde_json::from_slice::<Value>(&bytes).expect("JSON claims")[name].clone()
}

async fn redis() -> redis::aio::MultiplexedConnection {
    redis::Client::open(platform::testing::REDIS_URL)
        .expect("a Redis URL")
        .get_multiplexed_async_connection()
        .await
        .expect("Redis answers")
}

/// Sends a sign-in as if from `client` (the address nginx puts in `X-Forwarded-For`).
async fn sign_in_from(mesh: &Mesh, client: &str, email: &str, password: &str) -> StatusCode {
    mesh.http
        .post(mesh.url("/auth/login"))
        .header("x-forwarded-for", client)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .expect("the gateway answers")
        .status()
}

/// The per-minute counters count per clock minute: keep one test's attempts inside one.
async fn a_fresh_enough_minute() {
    let second = platform::auth::now_secs() % 60;
    if second > 45 {
        tokio::time::sleep(std::time::Duration::from_secs((61 - second) as u64)).await;
    }
}

async fn new_account(mesh: &Mesh) -> String {
    let (_, user) = mesh.register("client").await;
    user["email"].as_str().expect("an email").to_owned()
}

#[tokio::test]
async fn a_sign_in_sent_again_with_its_idempotency_key_after_logout_does_not_hand_back_the_revoked_token() {
    let mesh = Mesh::start().await;
    let email = new_account(&mesh).await;
    let sign_in = || {
        mesh.http
            .post(mesh.url("/auth/login"))
            .header("idempotency-key", "sign-in-once")
            .json(&json!({"email": email, "password": PASSWORD}))
            .send()
    };
    let first: Value = sign_in().await.unwrap().json().await.unwrap();
    let first = first["token"].as_str().expect("a token").to_owned();
    let (status, _) = mesh.call(Method::POST, "/auth/logout", Some(&first), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    let again = sign_in().await.unwrap();

    assert_eq!(again.status(), StatusCode::OK);
    assert!(
        !again.headers().contains_key("idempotent-replayed"),
        "a sign-in is never replayed"
    );
    let again: Value = again.json().await.unwrap();
    let second = again["token"].as_str().expect("a token");
    assert_ne!(second, first, "the revoked token is not handed back");
    let (status, _) = mesh.get("/auth/me", Some(second)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_logout_whose_revocation_never_reached_redis_still_ends_the_token_within_seconds() {
    let mesh = Mesh::start().await;
    let (token, _) = mesh.register("client").await;
    let (status, _) = mesh.get("/auth/me", Some(&token)).await;
    assert_eq!(status, StatusCode::OK);

    let (status, _) = mesh.call(Method::POST, "/auth/logout", Some(&token), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    // The write to Redis was lost (a hiccup): only identity-svc's database knows.
    let jti = claim(&token, "jti");
    let key = format!("{}:rv:{}", mesh.redis_namespace, jti.as_str().unwrap());
    let _: () = redis().await.del(&key).await.unwrap();

    let refused =
        eventually(|| async { mesh.get("/auth/me", Some(&token)).await.0 == StatusCode::UNAUTHORIZED }).await;
    assert!(refused, "the logged-out token still works");
}

#[tokio::test]
async fn a_role_change_whose_new_version_never_reached_redis_still_ends_the_old_token_within_seconds() {
    let mesh = Mesh::start().await;
    let (token, user) = mesh.register("client").await;
    let (status, _) = mesh.get("/auth/me", Some(&token)).await;
    assert_eq!(status, StatusCode::OK);
    let admin = mesh.admin().await;
    let (status, body) = mesh
        .call(
            Method::PUT,
            &format!("/admin/users/{}", user["user_id"].as_str().unwrap()),
            Some(&admin),
            Some(json!({"role": "coach"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The new version's write to Redis was lost: Redis still holds the old one.
    let key = format!(
        "{}:tv:{}",
        mesh.redis_namespace,
        user["user_id"].as_str().unwrap()
    );
    let old = claim(&token, "ver").as_i64().expect("a version");
    let _: () = redis().await.set(&key, old).await.unwrap();

    let refused =
        eventually(|| async { mesh.get("/auth/me", Some(&token)).await.0 == StatusCode::UNAUTHORIZED }).await;
    assert!(refused, "the token from before the role change still works");
}

#[tokio::test]
async fn a_forged_forwarded_for_from_an_untrusted_peer_gets_no_fresh_sign_in_budget() {
    let mesh = Mesh::start_with(|config| {
        config.auth_rate_limit_per_minute = 3;
        // The test's client (loopback) is not a proxy here.
        config.trusted_proxies = "10.255.0.0/16".parse().unwrap();
    })
    .await;
    a_fresh_enough_minute().await;

    let mut statuses = Vec::new();
    for n in 1..=4 {
        statuses.push(sign_in_from(&mesh, &format!("203.0.113.{n}"), "someone@mesh.test", "a guess").await);
    }

    // Every attempt counts against the peer, whatever address it claims: its budget of 3 (which
    // the mesh's readiness probe dipped into) is spent by the fourth at the latest.
    assert_eq!(statuses[3], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
}

#[tokio::test]
async fn behind_a_trusted_proxy_two_client_addresses_get_separate_sign_in_budgets() {
    // The default: loopback (nginx beside the gateway) is trusted.
    let mesh = Mesh::start_with(|config| config.auth_rate_limit_per_minute = 3).await;
    a_fresh_enough_minute().await;

    for _ in 0..3 {
        let status = sign_in_from(&mesh, "203.0.113.10", "someone@mesh.test", "a guess").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    // A forged entry left of the address nginx appended changes nothing.
    let forged = sign_in_from(
        &mesh,
        "198.51.100.99, 203.0.113.10",
        "someone@mesh.test",
        "a guess",
    )
    .await;
    let other = sign_in_from(&mesh, "203.0.113.11", "someone@mesh.test", "a guess").await;

    assert_eq!(forged, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        other,
        StatusCode::UNAUTHORIZED,
        "another client has its own budget"
    );
}

#[tokio::test]
async fn an_attackers_failures_on_an_email_never_lock_its_owner_out_from_another_address() {
    let mesh = Mesh::start_with(|config| config.auth_rate_limit_per_email_per_minute = 10).await;
    let email = new_account(&mesh).await;
    a_fresh_enough_minute().await;

    let mut attacker = Vec::new();
    for _ in 0..12 {
        attacker.push(sign_in_from(&mesh, "198.51.100.66", &email, "a-wrong-guess-1").await);
    }
    let owner = sign_in_from(&mesh, "203.0.113.20", &email, PASSWORD).await;

    assert!(
        attacker[..10].iter().all(|s| *s == StatusCode::UNAUTHORIZED),
        "{attacker:?}"
    );
    assert!(
        attacker[10..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{attacker:?}"
    );
    assert_eq!(owner, StatusCode::OK, "the owner signs in at once");
    // The address that failed is the one held back, even with the right password.
    let attacker_right = sign_in_from(&mesh, "198.51.100.66", &email, PASSWORD).await;
    assert_eq!(attacker_right, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn correct_sign_ins_do_not_count_as_failures() {
    let mesh = Mesh::start_with(|config| config.auth_rate_limit_per_email_per_minute = 2).await;
    let email = new_account(&mesh).await;
    a_fresh_enough_minute().await;

    for _ in 0..4 {
        assert_eq!(
            sign_in_from(&mesh, "203.0.113.30", &email, PASSWORD).await,
            StatusCode::OK
        );
    }
    assert_eq!(
        sign_in_from(&mesh, "203.0.113.30", &email, "a-wrong-guess-1").await,
        StatusCode::UNAUTHORIZED
    );
}

fn cache_control(headers: &reqwest::header::HeaderMap) -> &str {
    headers
        .get(reqwest::header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn every_answer_carrying_a_token_or_a_secret_is_no_store() {
    let mesh = Mesh::start().await;
    let email = format!("no-store-{}@mesh.test", uuid::Uuid::new_v4().simple());
    let json = Some("application/json");

    let registered = mesh
        .raw(
            Method::POST,
            "/auth/register",
            None,
            json,
            json!({"email": email, "password": PASSWORD, "full_name": "Nora Store"}).to_string(),
        )
        .await;
    let signed_in = mesh
        .raw(
            Method::POST,
            "/auth/login",
            None,
            json,
            json!({"email": email, "password": PASSWORD}).to_string(),
        )
        .await;
    let token = signed_in.body["token"].as_str().expect("a token").to_owned();
    let feed = mesh
        .raw(Method::GET, "/calendar/feed", Some(&token), None, "")
        .await;
    let new_feed = mesh
        .raw(Method::POST, "/calendar/feed", Some(&token), None, "")
        .await;
    let (status, _) = mesh
        .post("/auth/forgot-password", None, json!({"email": email}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let reset_token = crate::password_reset::mailed_token(&mesh, &email).await;
    let reset = mesh
        .raw(
            Method::POST,
            "/auth/reset-password",
            None,
            json,
            json!({"token": reset_token, "password": platform::testing::NEW_FIXTURE_PASSWORD}).to_string(),
        )
        .await;
    let public = mesh.raw(Method::GET, "/coaches", None, None, "").await;

    for (what, answer, status) in [
        ("register", &registered, StatusCode::CREATED),
        ("login", &signed_in, StatusCode::OK),
        ("the feed's address", &feed, StatusCode::OK),
        ("a new feed address", &new_feed, StatusCode::OK),
        ("the reset", &reset, StatusCode::OK),
    ] {
        assert_eq!(answer.status, status, "{what}: {}", answer.body);
        assert_eq!(cache_control(&answer.headers), "no-store", "{what}");
    }
    assert_ne!(cache_control(&public.headers), "no-store", "only secrets");
}
