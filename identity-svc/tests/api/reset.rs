//! Password reset: a link by email (never telling whether the account exists), valid 30 minutes
//! and once; a reset ends every session and every earlier link.

use proto::identity::v1 as pb;
use tonic::Code;

use crate::helpers::{PASSWORD, TestApp, eventually, refused};

async fn forgot(app: &TestApp, email: &str) {
    app.client()
        .forgot_password(pb::ForgotPasswordRequest { email: email.into() })
        .await
        .expect("ForgotPassword answers");
}

async fn reset(app: &TestApp, token: &str, password: &str) -> Result<String, tonic::Status> {
    app.client()
        .reset_password(pb::ResetPasswordRequest {
            token: token.into(),
            password: password.into(),
        })
        .await
        .map(|r| r.into_inner().email)
}

/// The reset tokens of the `count` links mailed to `email`, oldest first, once the reset issuer
/// has written them (moments after the answer).
async fn mailed_tokens(app: &TestApp, email: &str, count: usize) -> Vec<String> {
    let bodies: Vec<String> = eventually(&format!("{count} reset letters"), || async {
        let bodies: Vec<String> = sqlx::query_scalar(
            "select text_body from identity.mail where to_address = $1 and subject = 'Reset your Courtside password'
             order by created_at",
        )
        .bind(email)
        .fetch_all(&app.db)
        .await
        .expect("the mail outbox");
        (bodies.len() >= count).then_some(bodies)
    })
    .await;
    assert_eq!(bodies.len(), count, "one letter per request");
    bodies
        .iter()
        .map(|body| {
            let at =
                body.find("/reset-password?token=").expect("a reset link") + "/reset-password?token=".len();
            body[at..at + 43].to_owned()
        })
        .collect()
}

/// Waits until the reset issuer has taken every request.
async fn requests_issued(app: &TestApp) {
    eventually("the reset requests taken", || async {
        let waiting: i64 = sqlx::query_scalar("select count(*) from identity.reset_request")
            .fetch_one(&app.db)
            .await
            .unwrap();
        (waiting == 0).then_some(())
    })
    .await;
}

#[tokio::test]
async fn a_mailed_link_resets_the_password_once_and_ends_every_session() {
    let app = TestApp::start().await;
    let (old_token, user) = app.register("client").await;

    forgot(&app, &user.email.to_uppercase()).await;
    let tokens = mailed_tokens(&app, &user.email, 1).await;
    let link: String = sqlx::query_scalar(
        "select text_body from identity.mail where to_address = $1 and subject like 'Reset%'",
    )
    .bind(&user.email)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert!(
        link.contains("http://courtside.test/reset-password?token="),
        "{link}"
    );

    let short = refused(reset(&app, &tokens[0], "abc").await, Code::InvalidArgument);
    assert!(short.contains("6"), "{short}");
    assert_eq!(
        reset(&app, &tokens[0], platform::testing::NEW_FIXTURE_PASSWORD)
            .await
            .expect("reset"),
        user.email
    );

    refused(app.login(&user.email, PASSWORD).await, Code::Unauthenticated);
    app.login(&user.email, platform::testing::NEW_FIXTURE_PASSWORD)
        .await
        .expect("the new password signs in");
    let jti = app.claims(&old_token).jti;
    let (version, _) = app.check_token(&user.user_id, jti).await;
    assert_ne!(version, Some(app.claims(&old_token).ver), "the old session ended");
    let used = refused(
        reset(&app, &tokens[0], "Courtside-another-2026").await,
        Code::InvalidArgument,
    );
    assert!(used.contains("Ask for a new one"), "{used}");
}

#[tokio::test]
async fn an_unknown_email_is_answered_alike_and_mails_nothing() {
    let app = TestApp::start().await;

    forgot(&app, "nobody@identity.test").await;
    // Recorded as a known email's request is, then dropped by the issuer.
    requests_issued(&app).await;

    let mails: i64 = sqlx::query_scalar("select count(*) from identity.mail where subject like 'Reset%'")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(mails, 0);
}

#[tokio::test]
async fn an_earlier_an_expired_and_an_unknown_link_are_refused() {
    let app = TestApp::start().await;
    let (_, user) = app.register("coach").await;
    forgot(&app, &user.email).await;
    forgot(&app, &user.email).await;
    forgot(&app, &user.email).await;
    let tokens = mailed_tokens(&app, &user.email, 3).await;

    sqlx::query("update identity.password_reset set expires_at = now() - interval '1 second' where token_hash = encode(sha256($1::bytea), 'hex')")
        .bind(tokens[2].as_bytes())
        .execute(&app.db)
        .await
        .unwrap();
    refused(
        reset(&app, &tokens[2], platform::testing::NEW_FIXTURE_PASSWORD).await,
        Code::InvalidArgument,
    );
    refused(
        reset(&app, &"A".repeat(43), platform::testing::NEW_FIXTURE_PASSWORD).await,
        Code::InvalidArgument,
    );
    refused(
        reset(&app, "not-a-token", platform::testing::NEW_FIXTURE_PASSWORD).await,
        Code::InvalidArgument,
    );

    reset(&app, &tokens[1], platform::testing::NEW_FIXTURE_PASSWORD)
        .await
        .expect("a valid link works");
    refused(
        reset(&app, &tokens[0], "Courtside-another-2026").await,
        Code::InvalidArgument,
    );
}
