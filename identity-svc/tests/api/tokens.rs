//! API tokens (issue 37): made, listed and revoked by their owner with a sign-in's token only,
//! kept as a hash, traded by the gateway for a short-lived JWT of their person while in force.

use chrono::{Duration, Utc};
use platform::clock::ManualClock;
use proto::identity::v1 as pb;
use sha2::{Digest, Sha256};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, authed, refused};

fn create(name: &str, scopes: &[&str], expires_at: Option<String>) -> pb::CreateApiTokenRequest {
    pb::CreateApiTokenRequest {
        name: name.into(),
        scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
        expires_at,
    }
}

fn exchange(secret: &str, used_for: &str) -> pb::ExchangeApiTokenRequest {
    pb::ExchangeApiTokenRequest {
        secret: secret.into(),
        used_for: used_for.into(),
    }
}

async fn made(app: &TestApp, token: &str, request: pb::CreateApiTokenRequest) -> (pb::ApiToken, String) {
    let reply = app
        .client()
        .create_api_token(authed(request, token))
        .await
        .expect("the token is made")
        .into_inner();
    (reply.token.expect("a token"), reply.secret)
}

#[tokio::test]
async fn a_coach_makes_lists_uses_and_revokes_a_token_kept_only_as_its_hash() {
    let app = TestApp::start().await;
    let (session, coach) = app.register("coach").await;
    let (token, secret) = made(
        &app,
        &session,
        create("CRM", &["bookings:read", "bookings:write"], None),
    )
    .await;
    assert!(secret.starts_with("cst_"), "{secret}");
    assert!(
        secret.starts_with(&token.prefix) && token.prefix.len() == 8,
        "{token:?}"
    );
    assert_eq!(token.scopes, ["bookings:read", "bookings:write"]);
    assert_eq!(
        (token.expires_at.as_ref(), token.last_used_at.as_ref()),
        (None, None)
    );

    // Only the SHA-256 is stored: no column holds the secret.
    let (hash, dump): (Vec<u8>, String) = sqlx::query_as(
        "select secret_hash, row_to_json(t)::text from identity.api_token t where token_id = $1",
    )
    .bind(Uuid::parse_str(&token.token_id).unwrap())
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(hash, Sha256::digest(secret.as_bytes()).to_vec());
    assert!(!dump.contains(&secret[8..]), "{dump}");

    let listed = app
        .client()
        .list_api_tokens(authed(pb::ListApiTokensRequest {}, &session))
        .await
        .unwrap()
        .into_inner()
        .tokens;
    assert_eq!(listed, std::slice::from_ref(&token));

    let traded = app
        .client()
        .exchange_api_token(exchange(&secret, "GET /api/bookings"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (traded.token_id.as_str(), traded.scopes.len()),
        (token.token_id.as_str(), 2)
    );
    let claims = app.claims(&traded.jwt);
    assert!(claims.api);
    assert_eq!(claims.sub.to_string(), coach.user_id);
    assert_eq!(claims.jti.to_string(), token.token_id);
    assert!(
        claims.exp - platform::auth::now_secs() <= 300,
        "short-lived: {claims:?}"
    );
    let listed = app
        .client()
        .list_api_tokens(authed(pb::ListApiTokensRequest {}, &session))
        .await
        .unwrap()
        .into_inner()
        .tokens;
    assert!(listed[0].last_used_at.is_some(), "{listed:?}");

    app.client()
        .revoke_api_token(authed(
            pb::RevokeApiTokenRequest {
                token_id: token.token_id.clone(),
            },
            &session,
        ))
        .await
        .unwrap();
    let why = refused(
        app.client()
            .exchange_api_token(exchange(&secret, "GET /api/bookings"))
            .await,
        Code::Unauthenticated,
    );
    assert!(why.contains("revoked"), "{why}");
    // Published as a logout is: every gateway refuses the minted JWTs at once.
    let (value, ttl) = app.redis_value(&format!("rv:{}", token.token_id)).await;
    assert_eq!(value.as_deref(), Some("1"));
    assert!(ttl > 0 && ttl <= 302, "{ttl}");
    assert!(app.check_token(&coach.user_id, claims.jti).await.1);
    let listed = app
        .client()
        .list_api_tokens(authed(pb::ListApiTokensRequest {}, &session))
        .await
        .unwrap()
        .into_inner()
        .tokens;
    assert!(listed.is_empty(), "{listed:?}");
    // Revoking it again, or revoking another person's token, is a 404.
    let again = app
        .client()
        .revoke_api_token(authed(
            pb::RevokeApiTokenRequest {
                token_id: token.token_id,
            },
            &session,
        ))
        .await;
    refused(again, Code::NotFound);
}

#[tokio::test]
async fn another_persons_token_is_not_found_and_unknown_secrets_are_refused() {
    let app = TestApp::start().await;
    let (owner, _) = app.register("gym").await;
    let (other, _) = app.register("coach").await;
    let (token, _) = made(&app, &owner, create("desk", &["court_requests:read"], None)).await;
    let stolen = app
        .client()
        .revoke_api_token(authed(
            pb::RevokeApiTokenRequest {
                token_id: token.token_id,
            },
            &other,
        ))
        .await;
    refused(stolen, Code::NotFound);
    for secret in ["cst_nothing", "not-a-token", &format!("cst_{}", "A".repeat(43))] {
        let why = refused(
            app.client()
                .exchange_api_token(exchange(secret, "GET /api/x"))
                .await,
            Code::Unauthenticated,
        );
        assert!(why.contains("not valid"), "{why}");
    }
}

#[tokio::test]
async fn clients_admin_scopes_past_expiries_and_unknown_scopes_are_refused_with_a_reason() {
    let app = TestApp::start().await;
    let (client, _) = app.register("client").await;
    refused(
        app.client()
            .create_api_token(authed(create("x", &["profile:read"], None), &client))
            .await,
        Code::PermissionDenied,
    );
    let (coach, _) = app.register("coach").await;
    let past = (Utc::now() - Duration::hours(1)).to_rfc3339();
    for (request, code, says) in [
        (
            create("x", &["admin:read"], None),
            Code::PermissionDenied,
            "admin",
        ),
        (
            create("x", &["bookings:delete"], None),
            Code::InvalidArgument,
            "not a scope",
        ),
        (
            create("x", &[], None),
            Code::InvalidArgument,
            "at least one scope",
        ),
        (create("", &["profile:read"], None), Code::InvalidArgument, "name"),
        (
            create("x", &["profile:read"], Some(past)),
            Code::FailedPrecondition,
            "future",
        ),
    ] {
        let why = refused(app.client().create_api_token(authed(request, &coach)).await, code);
        assert!(why.contains(says), "{says}: {why}");
    }
    for n in 0..20 {
        made(&app, &coach, create(&format!("t{n}"), &["profile:read"], None)).await;
    }
    let why = refused(
        app.client()
            .create_api_token(authed(create("one too many", &["profile:read"], None), &coach))
            .await,
        Code::FailedPrecondition,
    );
    assert!(why.contains("20"), "{why}");
}

#[tokio::test]
async fn a_jwt_minted_for_a_token_cannot_manage_tokens() {
    let app = TestApp::start().await;
    let (session, _) = app.register("coach").await;
    let (_, secret) = made(&app, &session, create("x", &["profile:read"], None)).await;
    let jwt = app
        .client()
        .exchange_api_token(exchange(&secret, "POST /api/tokens"))
        .await
        .unwrap()
        .into_inner()
        .jwt;
    let why = refused(
        app.client()
            .create_api_token(authed(create("y", &["profile:read"], None), &jwt))
            .await,
        Code::PermissionDenied,
    );
    assert!(why.contains("sign in"), "{why}");
    refused(
        app.client()
            .list_api_tokens(authed(pb::ListApiTokensRequest {}, &jwt))
            .await,
        Code::PermissionDenied,
    );
}

#[tokio::test]
async fn a_token_expires_by_the_clock_and_last_use_moves_once_a_minute() {
    let clock = ManualClock::at(Utc::now());
    let app = TestApp::start_with_clock(clock.clone()).await;
    let (session, _) = app.register("coach").await;
    let expires = (Utc::now() + Duration::days(1)).to_rfc3339();
    let (token, secret) = made(&app, &session, create("x", &["bookings:read"], Some(expires))).await;
    assert!(token.expires_at.is_some());
    let last_use = || async {
        sqlx::query_scalar::<_, Option<chrono::DateTime<Utc>>>(
            "select last_used_at from identity.api_token where token_id = $1::uuid",
        )
        .bind(&token.token_id)
        .fetch_one(&app.db)
        .await
        .unwrap()
    };
    app.client()
        .exchange_api_token(exchange(&secret, "GET /api/bookings"))
        .await
        .unwrap();
    let first = last_use().await.expect("marked");
    clock.advance(Duration::seconds(30));
    app.client()
        .exchange_api_token(exchange(&secret, "GET /api/bookings"))
        .await
        .unwrap();
    assert_eq!(last_use().await, Some(first), "not again within the minute");
    clock.advance(Duration::seconds(31));
    app.client()
        .exchange_api_token(exchange(&secret, "GET /api/bookings"))
        .await
        .unwrap();
    assert!(last_use().await.unwrap() > first);

    clock.advance(Duration::days(1));
    let why = refused(
        app.client()
            .exchange_api_token(exchange(&secret, "GET /api/bookings"))
            .await,
        Code::Unauthenticated,
    );
    assert!(why.contains("expired"), "{why}");
}

#[tokio::test]
async fn an_admins_token_use_is_in_the_audit_trail_and_a_deleted_persons_token_stops() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (token, secret) = made(&app, &admin, create("ops", &["admin:read"], None)).await;
    app.client()
        .exchange_api_token(exchange(&secret, "GET /api/admin/users"))
        .await
        .unwrap();
    let entries = app
        .client()
        .list_audit_entries(authed(pb::ListAuditEntriesRequest::default(), &admin))
        .await
        .unwrap()
        .into_inner()
        .entries;
    let used = entries
        .iter()
        .find(|e| e.action == "api_token_used")
        .unwrap_or_else(|| panic!("{entries:?}"));
    assert_eq!(
        (used.target_type.as_str(), used.target_id.as_str()),
        ("api_token", token.token_id.as_str())
    );
    assert_eq!(used.target_label, "ops");
    assert_eq!(used.changes[0].field, "used_for");
    assert_eq!(used.changes[0].new_value.as_deref(), Some("GET /api/admin/users"));

    // A coach's use is not audited; a deleted coach's token opens nothing.
    let (coach_session, coach) = app.register("coach").await;
    let (_, coach_secret) = made(&app, &coach_session, create("c", &["profile:read"], None)).await;
    app.client()
        .exchange_api_token(exchange(&coach_secret, "GET /api/coach/profile"))
        .await
        .unwrap();
    let audited: i64 =
        sqlx::query_scalar("select count(*) from identity.admin_audit where action = 'api_token_used'")
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(audited, 1);
    app.client()
        .delete_user(authed(
            pb::DeleteUserRequest {
                user_id: coach.user_id,
            },
            &admin,
        ))
        .await
        .unwrap();
    refused(
        app.client()
            .exchange_api_token(exchange(&coach_secret, "GET /api/coach/profile"))
            .await,
        Code::Unauthenticated,
    );
}
