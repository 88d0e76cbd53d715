//! A person's signed-in devices: each sign-in is a session listed with when it began, when it was
//! last seen and its browser, the current one marked; ending one, or every other one, stops those
//! tokens at once, as a logout does.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::{coaching::user, helpers::Mesh};

/// Signs in as `email` from a browser named `agent`; returns the token.
async fn sign_in_from(mesh: &Mesh, email: &str, agent: &str) -> String {
    let response = mesh
        .http
        .post(mesh.url("/auth/login"))
        .header("User-Agent", agent)
        .json(&json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    body["token"].as_str().unwrap().to_owned()
}

/// A new client with three sessions: from a laptop, a phone and a tablet.
async fn three_devices(mesh: &Mesh) -> [String; 3] {
    let email = format!("devices-{}@mesh.test", Uuid::new_v4().simple());
    let (status, _) = mesh
        .post(
            "/auth/register",
            None,
            json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Dee Vices", "role": "client"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    [
        sign_in_from(mesh, &email, "Laptop Browser/1.0").await,
        sign_in_from(mesh, &email, "Phone Browser/2.0").await,
        sign_in_from(mesh, &email, "Tablet Browser/3.0").await,
    ]
}

async fn sessions(mesh: &Mesh, token: &str) -> Vec<Value> {
    let (status, list) = mesh.get("/auth/sessions", Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array().expect("a list").clone()
}

async fn works(mesh: &Mesh, token: &str) -> bool {
    mesh.get("/auth/me", Some(token)).await.0 == StatusCode::OK
}

fn agent_of(list: &[Value], agent: &str) -> Value {
    list.iter()
        .find(|s| s["user_agent"] == agent)
        .unwrap_or_else(|| panic!("{agent} in {list:?}"))
        .clone()
}

#[tokio::test]
async fn a_person_sees_each_signed_in_device_newest_first_with_the_current_one_marked() {
    let mesh = Mesh::start().await;
    let [_laptop, phone, _tablet] = three_devices(&mesh).await;

    let list = sessions(&mesh, &phone).await;

    let agents: Vec<_> = list.iter().map(|s| s["user_agent"].as_str().unwrap()).collect();
    // The registration's own session (reqwest's agent) is the oldest.
    assert_eq!(
        &agents[..3],
        ["Tablet Browser/3.0", "Phone Browser/2.0", "Laptop Browser/1.0"]
    );
    assert_eq!(list.len(), 4);
    let current: Vec<_> = list.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["user_agent"], "Phone Browser/2.0");
    for session in &list {
        assert!(session["created_at"].as_str().unwrap().ends_with('Z'));
        assert!(session["last_seen_at"].as_str().unwrap().ends_with('Z'));
    }
}

#[tokio::test]
async fn ending_one_session_stops_its_token_at_once_and_leaves_the_others() {
    let mesh = Mesh::start().await;
    let [laptop, phone, tablet] = three_devices(&mesh).await;
    assert!(works(&mesh, &laptop).await);
    let laptop_session = agent_of(&sessions(&mesh, &phone).await, "Laptop Browser/1.0");

    let path = format!(
        "/auth/sessions/{}",
        laptop_session["session_id"].as_str().unwrap()
    );
    let (status, _) = mesh.call(Method::DELETE, &path, Some(&phone), None).await;

    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(!works(&mesh, &laptop).await, "the laptop is signed out at once");
    assert!(works(&mesh, &phone).await && works(&mesh, &tablet).await);
    let left = sessions(&mesh, &phone).await;
    assert!(
        left.iter().all(|s| s["user_agent"] != "Laptop Browser/1.0"),
        "{left:?}"
    );
    let (again, _) = mesh.call(Method::DELETE, &path, Some(&phone), None).await;
    assert_eq!(again, StatusCode::NOT_FOUND, "an ended session is gone");
}

#[tokio::test]
async fn logging_out_everywhere_else_ends_every_other_session_and_keeps_this_one() {
    let mesh = Mesh::start().await;
    let [laptop, phone, tablet] = three_devices(&mesh).await;

    let (status, body) = mesh
        .call(Method::POST, "/auth/logout-all", Some(&tablet), None)
        .await;

    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["ended"], 3,
        "the laptop, the phone and the registration's session"
    );
    assert!(!works(&mesh, &laptop).await && !works(&mesh, &phone).await);
    assert!(works(&mesh, &tablet).await);
    let left = sessions(&mesh, &tablet).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["current"], true);
}

#[tokio::test]
async fn another_persons_session_cannot_be_ended_and_a_logged_out_one_is_not_listed() {
    let mesh = Mesh::start().await;
    let [laptop, phone, _] = three_devices(&mesh).await;
    let stranger = user(&mesh, "client", "Stranger").await;
    let laptop_session = agent_of(&sessions(&mesh, &phone).await, "Laptop Browser/1.0");
    let path = format!(
        "/auth/sessions/{}",
        laptop_session["session_id"].as_str().unwrap()
    );

    let (theirs, _) = mesh
        .call(Method::DELETE, &path, Some(&stranger.token), None)
        .await;
    let (logout, _) = mesh.call(Method::POST, "/auth/logout", Some(&laptop), None).await;

    assert_eq!(theirs, StatusCode::NOT_FOUND);
    assert!(works(&mesh, &phone).await);
    assert_eq!(logout, StatusCode::NO_CONTENT);
    let left = sessions(&mesh, &phone).await;
    assert!(
        left.iter().all(|s| s["user_agent"] != "Laptop Browser/1.0"),
        "{left:?}"
    );
}
