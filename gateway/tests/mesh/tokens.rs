//! API tokens (issue 37) over the API: a script with a scoped token does its job without a
//! password, gets a 403 naming the scope it lacks, never reaches sign-in, sessions or token
//! management, and stops at once when the token is revoked or expires.

use chrono::{Utc, Weekday};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{coach_with_slot, next, user},
    helpers::Mesh,
};

/// Creates a token named `name` with `scopes` as the holder of `session`; returns its body.
pub async fn token(mesh: &Mesh, session: &str, name: &str, scopes: &[&str]) -> Value {
    let (status, body) = mesh
        .post("/tokens", Some(session), json!({"name": name, "scopes": scopes}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

fn secret(token: &Value) -> &str {
    token["token"].as_str().expect("the secret")
}

#[tokio::test]
async fn a_coachs_script_lists_and_approves_bookings_with_the_scopes_it_holds_and_no_more() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Script Coach").await;
    let client = user(&mesh, "client", "Booked Client").await;
    let (status, booking) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next(Weekday::Wed).to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    let booking_id = booking["booking_id"].as_str().unwrap();

    let reader = token(&mesh, &coach.token, "spreadsheet", &["bookings:read"]).await;
    assert!(secret(&reader).starts_with("cst_"), "{reader}");
    for field in [
        "token_id",
        "name",
        "scopes",
        "prefix",
        "created_at",
        "expires_at",
        "last_used_at",
    ] {
        assert!(reader.get(field).is_some(), "{field}: {reader}");
    }
    let (status, listed) = mesh.get("/bookings", Some(secret(&reader))).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["booking_id"] == booking_id),
        "{listed}"
    );
    let approve = format!("/coach/bookings/{booking_id}/approve");
    let (status, body) = mesh
        .call(Method::PATCH, &approve, Some(secret(&reader)), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["detail"], "This API token lacks the scope bookings:write.");

    let writer = token(&mesh, &coach.token, "CRM", &["bookings:read", "bookings:write"]).await;
    // A script's retry with the same Idempotency-Key gets the first answer again, as anyone's does.
    let mut answers = Vec::new();
    for _ in 0..2 {
        let response = mesh
            .http
            .patch(mesh.url(&approve))
            .bearer_auth(secret(&writer))
            .header("Idempotency-Key", "approve-once-from-the-crm")
            .send()
            .await
            .unwrap();
        let status = response.status();
        answers.push((status, response.json::<Value>().await.unwrap()));
    }
    assert_eq!(answers[0].0, StatusCode::OK, "{:?}", answers[0]);
    assert_eq!(answers[0].1["status"], "confirmed", "{:?}", answers[0]);
    assert_eq!(answers[0], answers[1]);

    // Sign-in, sessions, token management and the inbox are a person's: 403 for any token.
    for (method, path) in [
        (Method::GET, "/auth/me".to_owned()),
        (Method::GET, "/auth/sessions".to_owned()),
        (Method::POST, "/auth/logout".to_owned()),
        (Method::GET, "/tokens".to_owned()),
        (
            Method::DELETE,
            format!("/tokens/{}", reader["token_id"].as_str().unwrap()),
        ),
        (Method::GET, "/notifications".to_owned()),
    ] {
        let (status, body) = mesh
            .call(method.clone(), &path, Some(secret(&writer)), None)
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {body}");
        assert!(body["detail"].as_str().unwrap().contains("sign in"), "{body}");
    }
    let (status, body) = mesh
        .post(
            "/tokens",
            Some(secret(&writer)),
            json!({"name": "more", "scopes": ["bookings:read"]}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        body["detail"],
        "An API token cannot manage tokens or webhooks; sign in to do this."
    );
    // A public route does not look at it; a route of another role refuses the role.
    let (status, _) = mesh.get("/coaches", Some(secret(&writer))).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = mesh.get("/gym/pending-reservations", Some(secret(&writer))).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");

    // Listed newest first, with the last use; the secret is never listed.
    let (status, tokens) = mesh.get("/tokens", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    let tokens = tokens.as_array().unwrap();
    assert_eq!(tokens.len(), 2);
    assert_eq!(tokens[0]["token_id"], writer["token_id"]);
    assert!(tokens[0]["last_used_at"].is_string(), "{tokens:?}");
    assert!(tokens.iter().all(|t| t.get("token").is_none()), "{tokens:?}");
}

#[tokio::test]
async fn a_revoked_token_stops_at_once_an_expired_or_unknown_one_is_refused_and_clients_have_none() {
    let mesh = Mesh::start().await;
    let gym = user(&mesh, "gym", "Desk Gym").await;
    let desk = token(&mesh, &gym.token, "front desk", &["court_requests:read"]).await;
    let (status, body) = mesh.get("/gym/pending-reservations", Some(secret(&desk))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = mesh
        .call(
            Method::DELETE,
            &format!("/tokens/{}", desk["token_id"].as_str().unwrap()),
            Some(&gym.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let (status, body) = mesh.get("/gym/pending-reservations", Some(secret(&desk))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("revoked"), "{body}");
    // Another person's token, or one revoked already: 404.
    let other = user(&mesh, "gym", "Other Gym").await;
    let theirs = token(&mesh, &other.token, "theirs", &["profile:read"]).await;
    for id in [&desk["token_id"], &theirs["token_id"]] {
        let path = format!("/tokens/{}", id.as_str().unwrap());
        let (status, body) = mesh.call(Method::DELETE, &path, Some(&gym.token), None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }

    let soon = (Utc::now() + chrono::Duration::seconds(2)).to_rfc3339();
    let (status, brief) = mesh
        .post(
            "/tokens",
            Some(&gym.token),
            json!({"name": "brief", "scopes": ["court_requests:read"], "expires_at": soon}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{brief}");
    let (status, _) = mesh.get("/gym/pending-reservations", Some(secret(&brief))).await;
    assert_eq!(status, StatusCode::OK);
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let (status, body) = mesh.get("/gym/pending-reservations", Some(secret(&brief))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("expired"), "{body}");

    let unknown = format!("cst_{}", "Q".repeat(43));
    let (status, body) = mesh.get("/gym/pending-reservations", Some(&unknown)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");

    let client = user(&mesh, "client", "No Tokens").await;
    let (status, body) = mesh
        .post(
            "/tokens",
            Some(&client.token),
            json!({"name": "x", "scopes": ["profile:read"]}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
}

#[tokio::test]
async fn bad_requests_for_a_token_are_refused_with_a_reason() {
    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Careful Coach").await;
    let past = (Utc::now() - chrono::Duration::hours(1)).to_rfc3339();
    // Not the coach's to grant (403), no scope at all (400), a moment already past (409).
    for (body, expected, says) in [
        (
            json!({"name": "x", "scopes": ["admin:read"]}),
            StatusCode::FORBIDDEN,
            "admin",
        ),
        (
            json!({"name": "x", "scopes": ["bookings:delete"]}),
            StatusCode::BAD_REQUEST,
            "must be one of bookings:read",
        ),
        (
            json!({"name": "x", "scopes": ["profile:read"], "expires_at": past}),
            StatusCode::CONFLICT,
            "future",
        ),
    ] {
        let (status, answer) = mesh.post("/tokens", Some(&coach.token), body).await;
        assert_eq!(status, expected, "{answer}");
        assert!(
            answer["detail"].as_str().unwrap().contains(says),
            "{says}: {answer}"
        );
    }
    for body in [
        json!({"name": "", "scopes": ["profile:read"]}),
        json!({"name": "x", "scopes": []}),
    ] {
        let (status, answer) = mesh.post("/tokens", Some(&coach.token), body).await;
        assert!(status.is_client_error(), "{status} {answer}");
        assert!(answer["detail"].is_string(), "{answer}");
    }
}

#[tokio::test]
async fn a_token_is_held_to_its_rate_limit() {
    let mesh = Mesh::start_with(|config| config.api_token_rate_limit_per_minute = 3).await;
    let coach = user(&mesh, "coach", "Busy Coach").await;
    let busy = token(&mesh, &coach.token, "busy", &["bookings:read"]).await;
    // Eight calls span at most two minute windows, of three calls each.
    let mut limited = None;
    for _ in 0..8 {
        let response = mesh
            .http
            .get(mesh.url("/bookings"))
            .bearer_auth(secret(&busy))
            .send()
            .await
            .unwrap();
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(response);
            break;
        }
        assert_eq!(response.status(), StatusCode::OK);
    }
    let limited = limited.expect("a 429 within eight calls");
    assert!(limited.headers().contains_key("retry-after"));
    // The person's own sign-in is not held back by their script.
    let (status, _) = mesh.get("/bookings", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn an_admins_token_use_is_in_the_audit_trail() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let ops = token(&mesh, &admin, "ops", &["admin:read"]).await;
    let (status, body) = mesh.get("/admin/users?limit=5", Some(secret(&ops))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = mesh
        .call(
            Method::DELETE,
            "/admin/users/00000000-0000-0000-0000-000000000000",
            Some(secret(&ops)),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["detail"], "This API token lacks the scope admin:write.");
    let (status, audit) = mesh.get("/admin/audit", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{audit}");
    let text = audit.to_string();
    assert!(text.contains("GET /api/admin/users"), "{text}");
    assert!(text.contains("api_token_used"), "{text}");
}
