//! Per-person limits (issue 32): live notification streams per person, profile-picture uploads
//! per person per day and one stored picture per person; and a body over the limit answered its
//! 413 whole, never cut off.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    client::{PNG, bytes},
    events::eventually,
    helpers::Mesh,
};

/// Opens `GET /notifications/stream` and hands back the answer, open while it is held.
async fn stream(mesh: &Mesh, token: &str) -> reqwest::Response {
    mesh.http
        .get(mesh.url("/notifications/stream"))
        .bearer_auth(token)
        .send()
        .await
        .expect("the gateway answers")
}

#[tokio::test]
async fn a_sixth_live_stream_of_one_person_is_refused_until_one_of_the_five_closes() {
    let mesh = Mesh::start().await;
    let (token, _) = mesh.register("client").await;
    let (other, _) = mesh.register("coach").await;
    let mut open = Vec::new();
    for _ in 0..5 {
        let response = stream(&mesh, &token).await;
        assert_eq!(response.status(), StatusCode::OK);
        open.push(response);
    }

    let sixth = stream(&mesh, &token).await;

    assert_eq!(sixth.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(sixth.headers().contains_key("retry-after"));
    let body: Value = sixth.json().await.unwrap();
    assert_eq!(
        body["detail"],
        "You already have 5 live notification streams open (other tabs or devices); close one and try again."
    );
    // Another person's streams are their own.
    assert_eq!(stream(&mesh, &other).await.status(), StatusCode::OK);
    // A closed stream gives its place back.
    drop(open.pop());
    let kept = std::sync::Mutex::new(Vec::new());
    let (mesh, token, kept) = (&mesh, &token, &kept);
    let reopened = eventually(move || async move {
        let response = stream(mesh, token).await;
        let ok = response.status() == StatusCode::OK;
        if ok {
            kept.lock().unwrap().push(response);
        }
        ok
    })
    .await;
    assert!(reopened, "the closed stream's place was not freed");
}

/// Uploads the 1×1 PNG as `token`'s person; answers the stored name on success.
async fn upload(mesh: &Mesh, token: &str) -> (StatusCode, Value) {
    mesh.upload_picture(token, "file", bytes(PNG), "me.png", "image/png")
        .await
}

fn name_of(uploaded: &Value) -> String {
    let url = uploaded["profile_picture_url"].as_str().expect("a URL");
    url.strip_prefix("/uploads/").unwrap().to_owned()
}

/// The stored pictures, sorted (temporary files excluded).
fn stored(mesh: &Mesh) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(&mesh.upload_dir)
        .expect("the upload directory exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

#[tokio::test]
async fn uploads_past_the_daily_limit_are_refused_until_tomorrow() {
    let mesh = Mesh::start_with(|c| c.uploads_per_user_per_day = 2).await;
    let (token, _) = mesh.register("client").await;
    let (other, _) = mesh.register("client").await;
    for _ in 0..2 {
        let (status, body) = upload(&mesh, &token).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }

    let response = mesh
        .http
        .post(mesh.url("/client/upload-profile-picture"))
        .bearer_auth(&token)
        .multipart(reqwest::multipart::Form::new().part(
            "file",
            reqwest::multipart::Part::bytes(bytes(PNG)).file_name("me.png"),
        ))
        .send()
        .await
        .unwrap();

    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=86_400).contains(&retry_after), "{retry_after}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body["detail"],
        "You have uploaded 2 pictures today, the most a day allows; try again tomorrow (UTC)."
    );
    let (status, body) = upload(&mesh, &other).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "another person's uploads are their own: {body}"
    );
}

#[tokio::test]
async fn a_person_keeps_one_picture_the_replaced_one_and_unsaved_uploads_are_removed() {
    let mesh = Mesh::start().await;
    let (token, _) = mesh.register("client").await;
    let (neighbour, _) = mesh.register("client").await;
    let (_, theirs) = upload(&mesh, &neighbour).await;
    let (_, first) = upload(&mesh, &token).await;
    let (status, body) = mesh
        .post(
            "/client/profile",
            Some(&token),
            json!({"profile_picture_url": first["profile_picture_url"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    // An upload keeps the saved picture until the profile is saved with the new one...
    let (_, second) = upload(&mesh, &token).await;
    assert_eq!(
        stored(&mesh),
        sorted(vec![name_of(&theirs), name_of(&first), name_of(&second)])
    );
    let (status, body) = mesh
        .call(
            Method::PUT,
            "/client/profile",
            Some(&token),
            Some(json!({"profile_picture_url": second["profile_picture_url"]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(stored(&mesh), sorted(vec![name_of(&theirs), name_of(&second)]));

    // ...and an upload never saved goes with the next one.
    let (_, unsaved) = upload(&mesh, &token).await;
    let (_, last) = upload(&mesh, &token).await;
    let names = stored(&mesh);
    assert!(!names.contains(&name_of(&unsaved)), "{names:?}");
    assert_eq!(
        names,
        sorted(vec![name_of(&theirs), name_of(&second), name_of(&last)])
    );
}

#[tokio::test]
async fn a_deleted_users_pictures_are_removed() {
    let mesh = Mesh::start().await;
    let (token, me) = mesh.register("client").await;
    let (neighbour, _) = mesh.register("client").await;
    let (_, theirs) = upload(&mesh, &neighbour).await;
    let (_, mine) = upload(&mesh, &token).await;
    mesh.post(
        "/client/profile",
        Some(&token),
        json!({"profile_picture_url": mine["profile_picture_url"]}),
    )
    .await;
    let admin = mesh.admin().await;

    let path = format!("/admin/users/{}", me["user_id"].as_str().unwrap());
    let (status, body) = mesh.call(Method::DELETE, &path, Some(&admin), None).await;

    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(stored(&mesh), vec![name_of(&theirs)]);
}

/// A JSON body of two megabytes (over the 1 MB limit), as the web app would send it.
fn two_megabytes() -> Vec<u8> {
    serde_json::to_vec(
        &json!({"email": "big@mesh.test", "password": "x".repeat(2 * 1024 * 1024),
                               "full_name": "Big", "role": "client"}),
    )
    .unwrap()
}

#[tokio::test]
async fn a_two_megabyte_json_body_is_answered_its_413_with_a_detail() {
    let mesh = Mesh::start().await;
    let (coach, _) = mesh.register("coach").await;

    for (method, path, token) in [
        (Method::POST, "/auth/register", None),
        (Method::PUT, "/coach/profile", Some(coach.as_str())),
    ] {
        // Several times on one client: a refusal that cut the body off would reset a connection.
        for _ in 0..3 {
            let mut request = mesh
                .http
                .request(method.clone(), mesh.url(path))
                .header("content-type", "application/json")
                .body(two_megabytes());
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let response = request
                .send()
                .await
                .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e:?}"));

            assert_eq!(
                response.status(),
                StatusCode::PAYLOAD_TOO_LARGE,
                "{method} {path}"
            );
            let body: Value = response.json().await.expect("a JSON body");
            assert_eq!(
                body["detail"], "The request body is too large.",
                "{method} {path}"
            );
        }
    }
}

/// As nginx sends a request it has buffered: the whole body, then it reads the answer, and then
/// it sends the next request on the same (kept-alive) connection.
#[tokio::test]
async fn a_refused_body_is_read_to_its_end_so_the_answer_and_the_connection_survive() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let mesh = Mesh::start().await;
    let address = mesh
        .base
        .trim_start_matches("http://")
        .trim_end_matches("/api")
        .to_owned();
    let body = two_megabytes();
    let mut requests = format!(
        "POST /api/auth/register HTTP/1.1\r\nHost: courtside\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    requests.extend_from_slice(&body);
    requests.extend_from_slice(b"GET /healthz HTTP/1.1\r\nHost: courtside\r\nConnection: close\r\n\r\n");
    let (mut reader, mut writer) = tokio::net::TcpStream::connect(&address)
        .await
        .unwrap()
        .into_split();
    // Written beside the reading, as a proxy does: a refusal that does not read the body makes
    // this write fail, and the connection close under it.
    let written = tokio::spawn(async move { writer.write_all(&requests).await });

    let mut answers = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        reader.read_to_end(&mut answers),
    )
    .await
    .expect("the connection ends after the second answer");
    let answers = String::from_utf8_lossy(&answers);

    assert!(read.is_ok(), "the connection was reset: {read:?}; read {answers}");
    assert!(written.await.unwrap().is_ok(), "the body could not be sent whole");
    assert!(answers.starts_with("HTTP/1.1 413"), "{answers}");
    assert!(
        answers.contains(r#"{"detail":"The request body is too large."}"#),
        "{answers}"
    );
    assert!(
        answers.contains("HTTP/1.1 200"),
        "no answer to the second request: {answers}"
    );
}
