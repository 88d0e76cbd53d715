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
                body.find("/reset-password#token=").expect("a reset link") + "/reset-password#token=".len();
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
        link.contains("http://courtside.test/reset-password#token=") && !link.contains("?token="),
        "the token rides in the fragment, which no server logs: {link}"
    );

    let short = refused(reset(&app, &tokens[0], "abc").await, Code::InvalidArgument);
    assert_eq!(short, "Password must be at least 10 characters.");
    let guessable = refused(reset(&app, &tokens[0], &user.email).await, Code::InvalidArgument);
    assert!(
        guessable.starts_with("This password is too easy to guess: "),
        "{guessable}"
    );
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

#[tokio::test]
async fn past_the_hourly_limit_a_request_is_answered_alike_but_mails_nothing() {
    let app = TestApp::start().await;
    let (_, user) = app.register("client").await;

    for _ in 0..5 {
        forgot(&app, &user.email).await;
    }
    requests_issued(&app).await;

    // RESET_LETTERS_PER_EMAIL_PER_HOUR is 3 unless set.
    let tokens = mailed_tokens(&app, &user.email, 3).await;
    assert_eq!(tokens.len(), 3);
}

/// The service's count of argon2 hashes (`password_hashes_total` on its ops port).
async fn hashes_run(app: &TestApp) -> u64 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut conn = tokio::net::TcpStream::connect(("127.0.0.1", app.ops_port))
        .await
        .unwrap();
    conn.write_all(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    conn.read_to_string(&mut response).await.unwrap();
    response
        .lines()
        .filter(|line| line.starts_with("password_hashes_total"))
        .find_map(|line| line.split_whitespace().last())
        .map_or(0, |n| n.parse().expect("a count"))
}

#[tokio::test]
async fn a_wrong_token_is_refused_before_any_password_is_hashed() {
    let app = TestApp::start().await;
    let (_, user) = app.register("client").await;
    forgot(&app, &user.email).await;
    let tokens = mailed_tokens(&app, &user.email, 1).await;
    let before = hashes_run(&app).await;

    for wrong in ["A".repeat(43), "not-a-token".to_owned()] {
        refused(
            reset(&app, &wrong, platform::testing::NEW_FIXTURE_PASSWORD).await,
            Code::InvalidArgument,
        );
    }
    assert_eq!(hashes_run(&app).await, before, "no hash for a wrong token");

    reset(&app, &tokens[0], platform::testing::NEW_FIXTURE_PASSWORD)
        .await
        .expect("a valid link works");
    assert_eq!(hashes_run(&app).await, before + 1);
}

#[tokio::test]
async fn expired_tokens_and_old_reset_letters_are_purged() {
    let clock = platform::clock::ManualClock::at(chrono::Utc::now());
    let app = TestApp::start_with_clock(clock.clone()).await;
    let (_, user) = app.register("client").await;
    forgot(&app, &user.email).await;
    mailed_tokens(&app, &user.email, 1).await;

    // Two hours on: the link expired after 30 minutes, its letter's record after an hour.
    clock.advance(chrono::Duration::hours(2));

    eventually("the expired token and the old letter purged", || async {
        let left: i64 = sqlx::query_scalar(
            "select (select count(*) from identity.password_reset)
                  + (select count(*) from identity.mail where reset_for is not null)",
        )
        .fetch_one(&app.db)
        .await
        .unwrap();
        (left == 0).then_some(())
    })
    .await;
}
