//! Notifications over HTTP: a booking request reaches the coach's open stream and inbox, the inbox
//! pages and is marked read, another person's notification is not found, a signed-out token ends
//! its stream.

use std::time::Duration;

use chrono::Weekday;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{coach_with_slot, next, user},
    helpers::Mesh,
};

/// An open `GET /notifications/stream`, read chunk by chunk.
struct Stream {
    response: reqwest::Response,
    buffered: String,
}

impl Stream {
    async fn open(mesh: &Mesh, token: &str) -> Stream {
        let response = mesh
            .http
            .get(mesh.url("/notifications/stream"))
            .bearer_auth(token)
            .send()
            .await
            .expect("the gateway answers");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        let mut stream = Stream {
            response,
            buffered: String::new(),
        };
        stream.until(": connected").await;
        stream
    }

    /// Reads until the stream has sent `text` (within ten seconds); what came before it and
    /// `text` itself are consumed.
    async fn until(&mut self, text: &str) -> String {
        tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Some(at) = self.buffered.find(text) {
                    let before = self.buffered[..at].to_owned();
                    self.buffered.drain(..at + text.len());
                    return before;
                }
                match self.response.chunk().await.expect("the stream reads") {
                    Some(chunk) => self.buffered.push_str(&String::from_utf8_lossy(&chunk)),
                    None => panic!("the stream ended before {text:?}: {}", self.buffered),
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("no {text:?} on the stream within 10 s: {}", self.buffered))
    }

    /// The next `notification` event's data.
    async fn notification(&mut self) -> Value {
        self.until("event: notification\n").await;
        let data = self.until("\n\n").await;
        let json = data.strip_prefix("data: ").expect("a data line");
        serde_json::from_str(json).expect("JSON data")
    }

    /// Whether the stream ends (within ten seconds), whatever it still sends.
    async fn ends(mut self) -> bool {
        tokio::time::timeout(Duration::from_secs(10), async {
            while let Ok(Some(_)) = self.response.chunk().await {}
        })
        .await
        .is_ok()
    }
}

#[tokio::test]
async fn a_booking_request_reaches_the_coachs_open_stream_and_inbox() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let mut stream = Stream::open(&mesh, &coach.token).await;

    let (status, booked) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next(Weekday::Wed).to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booked}");

    let pushed = stream.notification().await;
    assert_eq!(pushed["kind"], "booking_requested");
    assert_eq!(
        pushed["link"],
        format!(
            "/coach/dashboard?booking={}",
            booked["booking_id"].as_str().unwrap()
        )
    );
    assert!(
        pushed["body"].as_str().unwrap().contains("Chris Client"),
        "{pushed}"
    );
    assert_eq!(pushed["read_at"], Value::Null);

    let (status, inbox) = mesh.get("/notifications", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(inbox[0], pushed);
    assert_eq!(inbox[1]["kind"], "welcome");
    let (_, unread) = mesh.get("/notifications/unread-count", Some(&coach.token)).await;
    assert_eq!(unread, json!({"count": 2}));
}

#[tokio::test]
async fn the_inbox_pages_is_marked_read_and_keeps_other_peoples_notifications_out_of_reach() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (status, booked) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next(Weekday::Wed).to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booked}");
    let mut inbox = Value::Null;
    for _ in 0..200 {
        inbox = mesh.get("/notifications", Some(&coach.token)).await.1;
        if inbox.as_array().is_some_and(|list| list.len() == 2) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(inbox.as_array().map(Vec::len), Some(2), "{inbox}");

    let first = mesh
        .raw(
            Method::GET,
            "/notifications?limit=1",
            Some(&coach.token),
            None,
            "",
        )
        .await;
    assert_eq!(first.body.as_array().map(Vec::len), Some(1));
    assert_eq!(first.body[0], inbox[0]);
    let link = first.headers["link"].to_str().unwrap().to_owned();
    let next_page = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .trim_start_matches("/api");
    let (_, second) = mesh.get(next_page, Some(&coach.token)).await;
    assert_eq!(second, json!([inbox[1]]));
    let (status, _) = mesh.get("/notifications?limit=101", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let newest = inbox[0]["notification_id"].as_str().unwrap();
    let read = format!("/notifications/{newest}/read");
    let (status, body) = mesh.call(Method::POST, &read, Some(&client.token), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body["detail"].is_string());
    let (status, _) = mesh.call(Method::POST, &read, Some(&coach.token), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, unread) = mesh.get("/notifications/unread-count", Some(&coach.token)).await;
    assert_eq!(unread, json!({"count": 1}));
    let (status, _) = mesh
        .call(Method::POST, "/notifications/read-all", Some(&coach.token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, unread) = mesh.get("/notifications/unread-count", Some(&coach.token)).await;
    assert_eq!(unread, json!({"count": 0}));
    let (_, unread) = mesh.get("/notifications/unread-count", Some(&client.token)).await;
    assert_eq!(
        unread,
        json!({"count": 1}),
        "the client's welcome is still unread"
    );
    let (status, _) = mesh
        .call(
            Method::POST,
            "/notifications/not-a-uuid/read",
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn signing_out_ends_the_open_stream() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let stream = Stream::open(&mesh, &client.token).await;

    let (status, _) = mesh
        .call(Method::POST, "/auth/logout", Some(&client.token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    assert!(stream.ends().await, "the stream outlived its token");
    let answer = mesh
        .raw(
            Method::GET,
            "/notifications/stream",
            Some(&client.token),
            None,
            "",
        )
        .await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn email_preferences_are_all_on_until_changed_and_a_partial_body_is_refused() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;

    let (status, preferences) = mesh.get("/notifications/preferences", Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        preferences,
        json!({"email_bookings": true, "email_reminders": true, "email_account": true, "email_messages": true})
    );
    let chosen = json!({"email_bookings": false, "email_reminders": true, "email_account": false, "email_messages": false});
    let (status, saved) = mesh
        .call(
            Method::PUT,
            "/notifications/preferences",
            Some(&client.token),
            Some(chosen.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved, chosen);
    let (_, read) = mesh.get("/notifications/preferences", Some(&client.token)).await;
    assert_eq!(read, chosen);
    // A client that does not know `email_messages` (issue 36) keeps it as it was.
    let older = json!({"email_bookings": true, "email_reminders": true, "email_account": true});
    let (status, saved) = mesh
        .call(
            Method::PUT,
            "/notifications/preferences",
            Some(&client.token),
            Some(older),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["email_messages"], false);
    let (status, body) = mesh
        .call(
            Method::PUT,
            "/notifications/preferences",
            Some(&client.token),
            Some(json!({"email_bookings": false})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["detail"].is_string());
}
