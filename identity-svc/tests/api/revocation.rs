//! Tokens that stop working at once: logout, a role or password change, a deleted user. The
//! database answers CheckToken; Redis carries the same facts to every gateway replica.

use platform::auth::Role;
use proto::identity::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{DEAD_REDIS_URL, TestApp, authed, config, fresh_database, refused};

#[tokio::test]
async fn a_fresh_token_is_in_force() {
    let app = TestApp::start().await;
    let (token, user) = app.register("coach").await;

    let state = app.check_token(&user.user_id, app.claims(&token).jti).await;

    assert_eq!(state, (Some(0), false));
}

#[tokio::test]
async fn logging_out_revokes_the_token_in_the_database_and_the_cache() {
    let app = TestApp::start().await;
    let (token, user) = app.register("client").await;
    let claims = app.claims(&token);
    // Read before logging out: the revocation is set for at most what is left then.
    let until_expiry = claims.exp - platform::auth::now_secs();

    app.client()
        .logout(authed(pb::LogoutRequest {}, &token))
        .await
        .expect("logout");

    assert_eq!(app.check_token(&user.user_id, claims.jti).await, (Some(0), true));
    let (value, ttl) = app.redis_value(&format!("rv:{}", claims.jti)).await;
    assert_eq!(value.as_deref(), Some("1"));
    assert!(ttl > until_expiry - 60 && ttl <= until_expiry, "ttl {ttl}");
}

#[tokio::test]
async fn logging_out_leaves_the_users_other_tokens_in_force() {
    let app = TestApp::start().await;
    let (first, user) = app.register("client").await;
    let (second, _) = app.login(&user.email, crate::helpers::PASSWORD).await.unwrap();

    app.client()
        .logout(authed(pb::LogoutRequest {}, &first))
        .await
        .expect("logout");

    let state = app.check_token(&user.user_id, app.claims(&second).jti).await;
    assert_eq!(state, (Some(0), false));
}

#[tokio::test]
async fn logging_out_without_a_token_is_unauthenticated() {
    let app = TestApp::start().await;

    let result = app.client().logout(pb::LogoutRequest {}).await;

    refused(result, Code::Unauthenticated);
}

#[tokio::test]
async fn a_logged_out_admin_token_no_longer_opens_admin_calls() {
    let app = TestApp::start().await;
    let (token, _) = app.admin().await;
    app.client()
        .logout(authed(pb::LogoutRequest {}, &token))
        .await
        .expect("logout");

    let message = refused(
        app.client()
            .list_users(authed(pb::ListUsersRequest::default(), &token))
            .await,
        Code::Unauthenticated,
    );

    assert_eq!(message, "your session has ended; please sign in again");
}

#[tokio::test]
async fn a_role_change_gives_the_user_a_new_token_version_everywhere() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (token, user) = app.register("coach").await;
    let jti = app.claims(&token).jti;

    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                role: Some("client".into()),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .expect("update");

    assert_eq!(app.check_token(&user.user_id, jti).await, (Some(1), false));
    let (value, ttl) = app.redis_value(&format!("tv:{}", user.user_id)).await;
    assert_eq!(value.as_deref(), Some("1"));
    assert!(ttl > 86_000 && ttl <= 86_400, "ttl {ttl}");
}

#[tokio::test]
async fn a_password_change_gives_the_user_a_new_token_version() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (token, user) = app.register("gym").await;

    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                password: Some("brand-new-secret".into()),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .expect("update");

    assert_eq!(
        app.check_token(&user.user_id, app.claims(&token).jti).await.0,
        Some(1)
    );
    let (value, _) = app.redis_value(&format!("tv:{}", user.user_id)).await;
    assert_eq!(value.as_deref(), Some("1"));
    let (new_token, _) = app
        .login(&user.email, "brand-new-secret")
        .await
        .expect("new password");
    assert_eq!(app.claims(&new_token).ver, 1);
}

#[tokio::test]
async fn a_rename_or_new_email_leaves_tokens_in_force() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (token, user) = app.register("client").await;

    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                full_name: Some("Renamed Person".into()),
                email: Some(format!("renamed-{}@identity.test", Uuid::new_v4().simple())),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .expect("update");

    assert_eq!(
        app.check_token(&user.user_id, app.claims(&token).jti).await,
        (Some(0), false)
    );
    assert_eq!(app.redis_value(&format!("tv:{}", user.user_id)).await.0, None);
}

#[tokio::test]
async fn deleting_a_user_ends_their_tokens_everywhere() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (token, user) = app.register("coach").await;

    app.client()
        .delete_user(authed(
            pb::DeleteUserRequest {
                user_id: user.user_id.clone(),
            },
            &admin,
        ))
        .await
        .expect("delete");

    assert_eq!(
        app.check_token(&user.user_id, app.claims(&token).jti).await,
        (None, false)
    );
    assert_eq!(
        app.redis_value(&format!("tv:{}", user.user_id))
            .await
            .0
            .as_deref(),
        Some("-1")
    );
    let me = app.client().get_me(authed(pb::GetMeRequest {}, &token)).await;
    refused(me, Code::Unauthenticated);
}

#[tokio::test]
async fn a_demoted_admins_old_token_no_longer_opens_admin_calls() {
    let app = TestApp::start().await;
    let (root, _) = app.admin().await;
    let created = app
        .client()
        .create_user(authed(
            pb::CreateUserRequest {
                email: "second-admin@identity.test".into(),
                password: platform::testing::NEW_FIXTURE_PASSWORD.into(),
                full_name: "Second Admin".into(),
                phone: None,
                role: "admin".into(),
            },
            &root,
        ))
        .await
        .expect("create")
        .into_inner()
        .user
        .unwrap();
    let (second, _) = app
        .login(
            "second-admin@identity.test",
            platform::testing::NEW_FIXTURE_PASSWORD,
        )
        .await
        .unwrap();

    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: created.user_id,
                role: Some("coach".into()),
                ..Default::default()
            },
            &root,
        ))
        .await
        .expect("demote");

    let message = refused(
        app.client()
            .list_users(authed(pb::ListUsersRequest::default(), &second))
            .await,
        Code::Unauthenticated,
    );
    assert_eq!(message, "your session has ended; please sign in again");
}

#[tokio::test]
async fn check_token_refuses_ids_that_are_not_uuids() {
    let app = TestApp::start().await;

    let message = refused(
        app.client()
            .check_token(pb::CheckTokenRequest {
                user_id: "42".into(),
                jti: Uuid::new_v4().to_string(),
            })
            .await,
        Code::InvalidArgument,
    );

    assert_eq!(message, "user_id must be a UUID");
}

#[tokio::test]
async fn changes_and_logouts_fail_unavailable_while_redis_is_down_but_the_database_keeps_them() {
    let database_url = fresh_database().await;
    let app = TestApp::start_with(config(&database_url, DEAD_REDIS_URL)).await;
    let (admin, _) = app.admin().await;
    let (token, user) = app.register("coach").await;

    let role_change = app
        .client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                role: Some("gym".into()),
                ..Default::default()
            },
            &admin,
        ))
        .await;
    let logout = app.client().logout(authed(pb::LogoutRequest {}, &token)).await;

    for refusal in [
        refused(role_change, Code::Unavailable),
        refused(logout, Code::Unavailable),
    ] {
        assert!(refusal.contains("Please try again"), "{refusal}");
    }
    let state = app.check_token(&user.user_id, app.claims(&token).jti).await;
    assert_eq!(state, (Some(1), true), "recorded in the database all the same");
}

#[tokio::test]
async fn ending_other_sessions_reset_and_delete_fail_unavailable_while_redis_is_down() {
    let database_url = fresh_database().await;
    let app = TestApp::start_with(config(&database_url, DEAD_REDIS_URL)).await;
    let (admin, _) = app.admin().await;
    let (token, user) = app.register("client").await;
    app.login(&user.email, crate::helpers::PASSWORD).await.unwrap();

    let others = app
        .client()
        .end_other_sessions(authed(pb::EndOtherSessionsRequest {}, &token))
        .await;
    refused(others, Code::Unavailable);
    let delete = app
        .client()
        .delete_user(authed(
            pb::DeleteUserRequest {
                user_id: user.user_id.clone(),
            },
            &admin,
        ))
        .await;
    refused(delete, Code::Unavailable);
    let state = app.check_token(&user.user_id, app.claims(&token).jti).await;
    assert_eq!(state.0, None, "the user is gone all the same");
}

#[tokio::test]
async fn a_late_cache_write_never_moves_a_token_version_backwards() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, user) = app.register("coach").await;
    let mut redis = crate::helpers::redis_connection().await;
    let key = format!("{}:tv:{}", app.namespace, user.user_id);
    // As if a later change had already been cached.
    let _: () = redis::cmd("SET")
        .arg(&key)
        .arg(5)
        .query_async(&mut redis)
        .await
        .unwrap();

    app.client()
        .update_user(authed(
            pb::UpdateUserRequest {
                user_id: user.user_id.clone(),
                role: Some(Role::Client.as_str().into()),
                ..Default::default()
            },
            &admin,
        ))
        .await
        .expect("update");

    assert_eq!(
        app.redis_value(&format!("tv:{}", user.user_id))
            .await
            .0
            .as_deref(),
        Some("5")
    );
}
