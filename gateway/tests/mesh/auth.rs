//! Register, login, me and logout through the gateway.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::Mesh;

#[tokio::test]
async fn each_role_registers_signs_in_and_sees_itself() {
    let mesh = Mesh::start().await;
    for role in ["client", "coach", "gym"] {
        let (token, user) = mesh.register(role).await;
        assert_eq!(user["role"], role);

        let (status, me) = mesh.get("/auth/me", Some(&token)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(me["user_id"], user["user_id"]);

        let (status, login) = mesh
            .post(
                "/auth/login",
                None,
                json!({"email": user["email"], "password": platform::testing::FIXTURE_PASSWORD}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{login}");
        assert_eq!(login["user"]["role"], role);
    }
}

#[tokio::test]
async fn a_logged_out_token_stops_working() {
    let mesh = Mesh::start().await;
    let (token, _) = mesh.register("client").await;

    let (status, _) = mesh
        .call(reqwest::Method::POST, "/auth/logout", Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    let (status, body) = mesh.get("/auth/me", Some(&token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["detail"].as_str().is_some());
}

#[tokio::test]
async fn malformed_json_is_a_400_with_a_detail() {
    let mesh = Mesh::start().await;
    let response = mesh
        .http
        .post(mesh.url("/auth/login"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["detail"].as_str().unwrap().contains("JSON"));
}

#[tokio::test]
async fn an_unknown_api_route_is_a_json_404() {
    let mesh = Mesh::start().await;
    let (status, body) = mesh.get("/no/such/thing", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["detail"].as_str().is_some());
}

mod tokens {
    //! Tokens the gateway must refuse: tampered, expired, not yet valid, for another issuer or
    //! audience, unsigned, HS256 signed with the public key, signed by another key.

    use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
    use jsonwebtoken::{Algorithm, EncodingKey, Header};
    use platform::auth::{Claims, TokenVerifier};
    use reqwest::StatusCode;

    use crate::helpers::Mesh;

    /// A signed-in client's token and its claims.
    async fn signed_in(mesh: &Mesh) -> (String, Claims) {
        let (token, _) = mesh.register("client").await;
        let claims = TokenVerifier::from_pem(mesh.keys.1.as_bytes())
            .unwrap()
            .verify(&token)
            .expect("the mesh's own token verifies");
        (token, claims)
    }

    /// Signs `claims` with the mesh's private key, as identity-svc would.
    fn mint(mesh: &Mesh, claims: &Claims) -> String {
        let key = EncodingKey::from_ed_pem(mesh.keys.0.as_bytes()).unwrap();
        jsonwebtoken::encode(&Header::new(Algorithm::EdDSA), claims, &key).unwrap()
    }

    async fn refused(mesh: &Mesh, token: &str) -> String {
        let (status, body) = mesh.get("/auth/me", Some(token)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token}: {body}");
        body["detail"].as_str().expect("a detail").to_owned()
    }

    #[tokio::test]
    async fn a_token_minted_with_the_real_key_and_claims_is_accepted() {
        let mesh = Mesh::start().await;
        let (_, claims) = signed_in(&mesh).await;

        let (status, me) = mesh.get("/auth/me", Some(&mint(&mesh, &claims))).await;

        assert_eq!(status, StatusCode::OK, "{me}");
        assert_eq!(me["user_id"], claims.sub.to_string());
    }

    #[tokio::test]
    async fn a_token_with_a_flipped_signature_character_is_refused() {
        let mesh = Mesh::start().await;
        let (token, _) = signed_in(&mesh).await;
        let signature_at = token.rfind('.').unwrap() + 5;
        let mut bytes = token.into_bytes();
        bytes[signature_at] = if bytes[signature_at] == b'A' { b'B' } else { b'A' };

        refused(&mesh, &String::from_utf8(bytes).unwrap()).await;
    }

    #[tokio::test]
    async fn a_token_whose_payload_was_edited_to_admin_is_refused() {
        let mesh = Mesh::start().await;
        let (token, mut claims) = signed_in(&mesh).await;
        claims.role = platform::auth::Role::Admin;
        let parts: Vec<&str> = token.split('.').collect();
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims).unwrap());
        let forged = format!("{}.{payload}.{}", parts[0], parts[2]);

        refused(&mesh, &forged).await;
        let (status, _) = mesh.get("/admin/users", Some(&forged)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    #[tokio::test]
    async fn an_expired_token_is_refused_and_says_so() {
        let mesh = Mesh::start().await;
        let (_, mut claims) = signed_in(&mesh).await;
        let now = platform::auth::now_secs();
        (claims.iat, claims.nbf, claims.exp) = (now - 3600, now - 3600, now - 5);

        let detail = refused(&mesh, &mint(&mesh, &claims)).await;

        assert!(detail.contains("expired"), "{detail}");
    }

    #[tokio::test]
    async fn a_token_not_yet_valid_is_refused() {
        let mesh = Mesh::start().await;
        let (_, mut claims) = signed_in(&mesh).await;
        claims.nbf = platform::auth::now_secs() + 600;

        refused(&mesh, &mint(&mesh, &claims)).await;
    }

    #[tokio::test]
    async fn a_token_for_another_issuer_or_audience_is_refused() {
        let mesh = Mesh::start().await;
        let (_, claims) = signed_in(&mesh).await;

        let mut other_issuer = claims.clone();
        other_issuer.iss = "someone-else".into();
        refused(&mesh, &mint(&mesh, &other_issuer)).await;

        let mut other_audience = claims;
        other_audience.aud = "another-app".into();
        refused(&mesh, &mint(&mesh, &other_audience)).await;
    }

    #[tokio::test]
    async fn an_unsigned_alg_none_token_is_refused() {
        let mesh = Mesh::start().await;
        let (_, mut claims) = signed_in(&mesh).await;
        claims.role = platform::auth::Role::Admin;
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims).unwrap());

        for token in [format!("{header}.{payload}."), format!("{header}.{payload}")] {
            refused(&mesh, &token).await;
            let (status, _) = mesh.get("/admin/stats", Some(&token)).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
        }
    }

    #[tokio::test]
    async fn an_hs256_token_keyed_with_the_public_key_is_refused() {
        let mesh = Mesh::start().await;
        let (_, claims) = signed_in(&mesh).await;
        let key = EncodingKey::from_secret(mesh.keys.1.as_bytes());
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &key).unwrap();

        refused(&mesh, &token).await;
    }

    #[tokio::test]
    async fn a_token_signed_by_another_key_is_refused() {
        let mesh = Mesh::start().await;
        let (_, claims) = signed_in(&mesh).await;
        let (other_private, _) = platform::auth::generate_keypair();
        let key = EncodingKey::from_ed_pem(other_private.as_bytes()).unwrap();
        let token = jsonwebtoken::encode(&Header::new(Algorithm::EdDSA), &claims, &key).unwrap();

        refused(&mesh, &token).await;
    }

    #[tokio::test]
    async fn a_malformed_authorization_header_is_refused() {
        let mesh = Mesh::start().await;
        let (token, _) = signed_in(&mesh).await;

        for header in [
            "Bearer".to_owned(),
            "Bearer ".to_owned(),
            format!("Basic {token}"),
            token.clone(),
            "Bearer not.a.jwt".to_owned(),
            "Bearer \u{1F600}".to_owned(),
        ] {
            let response = mesh
                .http
                .get(mesh.url("/auth/me"))
                .header("authorization", header.as_bytes())
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{header}");
            let body: serde_json::Value = response.json().await.unwrap();
            assert!(body["detail"].is_string());
        }
    }
}

mod sign_up_and_in {
    //! Registration and login rules as the web app meets them.

    use reqwest::StatusCode;
    use serde_json::json;
    use uuid::Uuid;

    use crate::helpers::{ADMIN_EMAIL, Mesh};

    fn email() -> String {
        format!("someone-{}@mesh.test", Uuid::new_v4().simple())
    }

    async fn register(mesh: &Mesh, body: serde_json::Value) -> (StatusCode, serde_json::Value) {
        mesh.post("/auth/register", None, body).await
    }

    #[tokio::test]
    async fn a_wrong_password_and_an_unknown_email_get_the_same_answer() {
        let mesh = Mesh::start().await;
        let (_, user) = mesh.register("client").await;

        let wrong_password = mesh
            .sign_in(user["email"].as_str().unwrap(), "not-the-password")
            .await;
        let unknown_email = mesh.sign_in(&email(), platform::testing::FIXTURE_PASSWORD).await;

        assert_eq!(wrong_password.0, StatusCode::UNAUTHORIZED);
        assert_eq!(wrong_password, unknown_email);
        assert!(wrong_password.1["detail"].is_string());
    }

    #[tokio::test]
    async fn a_login_with_a_differently_cased_email_works() {
        let mesh = Mesh::start().await;
        let (_, user) = mesh.register("coach").await;

        let (status, body) = mesh
            .sign_in(
                &user["email"].as_str().unwrap().to_uppercase(),
                platform::testing::FIXTURE_PASSWORD,
            )
            .await;

        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["user"]["user_id"], user["user_id"]);
    }

    #[tokio::test]
    async fn nobody_registers_as_an_admin() {
        let mesh = Mesh::start().await;
        let email = email();

        let (status, body) = register(
            &mesh,
            json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Would Be Admin", "role": "admin"}),
        )
        .await;

        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body["detail"].is_string());
        let (status, _) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "no account was made");
    }

    #[tokio::test]
    async fn a_taken_email_is_a_conflict_in_any_case() {
        let mesh = Mesh::start().await;
        let (_, user) = mesh.register("client").await;
        let taken = user["email"].as_str().unwrap();

        for email in [taken.to_owned(), taken.to_uppercase(), ADMIN_EMAIL.to_owned()] {
            let (status, body) = register(
                &mesh,
                json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Again", "role": "gym"}),
            )
            .await;
            assert_eq!(status, StatusCode::CONFLICT, "{email}: {body}");
            assert!(body["detail"].is_string());
        }
    }

    #[tokio::test]
    async fn missing_or_malformed_fields_are_a_400_with_a_detail() {
        let mesh = Mesh::start().await;
        let cases = [
            (
                "/auth/register",
                json!({"email": email(), "password": platform::testing::FIXTURE_PASSWORD}),
            ),
            (
                "/auth/register",
                json!({"email": email(), "password": platform::testing::FIXTURE_PASSWORD, "full_name": ""}),
            ),
            (
                "/auth/register",
                json!({"email": "not-an-email", "password": platform::testing::FIXTURE_PASSWORD, "full_name": "X"}),
            ),
            (
                "/auth/register",
                json!({"email": email(), "password": platform::testing::FIXTURE_PASSWORD, "full_name": "X", "role": "wizard"}),
            ),
            (
                "/auth/register",
                json!({"email": email(), "password": 123456, "full_name": "X"}),
            ),
            ("/auth/login", json!({"email": "x@y.z"})),
            (
                "/auth/login",
                json!({"password": platform::testing::FIXTURE_PASSWORD}),
            ),
            ("/auth/login", json!({"email": "", "password": ""})),
        ];
        for (path, body) in cases {
            let (status, answer) = mesh.post(path, None, body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{path} {body}: {answer}");
            assert!(answer["detail"].is_string(), "{answer}");
        }
    }

    #[tokio::test]
    async fn a_short_password_is_refused_with_the_rule() {
        let mesh = Mesh::start().await;

        let (status, body) = register(
            &mesh,
            json!({"email": email(), "password": "12345", "full_name": "Shorty"}),
        )
        .await;

        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["detail"], "Password must be at least 10 characters.");
    }

    #[tokio::test]
    async fn the_fourth_login_in_a_minute_is_told_to_wait() {
        let mesh = Mesh::start_with(|config| config.auth_rate_limit_per_email_per_minute = 3).await;
        // The limit counts per clock minute: keep the four attempts inside one.
        let second = platform::auth::now_secs() % 60;
        if second > 50 {
            tokio::time::sleep(std::time::Duration::from_secs((61 - second) as u64)).await;
        }
        let email = email();

        for _ in 0..3 {
            let (status, _) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
        }
        let answer = mesh
            .raw(
                reqwest::Method::POST,
                "/auth/login",
                None,
                Some("application/json"),
                json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD}).to_string(),
            )
            .await;

        assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
        let retry_after: u64 = answer.headers["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&retry_after), "{retry_after}");
        assert!(answer.body["detail"].as_str().unwrap().contains("wait"));
    }
}
