//! A forgotten password over HTTP: 202 whatever the email, a link in the mail outbox, a new
//! password through it once, the old sessions ended.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::Mesh;

/// The token of the last reset link mailed to `email` (from identity's mail outbox), waiting for
/// the reset issuer to write it: the request is answered before its letter exists.
pub async fn mailed_token(mesh: &Mesh, email: &str) -> String {
    let db = sqlx::PgPool::connect(&mesh.database_url)
        .await
        .expect("the test database");
    let mut body = None;
    for _ in 0..100 {
        body = sqlx::query_scalar::<_, String>(
            "select text_body from identity.mail where to_address = $1
               and subject = 'Reset your Courtside password'
             order by created_at desc limit 1",
        )
        .bind(email)
        .fetch_optional(&db)
        .await
        .expect("the mail outbox");
        if body.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let body = body.expect("a reset letter within 5 s");
    let marker = "http://courtside.test/reset-password#token=";
    let at = body.find(marker).expect("the link, from PUBLIC_URL") + marker.len();
    body[at..at + 43].to_owned()
}

#[tokio::test]
async fn a_forgotten_password_is_reset_through_the_emailed_link_once() {
    let mesh = Mesh::start().await;
    let (old_session, user) = mesh.register("client").await;
    let email = user["email"].as_str().unwrap().to_owned();

    let (status, _) = mesh
        .post("/auth/forgot-password", None, json!({"email": email}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, _) = mesh
        .post(
            "/auth/forgot-password",
            None,
            json!({"email": "nobody@mesh.test"}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "an unknown email is answered alike");
    let token = mailed_token(&mesh, &email).await;

    let (status, body) = mesh
        .post(
            "/auth/reset-password",
            None,
            json!({"token": token, "password": "abc"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = mesh
        .post(
            "/auth/reset-password",
            None,
            json!({"token": token, "password": platform::testing::NEW_FIXTURE_PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"email": email}));

    let (status, _) = mesh
        .sign_in(&email, platform::testing::NEW_FIXTURE_PASSWORD)
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = mesh.call(Method::GET, "/auth/me", Some(&old_session), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the old session ended");
    let (status, body) = mesh
        .post(
            "/auth/reset-password",
            None,
            json!({"token": token, "password": "Courtside-another-2026"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["detail"].as_str().unwrap().contains("Ask for a new one"),
        "{body}"
    );
}

#[tokio::test]
async fn asking_for_reset_links_is_rate_limited_like_signing_in() {
    let mesh = Mesh::start_with(|config| config.auth_rate_limit_per_email_per_minute = 2).await;

    for _ in 0..2 {
        let (status, _) = mesh
            .post("/auth/forgot-password", None, json!({"email": "ann@mesh.test"}))
            .await;
        assert_eq!(status, StatusCode::ACCEPTED);
    }
    let answer = mesh
        .raw(
            Method::POST,
            "/auth/forgot-password",
            None,
            Some("application/json"),
            json!({"email": "ann@mesh.test"}).to_string(),
        )
        .await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(answer.headers.contains_key("retry-after"));
}
