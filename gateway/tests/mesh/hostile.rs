//! Hostile input by hand: broken and non-object JSON, wrong types, huge strings, emoji and control
//! characters, SQL- and script-looking text, numbers out of range, oversized bodies, ids that are
//! not UUIDs and wrong media types. Every answer is a 4xx with a `detail` (never a 5xx), text
//! that is accepted comes back verbatim, and the mesh still answers afterwards.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::{Answer, Mesh};

const SQL: &str = "'; drop table identity.app_user; --";
const SCRIPT: &str = "<script>alert(1)</script>";

/// A 4xx with a detail.
#[track_caller]
fn refused(answer: &Answer, what: &str) {
    assert!(
        answer.status.is_client_error(),
        "{what}: {} {}",
        answer.status,
        answer.body
    );
    assert!(answer.body["detail"].is_string(), "{what}: {}", answer.body);
}

#[track_caller]
fn refused_with(status: StatusCode, body: &Value, expected: StatusCode, what: &str) {
    assert_eq!(status, expected, "{what}: {body}");
    assert!(body["detail"].is_string(), "{what}: {body}");
}

/// The mesh still signs people in and answers signed-in reads.
async fn still_answers(mesh: &Mesh, token: &str) {
    let (status, me) = mesh.get("/auth/me", Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    let (status, _) = mesh
        .sign_in(crate::helpers::ADMIN_EMAIL, crate::helpers::ADMIN_PASSWORD)
        .await;
    assert_eq!(status, StatusCode::OK);
}

/// The JSON-body routes these tests aim at, with a path valid for `admin`/`client` callers.
fn json_routes(user_id: &str) -> Vec<(Method, String)> {
    vec![
        (Method::POST, "/auth/register".into()),
        (Method::POST, "/auth/login".into()),
        (Method::POST, "/admin/users".into()),
        (Method::PUT, format!("/admin/users/{user_id}")),
        (Method::POST, "/client/profile".into()),
        (Method::PUT, "/client/profile".into()),
    ]
}

/// The token that may call `path`: the admin's for `/admin`, the client's otherwise.
fn token_for<'a>(path: &str, admin: &'a str, client: &'a str) -> &'a str {
    if path.starts_with("/admin") { admin } else { client }
}

#[tokio::test]
async fn malformed_and_non_object_json_is_a_400_everywhere() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (client, me) = mesh.register("client").await;
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let bodies = [
        "{\"email\": ",
        "{'email': 'x'}",
        "{\"email\": \"x\",}",
        "\u{0}",
        "[]",
        "\"x\"",
        "42",
        "null",
        "true",
        deep.as_str(),
    ];

    for (method, path) in json_routes(me["user_id"].as_str().unwrap()) {
        let token = token_for(&path, &admin, &client);
        for body in bodies {
            let answer = mesh
                .raw(
                    method.clone(),
                    &path,
                    Some(token),
                    Some("application/json"),
                    body.to_owned(),
                )
                .await;
            assert_eq!(
                answer.status,
                StatusCode::BAD_REQUEST,
                "{method} {path} {body:.40}"
            );
            refused(&answer, &format!("{method} {path} {body:.40}"));
        }
    }
    still_answers(&mesh, &client).await;
}

#[tokio::test]
async fn wrong_types_and_duplicate_keys_are_a_400() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (client, me) = mesh.register("client").await;
    let id = me["user_id"].as_str().unwrap();
    let cases = [
        (
            Method::POST,
            "/auth/login".to_owned(),
            json!({"email": 5, "password": true}),
        ),
        (
            Method::POST,
            "/auth/register".to_owned(),
            json!({"email": ["a@b.c"], "password": platform::testing::FIXTURE_PASSWORD, "full_name": "X"}),
        ),
        (
            Method::POST,
            "/admin/users".to_owned(),
            json!({"email": "a@b.c", "password": platform::testing::FIXTURE_PASSWORD, "full_name": {"first": "X"}}),
        ),
        (
            Method::PUT,
            format!("/admin/users/{id}"),
            json!({"phone": 5551234}),
        ),
        (
            Method::PUT,
            format!("/admin/users/{id}"),
            json!({"role": ["admin"]}),
        ),
        (
            Method::POST,
            "/client/profile".to_owned(),
            json!({"age": "twelve"}),
        ),
        (Method::POST, "/client/profile".to_owned(), json!({"age": 12.5})),
        (
            Method::POST,
            "/client/profile".to_owned(),
            json!({"sport": false}),
        ),
    ];
    for (method, path, body) in cases {
        let token = token_for(&path, &admin, &client);
        let (status, answer) = mesh
            .call(method.clone(), &path, Some(token), Some(body.clone()))
            .await;
        refused_with(
            status,
            &answer,
            StatusCode::BAD_REQUEST,
            &format!("{method} {path} {body}"),
        );
    }

    let answer = mesh
        .raw(
            Method::POST,
            "/client/profile",
            Some(&client),
            Some("application/json"),
            r#"{"age": 12, "age": 13}"#,
        )
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    refused(&answer, "duplicate key");
    still_answers(&mesh, &client).await;
}

#[tokio::test]
async fn numbers_out_of_range_are_a_400_and_nothing_is_stored() {
    let mesh = Mesh::start().await;
    let (client, me) = mesh.register("client").await;

    for age in [
        "-1",
        "0",
        "121",
        "1000",
        "2147483648",
        "-2147483649",
        "1e400",
        "99999999999999999999",
    ] {
        let answer = mesh
            .raw(
                Method::POST,
                "/client/profile",
                Some(&client),
                Some("application/json"),
                format!(r#"{{"age": {age}}}"#),
            )
            .await;
        assert_eq!(
            answer.status,
            StatusCode::BAD_REQUEST,
            "age {age}: {}",
            answer.body
        );
        refused(&answer, &format!("age {age}"));
    }
    let (status, _) = mesh
        .get(
            &format!("/client/profile/{}", me["user_id"].as_str().unwrap()),
            Some(&client),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no profile was made");
}

/// Sends each case (the admin's token for `/admin`, the client's otherwise) and collects every
/// answer that is not a 400/401 with a short detail.
async fn refusals_of(mesh: &Mesh, cases: Vec<(Method, String, Value)>) -> Vec<String> {
    let admin = mesh.admin().await;
    let (client, _) = mesh.register("client").await;
    let mut wrong = Vec::new();
    for (method, path, body) in cases {
        let token = token_for(&path, &admin, &client);
        let (status, answer) = mesh.call(method.clone(), &path, Some(token), Some(body)).await;
        let what = format!("{method} {path}");
        let detail = answer["detail"].as_str().unwrap_or_default();
        if !matches!(status, StatusCode::BAD_REQUEST | StatusCode::UNAUTHORIZED) || detail.is_empty() {
            wrong.push(format!("{what}: {status} {answer:.200}"));
        } else if detail.len() > 1024 {
            wrong.push(format!(
                "{what}: the detail echoes the input ({} bytes)",
                detail.len()
            ));
        }
    }
    still_answers(mesh, &client).await;
    wrong
}

fn huge() -> String {
    "x".repeat(100 * 1024)
}

fn fresh_email() -> String {
    format!("h-{}@mesh.test", Uuid::new_v4().simple())
}

#[tokio::test]
async fn strings_of_100_kb_are_refused_with_a_short_detail() {
    let mesh = Mesh::start().await;
    let (_, target) = mesh.register("coach").await;
    let user = format!("/admin/users/{}", target["user_id"].as_str().unwrap());
    let cases = vec![
        (
            Method::POST,
            "/auth/register".into(),
            json!({"email": fresh_email(), "password": platform::testing::FIXTURE_PASSWORD, "full_name": huge()}),
        ),
        (
            Method::POST,
            "/auth/register".into(),
            json!({"email": fresh_email(), "password": huge(), "full_name": "X"}),
        ),
        (
            Method::POST,
            "/auth/login".into(),
            json!({"email": format!("{}@mesh.test", huge()), "password": huge()}),
        ),
        (
            Method::POST,
            "/admin/users".into(),
            json!({"email": fresh_email(), "password": platform::testing::FIXTURE_PASSWORD, "full_name": huge()}),
        ),
        (Method::PUT, user.clone(), json!({"full_name": huge()})),
        (Method::PUT, user.clone(), json!({"password": huge()})),
        (Method::POST, "/client/profile".into(), json!({"sport": huge()})),
        (Method::POST, "/client/profile".into(), json!({"grade": huge()})),
        (
            Method::POST,
            "/client/profile".into(),
            json!({"profile_picture_url": format!("/uploads/{}.png", huge())}),
        ),
    ];

    let wrong = refusals_of(&mesh, cases).await;

    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let (_, seen) = mesh.get(&user, Some(&mesh.admin().await)).await;
    assert_eq!(seen["full_name"], target["full_name"]);
}

/// A refused value must not be quoted whole in the detail: at 100 KB the gRPC status would no
/// longer fit an HTTP/2 header block.
#[tokio::test]
async fn a_100_kb_email_or_phone_is_refused_with_a_short_detail() {
    let mesh = Mesh::start().await;
    let (_, target) = mesh.register("coach").await;
    let user = format!("/admin/users/{}", target["user_id"].as_str().unwrap());
    let huge_email = format!("{}@mesh.test", huge());
    let cases = vec![
        (
            Method::POST,
            "/auth/register".into(),
            json!({"email": huge_email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "X"}),
        ),
        (
            Method::POST,
            "/admin/users".into(),
            json!({"email": huge_email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "X"}),
        ),
        (Method::PUT, user.clone(), json!({"email": huge_email})),
        (Method::PUT, user, json!({"phone": huge()})),
    ];

    let wrong = refusals_of(&mesh, cases).await;

    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[tokio::test]
async fn sql_and_script_looking_text_and_emoji_are_stored_and_returned_verbatim() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let names = [
        SQL,
        SCRIPT,
        "Zoë Ærøskøbing 🏀🏐 李小龍",
        "Robert'); DROP TABLE booking.booking;--",
        "\"quoted\" & <b>bold</b>",
    ];

    for name in names {
        let email = format!("odd-{}@mesh.test", Uuid::new_v4().simple());
        let (status, registered) = mesh
            .post(
                "/auth/register",
                None,
                json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": name}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{name}: {registered}");
        assert_eq!(registered["user"]["full_name"], name);
        let token = registered["token"].as_str().unwrap();
        let (_, me) = mesh.get("/auth/me", Some(token)).await;
        assert_eq!(me["full_name"], name);

        let (status, profile) = mesh
            .post(
                "/client/profile",
                Some(token),
                json!({"sport": name, "grade": name}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{name}: {profile}");
        assert_eq!(
            (&profile["sport"], &profile["grade"]),
            (&json!(name), &json!(name))
        );
    }

    let (_, target) = mesh.register("coach").await;
    let path = format!("/admin/users/{}", target["user_id"].as_str().unwrap());
    for name in names {
        let (status, updated) = mesh
            .call(Method::PUT, &path, Some(&admin), Some(json!({"full_name": name})))
            .await;
        assert_eq!(status, StatusCode::OK, "{name}: {updated}");
        let (_, seen) = mesh.get(&path, Some(&admin)).await;
        assert_eq!(seen["full_name"], name);
    }

    let (status, users) = mesh.get("/admin/users", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "the users table is still there");
    assert!(users.as_array().unwrap().len() >= names.len() + 2);
}

#[tokio::test]
async fn sql_looking_sign_in_attempts_are_plain_refusals() {
    let mesh = Mesh::start().await;

    for (email, password) in [
        (
            format!("{}' or '1'='1", crate::helpers::ADMIN_EMAIL),
            "x' or '1'='1".to_owned(),
        ),
        (crate::helpers::ADMIN_EMAIL.to_owned(), "' or 1=1 --".to_owned()),
        (SQL.to_owned(), SQL.to_owned()),
    ] {
        let (status, body) = mesh.sign_in(&email, &password).await;
        assert!(
            matches!(status, StatusCode::BAD_REQUEST | StatusCode::UNAUTHORIZED),
            "{email}: {status} {body}"
        );
        assert!(body["detail"].is_string());
        assert!(body.get("token").is_none());
    }
}

#[tokio::test]
async fn control_characters_are_refused_with_a_detail() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (client, me) = mesh.register("client").await;
    let path = format!("/admin/users/{}", me["user_id"].as_str().unwrap());

    for name in [
        "nul\u{0}byte",
        "bell\u{7}",
        "line\nbreak",
        "esc\u{1b}[31mred",
        "del\u{7f}",
    ] {
        let (status, body) = mesh
            .call(Method::PUT, &path, Some(&admin), Some(json!({"full_name": name})))
            .await;
        refused_with(status, &body, StatusCode::BAD_REQUEST, &format!("{name:?}"));

        let (status, body) = mesh
            .post(
                "/auth/register",
                None,
                json!({"email": format!("c-{}@mesh.test", Uuid::new_v4().simple()), "password": platform::testing::FIXTURE_PASSWORD, "full_name": name}),
            )
            .await;
        refused_with(
            status,
            &body,
            StatusCode::BAD_REQUEST,
            &format!("register {name:?}"),
        );

        let (status, body) = mesh
            .post("/client/profile", Some(&client), json!({"sport": name}))
            .await;
        refused_with(status, &body, StatusCode::BAD_REQUEST, &format!("sport {name:?}"));
    }
    still_answers(&mesh, &client).await;
}

#[tokio::test]
async fn a_json_body_over_one_megabyte_is_a_413() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (client, _) = mesh.register("client").await;
    let big = json!({"email": "a@b.c", "password": "x".repeat(1_200_000), "full_name": "X"}).to_string();

    for (path, token) in [
        ("/auth/register", None),
        ("/auth/login", None),
        ("/admin/users", Some(admin.as_str())),
        ("/client/profile", Some(client.as_str())),
    ] {
        let answer = mesh
            .raw(Method::POST, path, token, Some("application/json"), big.clone())
            .await;
        assert_eq!(
            answer.status,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{path}: {}",
            answer.body
        );
        refused(&answer, path);
    }
    still_answers(&mesh, &client).await;
}

#[tokio::test]
async fn path_ids_that_are_not_uuids_are_a_400() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (client, _) = mesh.register("client").await;
    let long = "9".repeat(10_000);

    for id in [
        "not-a-uuid",
        "1",
        "%27%20or%201%3D1--",
        "%FF%FE",
        "..%2F..%2Fetc%2Fpasswd",
        long.as_str(),
        "%00",
    ] {
        for (method, path, token) in [
            (Method::GET, format!("/admin/users/{id}"), &admin),
            (Method::PUT, format!("/admin/users/{id}"), &admin),
            (Method::DELETE, format!("/admin/users/{id}"), &admin),
            (Method::GET, format!("/client/profile/{id}"), &client),
        ] {
            let body = (method == Method::PUT).then(|| json!({"full_name": "X"}));
            let (status, answer) = mesh.call(method.clone(), &path, Some(token), body).await;
            let what = format!("{method} {path:.60}");
            assert!(
                matches!(status, StatusCode::BAD_REQUEST | StatusCode::NOT_FOUND),
                "{what}: {status} {answer}"
            );
            assert!(answer["detail"].is_string(), "{what}: {answer}");
        }
    }
    let (status, body) = mesh.get("/admin/users/not-a-uuid", Some(&admin)).await;
    refused_with(status, &body, StatusCode::BAD_REQUEST, "a plain non-UUID");
    still_answers(&mesh, &client).await;
}

#[tokio::test]
async fn a_json_route_sent_another_media_type_is_a_415() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (client, me) = mesh.register("client").await;
    let body = json!({"email": "a@b.c", "password": platform::testing::FIXTURE_PASSWORD, "full_name": "X"})
        .to_string();

    for (method, path) in json_routes(me["user_id"].as_str().unwrap()) {
        let token = token_for(&path, &admin, &client);
        for content_type in [
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
            None,
        ] {
            let answer = mesh
                .raw(method.clone(), &path, Some(token), content_type, body.clone())
                .await;
            let what = format!("{method} {path} as {content_type:?}");
            assert_eq!(
                answer.status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{what}: {}",
                answer.body
            );
            refused(&answer, &what);
        }
    }
    still_answers(&mesh, &client).await;
}

#[tokio::test]
async fn nul_characters_in_a_query_or_a_body_are_a_400_not_a_500() {
    let mesh = Mesh::start().await;
    let (token, _) = mesh.register("coach").await;

    let (status, body) = mesh.get("/coaches/search/city?state=TX%00", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("NUL"));

    let (status, body) = mesh
        .post(
            "/coach/profile",
            Some(&token),
            json!({"bio": "a\u{0}b", "specialties": [], "hourly_rate": 10, "years_experience": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = mesh
        .get(
            &format!("/coach/profile/{}", "00000000-0000-0000-0000-000000000000"),
            Some(&token),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the gateway still answers");
}
