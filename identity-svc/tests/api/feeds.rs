//! Calendar feeds: a client's, coach's or gym's secret, made and shown on the first ask and kept
//! only hashed, so later asks say a feed exists without its secret; a reset replaces it and the
//! old one opens nothing at once, as do signing out everywhere, a password change or reset and a
//! role change; the gateway learns whose feed a secret opens, with the owner's role now.

use proto::identity::v1 as pb;
use tonic::Code;

use crate::helpers::{PASSWORD, TestApp, authed, refused};

async fn feed(app: &TestApp, token: &str) -> Result<String, tonic::Status> {
    Ok(app
        .client()
        .get_calendar_feed(authed(pb::GetCalendarFeedRequest {}, token))
        .await?
        .into_inner()
        .secret)
}

async fn reset(app: &TestApp, token: &str) -> Result<String, tonic::Status> {
    Ok(app
        .client()
        .reset_calendar_feed(authed(pb::ResetCalendarFeedRequest {}, token))
        .await?
        .into_inner()
        .secret)
}

async fn resolve(app: &TestApp, secret: &str) -> Result<pb::ResolveCalendarFeedResponse, tonic::Status> {
    Ok(app
        .client()
        .resolve_calendar_feed(pb::ResolveCalendarFeedRequest {
            secret: secret.into(),
        })
        .await?
        .into_inner())
}

#[tokio::test]
async fn a_feed_is_made_and_shown_on_the_first_ask_and_kept_only_hashed() {
    let app = TestApp::start().await;
    let (token, user) = app.register("client").await;

    let first = feed(&app, &token).await.expect("a feed");
    let second = feed(&app, &token).await.expect("the feed exists");

    assert_eq!(first.len(), 43, "{first}");
    assert!(
        first
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    assert_eq!(second, "", "the secret is not kept, so it is not shown again");
    let owner = resolve(&app, &first).await.expect("the secret opens the feed");
    assert_eq!((owner.user_id, owner.role), (user.user_id, "client".to_owned()));
    let stored: String = sqlx::query_scalar("select secret_hash from identity.calendar_feed")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(stored.len(), 64);
    assert!(!stored.contains(&first), "only the hash is stored");
}

#[tokio::test]
async fn each_person_has_a_secret_of_their_own() {
    let app = TestApp::start().await;
    let (coach, coach_user) = app.register("coach").await;
    let (gym, gym_user) = app.register("gym").await;

    let coach_secret = feed(&app, &coach).await.expect("a coach's feed");
    let gym_secret = feed(&app, &gym).await.expect("a gym's feed");

    assert_ne!(coach_secret, gym_secret);
    let owner = resolve(&app, &coach_secret).await.expect("the coach's feed");
    assert_eq!(
        (owner.user_id, owner.role),
        (coach_user.user_id, "coach".to_owned())
    );
    let owner = resolve(&app, &gym_secret).await.expect("the gym's feed");
    assert_eq!((owner.user_id, owner.role), (gym_user.user_id, "gym".to_owned()));
}

#[tokio::test]
async fn a_reset_gives_a_new_secret_and_the_old_one_opens_nothing_at_once() {
    let app = TestApp::start().await;
    let (token, user) = app.register("coach").await;
    let old = feed(&app, &token).await.expect("a feed");

    let new = reset(&app, &token).await.expect("a new secret");

    assert_ne!(old, new);
    refused(resolve(&app, &old).await, Code::NotFound);
    assert_eq!(
        resolve(&app, &new).await.expect("the new secret").user_id,
        user.user_id
    );
    assert_eq!(
        feed(&app, &token).await.expect("the feed"),
        "",
        "shown once, by the reset"
    );
}

#[tokio::test]
async fn a_reset_before_any_feed_makes_one() {
    let app = TestApp::start().await;
    let (token, _) = app.register("gym").await;

    let secret = reset(&app, &token).await.expect("a secret");

    assert_eq!(feed(&app, &token).await.expect("the feed"), "");
    resolve(&app, &secret).await.expect("the secret opens the feed");
}

#[tokio::test]
async fn an_unknown_or_malformed_secret_opens_nothing() {
    let app = TestApp::start().await;
    let (token, _) = app.register("client").await;
    let real = feed(&app, &token).await.expect("a feed");
    let mut other = real.clone().into_bytes();
    other[0] = if other[0] == b'A' { b'B' } else { b'A' };
    let other = String::from_utf8(other).expect("ASCII");

    for secret in [other.as_str(), "", "short", &real[1..], "' or 1=1 --"] {
        refused(resolve(&app, secret).await, Code::NotFound);
    }
}

#[tokio::test]
async fn an_admin_has_no_sessions_and_so_no_feed() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;

    refused(feed(&app, &admin).await, Code::PermissionDenied);
    refused(reset(&app, &admin).await, Code::PermissionDenied);
}

#[tokio::test]
async fn without_a_token_there_is_no_feed_to_show_or_reset() {
    let app = TestApp::start().await;

    let shown = app
        .client()
        .get_calendar_feed(pb::GetCalendarFeedRequest {})
        .await;
    let reset = app
        .client()
        .reset_calendar_feed(pb::ResetCalendarFeedRequest {})
        .await;

    refused(shown, Code::Unauthenticated);
    refused(reset, Code::Unauthenticated);
}

#[tokio::test]
async fn a_deleted_users_feed_opens_nothing() {
    let app = TestApp::start().await;
    let (token, user) = app.register("client").await;
    let secret = feed(&app, &token).await.expect("a feed");
    let (admin, _) = app.admin().await;

    app.client()
        .delete_user(authed(
            pb::DeleteUserRequest {
                user_id: user.user_id.clone(),
            },
            &admin,
        ))
        .await
        .expect("the admin deletes the user");

    refused(resolve(&app, &secret).await, Code::NotFound);
}

/// The feed's address ends with the sessions: after `end`, the old secret opens nothing and the
/// next ask makes and shows a new one.
async fn assert_rotated(app: &TestApp, token: &str, old: &str) {
    refused(resolve(app, old).await, Code::NotFound);
    let new = feed(app, token).await.expect("a new feed");
    assert_eq!(new.len(), 43, "a new address is made and shown");
    assert_ne!(new, old);
}

#[tokio::test]
async fn signing_out_everywhere_ends_the_feeds_address() {
    let app = TestApp::start().await;
    let (token, user) = app.register("client").await;
    app.login(&user.email, PASSWORD).await.unwrap();
    let old = feed(&app, &token).await.expect("a feed");

    app.client()
        .end_other_sessions(authed(pb::EndOtherSessionsRequest {}, &token))
        .await
        .expect("signed out everywhere else");

    assert_rotated(&app, &token, &old).await;
}

#[tokio::test]
async fn a_password_change_or_a_role_change_ends_the_feeds_address() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    for change in [
        pb::UpdateUserRequest {
            password: Some(platform::testing::NEW_FIXTURE_PASSWORD.into()),
            ..Default::default()
        },
        pb::UpdateUserRequest {
            role: Some("gym".into()),
            ..Default::default()
        },
    ] {
        let (token, user) = app.register("coach").await;
        let old = feed(&app, &token).await.expect("a feed");

        app.client()
            .update_user(authed(
                pb::UpdateUserRequest {
                    user_id: user.user_id.clone(),
                    ..change
                },
                &admin,
            ))
            .await
            .expect("the admin's change");

        let (token, _) = app
            .login(&user.email, platform::testing::NEW_FIXTURE_PASSWORD)
            .await
            .or(app.login(&user.email, PASSWORD).await)
            .expect("signed in again");
        assert_rotated(&app, &token, &old).await;
    }
}

#[tokio::test]
async fn a_password_reset_ends_the_feeds_address() {
    let app = TestApp::start().await;
    let (token, user) = app.register("client").await;
    let old = feed(&app, &token).await.expect("a feed");
    app.client()
        .forgot_password(pb::ForgotPasswordRequest {
            email: user.email.clone(),
        })
        .await
        .unwrap();
    let body: String = crate::helpers::eventually("the reset letter", || async {
        sqlx::query_scalar::<_, String>("select text_body from identity.mail where reset_for is not null")
            .fetch_optional(&app.db)
            .await
            .unwrap()
    })
    .await;
    let at = body.find("#token=").expect("a reset link") + "#token=".len();

    app.client()
        .reset_password(pb::ResetPasswordRequest {
            token: body[at..at + 43].to_owned(),
            password: platform::testing::NEW_FIXTURE_PASSWORD.into(),
        })
        .await
        .expect("reset");

    let (token, _) = app
        .login(&user.email, platform::testing::NEW_FIXTURE_PASSWORD)
        .await
        .unwrap();
    assert_rotated(&app, &token, &old).await;
}
