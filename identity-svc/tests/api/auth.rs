//! Register, login, me and the tokens the service accepts or refuses.

use platform::auth::{AUDIENCE, Claims, ISSUER, Role};
use proto::identity::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{
    ADMIN_EMAIL, ADMIN_PASSWORD, PASSWORD, REDIS_URL, TestApp, authed, config, eventually, fresh_database,
    refused, register_request,
};

#[tokio::test]
async fn clients_coaches_and_gyms_register_sign_in_and_see_themselves() {
    let app = TestApp::start().await;
    for role in ["client", "coach", "gym"] {
        let email = format!("{role}-{}@identity.test", Uuid::new_v4().simple());

        let registered = app
            .client()
            .register(register_request(&email, PASSWORD, role))
            .await
            .expect("register")
            .into_inner();
        let (login_token, logged_in) = app.login(&email, PASSWORD).await.expect("login");
        let me = app
            .client()
            .get_me(authed(pb::GetMeRequest {}, &login_token))
            .await
            .expect("me")
            .into_inner()
            .user
            .expect("a user");

        let user = registered.user.expect("a user");
        assert_eq!((user.email.as_str(), user.role.as_str()), (email.as_str(), role));
        assert_eq!(app.claims(&registered.token).role.as_str(), role);
        assert_eq!(logged_in.user_id, user.user_id);
        assert_eq!(me, user);
    }
}

#[tokio::test]
async fn the_seeded_admin_signs_in_as_an_admin() {
    let app = TestApp::start().await;

    let (token, user) = app.admin().await;
    let me = app
        .client()
        .get_me(authed(pb::GetMeRequest {}, &token))
        .await
        .expect("me")
        .into_inner();

    assert_eq!(user.role, "admin");
    assert_eq!(me.user.expect("a user").email, ADMIN_EMAIL);
}

#[tokio::test]
async fn the_first_admin_is_created_once_however_often_the_service_starts() {
    let database_url = fresh_database().await;
    let first = identity_svc::build(config(&database_url, REDIS_URL))
        .await
        .expect("first start");
    drop(first);

    let app = TestApp::start_with(config(&database_url, REDIS_URL)).await;
    let admins: i64 = sqlx::query_scalar("select count(*) from identity.app_user where role = 'admin'")
        .fetch_one(&app.db)
        .await
        .unwrap();

    assert_eq!(admins, 1);
    assert!(app.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.is_ok());
}

#[tokio::test]
async fn an_email_is_matched_whatever_its_case_and_surrounding_spaces() {
    let app = TestApp::start().await;
    app.client()
        .register(register_request("Ann.Lee@Example.com", PASSWORD, "client"))
        .await
        .expect("register");

    let (_, user) = app
        .login("  ann.lee@EXAMPLE.com ", PASSWORD)
        .await
        .expect("login");

    assert_eq!(user.email, "ann.lee@example.com");
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_email_get_the_same_answer() {
    let app = TestApp::start().await;
    let (_, user) = app.register("client").await;

    let wrong_password = refused(
        app.login(&user.email, "not-the-password").await,
        Code::Unauthenticated,
    );
    let unknown_email = refused(
        app.login("nobody@identity.test", PASSWORD).await,
        Code::Unauthenticated,
    );

    assert_eq!(wrong_password, "Incorrect email or password");
    assert_eq!(unknown_email, wrong_password);
}

#[tokio::test]
async fn signing_in_without_email_or_password_is_invalid() {
    let app = TestApp::start().await;

    let no_password = refused(app.login("ann@identity.test", "").await, Code::InvalidArgument);
    let no_email = refused(app.login("  ", PASSWORD).await, Code::InvalidArgument);

    assert_eq!(no_password, "email and password are required");
    assert_eq!(no_email, no_password);
}

#[tokio::test]
async fn registering_without_email_password_or_name_is_refused_with_one_message() {
    let app = TestApp::start().await;
    let mut no_name = register_request("ann@identity.test", PASSWORD, "client");
    no_name.full_name = "   ".into();
    for request in [
        register_request("", PASSWORD, "client"),
        register_request("ann@identity.test", "", "client"),
        no_name,
    ] {
        let message = refused(app.client().register(request).await, Code::InvalidArgument);

        assert_eq!(message, "Email, password, and full name are required");
    }
}

#[tokio::test]
async fn malformed_fields_are_refused_with_a_reason() {
    let app = TestApp::start().await;
    let mut bad_phone = register_request("ann@identity.test", PASSWORD, "client");
    bad_phone.phone = Some("call me maybe".into());
    let mut long_name = register_request("ann@identity.test", PASSWORD, "client");
    long_name.full_name = "x".repeat(101);
    let mut control_name = register_request("ann@identity.test", PASSWORD, "client");
    control_name.full_name = "Ann\u{0}Lee".into();

    let cases = [
        (
            register_request("not-an-email", PASSWORD, "client"),
            "\"not-an-email\" is not a valid email address",
        ),
        (
            register_request("ann@identity.test", PASSWORD, "wizard"),
            "role must be one of admin, coach, client or gym",
        ),
        (bad_phone, "\"call me maybe\" is not a valid phone number"),
        (long_name, "full name must be at most 100 characters"),
        (control_name, "full name must not contain control characters"),
    ];
    for (request, expected) in cases {
        let message = refused(app.client().register(request).await, Code::InvalidArgument);

        assert_eq!(message, expected);
    }
}

#[tokio::test]
async fn a_password_shorter_than_ten_characters_is_refused() {
    let app = TestApp::start().await;

    let message = refused(
        app.client()
            .register(register_request("ann@identity.test", "Zq8#kW2!x", "client"))
            .await,
        Code::InvalidArgument,
    );

    assert_eq!(message, "Password must be at least 10 characters.");
}

#[tokio::test]
async fn a_common_or_guessable_password_is_refused_saying_why() {
    let app = TestApp::start().await;

    for weak in ["password123", "qwertyuiop1", "ann.lee@identity.test"] {
        let message = refused(
            app.client()
                .register(pb::RegisterRequest {
                    full_name: "Ann Lee".into(),
                    ..register_request("ann.lee@identity.test", weak, "client")
                })
                .await,
            Code::InvalidArgument,
        );
        assert!(
            message.starts_with("This password is too easy to guess: ") && message.len() > 40,
            "{weak}: {message}"
        );
    }
}

#[tokio::test]
async fn sql_and_script_looking_names_and_emoji_are_stored_verbatim() {
    let app = TestApp::start().await;
    let name = "Robert'); drop table identity.app_user;-- <script>alert(1)</script> 🏀";
    let mut request = register_request("bobby@identity.test", PASSWORD, "coach");
    request.full_name = name.into();

    let user = app
        .client()
        .register(request)
        .await
        .expect("register")
        .into_inner()
        .user
        .unwrap();

    assert_eq!(user.full_name, name);
    assert!(app.login("bobby@identity.test", PASSWORD).await.is_ok());
}

#[tokio::test]
async fn an_email_already_registered_is_a_conflict_whatever_its_case() {
    let app = TestApp::start().await;
    app.client()
        .register(register_request("ann@identity.test", PASSWORD, "client"))
        .await
        .expect("first registration");

    for email in ["ann@identity.test", "ANN@Identity.Test"] {
        let message = refused(
            app.client()
                .register(register_request(email, PASSWORD, "coach"))
                .await,
            Code::AlreadyExists,
        );

        assert_eq!(message, "an account with this email already exists");
    }
}

#[tokio::test]
async fn twenty_simultaneous_registrations_of_one_email_create_exactly_one_account() {
    let app = TestApp::start().await;

    let attempts = (0..20).map(|i| {
        let mut client = app.client();
        // Different spellings of one address race too.
        let email = if i % 2 == 0 {
            "race@identity.test"
        } else {
            "RACE@identity.test"
        };
        async move { client.register(register_request(email, PASSWORD, "client")).await }
    });
    let results = futures::future::join_all(attempts).await;

    let created = results.iter().filter(|r| r.is_ok()).count();
    let conflicts = results
        .iter()
        .filter(|r| r.as_ref().is_err_and(|s| s.code() == Code::AlreadyExists))
        .count();
    let rows: i64 = sqlx::query_scalar(
        "select count(*) from identity.app_user where lower(email) = 'race@identity.test'",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!((created, conflicts, rows), (1, 19, 1));
}

#[tokio::test]
async fn registering_as_an_admin_is_refused() {
    let app = TestApp::start().await;

    let message = refused(
        app.client()
            .register(register_request("sneaky@identity.test", PASSWORD, "admin"))
            .await,
        Code::InvalidArgument,
    );

    assert_eq!(message, "an account cannot be registered with the role admin");
    assert!(app.login("sneaky@identity.test", PASSWORD).await.is_err());
}

#[tokio::test]
async fn an_empty_role_registers_a_client() {
    let app = TestApp::start().await;

    let user = app
        .client()
        .register(register_request("plain@identity.test", PASSWORD, ""))
        .await
        .expect("register")
        .into_inner()
        .user
        .unwrap();

    assert_eq!(user.role, "client");
}

#[tokio::test]
async fn me_without_a_token_is_unauthenticated() {
    let app = TestApp::start().await;

    let message = refused(
        app.client().get_me(pb::GetMeRequest {}).await,
        Code::Unauthenticated,
    );

    assert_eq!(message, "please sign in to do this");
}

#[tokio::test]
async fn me_for_a_user_who_no_longer_exists_is_unauthenticated() {
    let app = TestApp::start().await;
    let token = app.token_for(Uuid::new_v4(), Role::Client);

    let message = refused(
        app.client().get_me(authed(pb::GetMeRequest {}, &token)).await,
        Code::Unauthenticated,
    );

    assert_eq!(message, "this account no longer exists");
}

#[tokio::test]
async fn a_tampered_token_is_refused() {
    let app = TestApp::start().await;
    let (client_token, _) = app.register("client").await;
    let (admin_token, _) = app.admin().await;
    // The admin's claims under the client's header and signature.
    let parts: Vec<&str> = client_token.split('.').collect();
    let admin_claims = admin_token.split('.').nth(1).unwrap();
    let forged = format!("{}.{admin_claims}.{}", parts[0], parts[2]);

    let message = refused(
        app.client()
            .list_users(authed(pb::ListUsersRequest::default(), &forged))
            .await,
        Code::Unauthenticated,
    );

    assert_eq!(message, "the token is invalid; please sign in again");
}

#[tokio::test]
async fn a_token_signed_by_another_key_is_refused() {
    let app = TestApp::start().await;
    let (other_private, _) = platform::auth::generate_keypair();
    let other = platform::auth::TokenSigner::from_pem(other_private.as_bytes()).unwrap();
    let (token, _) = other.issue(Uuid::new_v4(), Role::Admin, 0).unwrap();

    let result = app.client().get_me(authed(pb::GetMeRequest {}, &token)).await;

    refused(result, Code::Unauthenticated);
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    let app = TestApp::start().await;
    let (_, user) = app.register("client").await;
    let now = platform::auth::now_secs();
    let claims = Claims {
        sub: user.user_id.parse().unwrap(),
        role: Role::Client,
        ver: 0,
        jti: Uuid::new_v4(),
        iss: ISSUER.into(),
        aud: AUDIENCE.into(),
        iat: now - 3600,
        nbf: now - 3600,
        exp: now - 1,
        api: false,
    };
    let token = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::EdDSA),
        &claims,
        &jsonwebtoken::EncodingKey::from_ed_pem(app.keys.0.as_bytes()).unwrap(),
    )
    .unwrap();

    let message = refused(
        app.client().get_me(authed(pb::GetMeRequest {}, &token)).await,
        Code::Unauthenticated,
    );

    assert_eq!(message, "the token has expired; please sign in again");
}

#[tokio::test]
async fn an_alg_none_token_is_refused() {
    let app = TestApp::start().await;
    let (token, _) = app.register("client").await;
    let claims = token.split('.').nth(1).unwrap();
    // {"alg":"none","typ":"JWT"}
    let forged = format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{claims}.");

    let result = app.client().get_me(authed(pb::GetMeRequest {}, &forged)).await;

    refused(result, Code::Unauthenticated);
}

#[tokio::test]
async fn an_hs256_token_keyed_with_the_public_key_is_refused() {
    let app = TestApp::start().await;
    let (token, _) = app.register("client").await;
    let claims = app.claims(&token);
    let forged = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(app.keys.1.as_bytes()),
    )
    .unwrap();

    let result = app.client().get_me(authed(pb::GetMeRequest {}, &forged)).await;

    refused(result, Code::Unauthenticated);
}

#[tokio::test]
async fn a_header_that_is_not_a_bearer_token_is_refused() {
    let app = TestApp::start().await;
    let mut request = tonic::Request::new(pb::GetMeRequest {});
    request
        .metadata_mut()
        .insert("authorization", "Basic YWRtaW46YWRtaW4=".parse().unwrap());

    let message = refused(app.client().get_me(request).await, Code::Unauthenticated);

    assert_eq!(message, "the authorization header must be 'Bearer <token>'");
}

#[tokio::test]
async fn the_service_is_ready_when_its_database_answers() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::start().await;
    let mut conn = tokio::net::TcpStream::connect(("127.0.0.1", app.ops_port))
        .await
        .unwrap();

    conn.write_all(b"GET /readyz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    conn.read_to_string(&mut response).await.unwrap();

    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
}

#[tokio::test]
async fn the_service_and_its_outbox_relay_stop_when_asked() {
    let app = TestApp::start().await;

    let stopped = tokio::time::timeout(std::time::Duration::from_secs(5), app.stop()).await;

    assert!(stopped.is_ok(), "the service did not stop within 5 s");
}

#[tokio::test]
async fn a_hash_made_at_older_parameters_is_replaced_at_sign_in_without_ending_sessions() {
    use argon2::{Algorithm, Argon2, Params, PasswordHasher, Version, password_hash::SaltString};

    let app = TestApp::start().await;
    let (_, user) = app.register("client").await;
    let user_id = Uuid::parse_str(&user.user_id).unwrap();
    // OWASP's first configuration (19 MiB, t = 2), which earlier releases stored.
    let older = Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(19 * 1024, 2, 1, None).unwrap(),
    )
    .hash_password(PASSWORD.as_bytes(), &SaltString::generate(&mut rand::rngs::OsRng))
    .unwrap()
    .to_string();
    sqlx::query("update identity.app_user set password_hash = $2 where user_id = $1")
        .bind(user_id)
        .bind(&older)
        .execute(&app.db)
        .await
        .unwrap();
    let stored = || async {
        sqlx::query_as::<_, (String, i64)>(
            "select password_hash, token_version from identity.app_user where user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&app.db)
        .await
        .unwrap()
    };
    let (_, version_before) = stored().await;

    app.login(&user.email, PASSWORD)
        .await
        .expect("signs in with the older hash");

    let (upgraded, version_after) = eventually("the hash to be replaced", || async {
        Some(stored().await).filter(|(hash, _)| *hash != older)
    })
    .await;
    assert!(
        upgraded.starts_with("$argon2id$v=19$m=12288,t=3,p=1$"),
        "{upgraded}"
    );
    assert_eq!(
        version_after, version_before,
        "a rehash must not end the user's sessions"
    );
    app.login(&user.email, PASSWORD)
        .await
        .expect("signs in with the new hash");
    refused(
        app.login(&user.email, "not-the-password").await,
        Code::Unauthenticated,
    );
}
