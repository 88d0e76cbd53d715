//! Conversations over HTTP (issue 36): a client writes to a coach, the coach to a client who
//! booked with them; a third person (and an admin) gets 404 on every route of a thread; a message
//! reaches the other person's open stream through another gateway replica; read state, unread
//! counts and backwards paging.

use std::time::Duration;

use chrono::Weekday;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, coach_with_slot, next, user},
    helpers::Mesh,
};

/// The client books the coach's slot; returns once identity has applied the booking's event
/// (the coach may then write to the client).
async fn booked(mesh: &Mesh, coach: &User, slot_id: &str, client: &User) -> Value {
    let (status, booking) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next(Weekday::Wed).to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    booking
}

/// The coach starts (or gets) the thread with the client, once the booking's event is applied.
async fn coach_starts(mesh: &Mesh, coach: &User, client: &User) -> Value {
    for _ in 0..200 {
        let (status, thread) = mesh
            .post(
                "/conversations",
                Some(&coach.token),
                json!({"with_user_id": client.id}),
            )
            .await;
        if status != StatusCode::FORBIDDEN {
            assert!(
                status == StatusCode::CREATED || status == StatusCode::OK,
                "{status} {thread}"
            );
            return thread;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the coach could not write to the client who booked");
}

#[tokio::test]
async fn only_the_two_people_read_a_thread_and_everyone_else_gets_404() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let stranger = user(&mesh, "client", "Sam Stranger").await;
    let other_client = user(&mesh, "client", "Olive Other").await;
    let gym = user(&mesh, "gym", "Gina Gym").await;
    let admin = mesh.admin().await;

    // Nobody shares anything yet: a coach cannot write to a client, a client to a client or a gym.
    let (status, refused) = mesh
        .post(
            "/conversations",
            Some(&coach.token),
            json!({"with_user_id": client.id}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(
        refused["detail"],
        "You can message a client once they have booked with you."
    );
    for (from, to) in [(&client, &other_client), (&client, &gym), (&client, &client)] {
        let (status, body) = mesh
            .post(
                "/conversations",
                Some(&from.token),
                json!({"with_user_id": to.id}),
            )
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()));
    }
    let (status, _) = mesh
        .post("/conversations", Some(&admin), json!({"with_user_id": coach.id}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // A client may always write to a coach: 201, then 200 with the same thread.
    let (status, started) = mesh
        .post(
            "/conversations",
            Some(&client.token),
            json!({"with_user_id": coach.id}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    assert_eq!(
        started["other"],
        json!({"user_id": coach.id, "full_name": "Carla Coach", "role": "coach"})
    );
    assert_eq!(started["last_message"], Value::Null);
    assert_eq!(started["can_send"], true);
    assert_eq!(started["blocked"], "none");
    let id = started["conversation_id"].as_str().unwrap().to_owned();
    let (status, again) = mesh
        .post(
            "/conversations",
            Some(&client.token),
            json!({"with_user_id": coach.id}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["conversation_id"], id.as_str());

    // Once the client booked, the coach reaches the same thread, which shows the booking.
    let booking = booked(&mesh, &coach, &slot_id, &client).await;
    let mut from_coach = coach_starts(&mesh, &coach, &client).await;
    assert_eq!(from_coach["conversation_id"], id.as_str());
    // The thread existed already: the booking shows once identity has applied its event.
    for _ in 0..200 {
        if from_coach["shared"].as_array().is_some_and(|s| !s.is_empty()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        from_coach = mesh
            .get(&format!("/conversations/{id}"), Some(&coach.token))
            .await
            .1;
    }
    assert_eq!(from_coach["shared"][0]["kind"], "booking");
    assert_eq!(from_coach["shared"][0]["id"], booking["booking_id"]);
    assert_eq!(from_coach["shared"][0]["status"], "requested");

    let (status, sent) = mesh
        .post(
            &format!("/conversations/{id}/messages"),
            Some(&client.token),
            json!({"body": "  Can we work on my jump shot?\nTuesday suits me.  "}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{sent}");
    // Trimmed, its line break kept.
    assert_eq!(sent["body"], "Can we work on my jump shot?\nTuesday suits me.");
    assert_eq!(sent["mine"], true);
    assert_eq!(sent["read"], false);
    let message_id = sent["message_id"].as_str().unwrap();

    // Everyone else: 404 on every route of the thread, and nothing in their lists.
    for outsider in [stranger.token.as_str(), gym.token.as_str(), admin.as_str()] {
        for (method, path, body) in [
            (Method::GET, format!("/conversations/{id}"), None),
            (Method::GET, format!("/conversations/{id}/messages"), None),
            (
                Method::POST,
                format!("/conversations/{id}/messages"),
                Some(json!({"body": "hi"})),
            ),
            (Method::POST, format!("/conversations/{id}/read"), None),
        ] {
            let (status, answer) = mesh.call(method.clone(), &path, Some(outsider), body).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{method} {path}: {answer}");
            assert!(!answer.to_string().contains("jump shot"));
        }
        let (status, list) = mesh.get("/conversations", Some(outsider)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(list, json!([]));
        let (_, unread) = mesh.get("/conversations/unread-count", Some(outsider)).await;
        assert_eq!(unread, json!({"unread": 0}));
    }
    let (status, _) = mesh.get("/conversations/not-a-uuid", Some(&stranger.token)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The coach's list and unread count; reading marks the client's message read.
    let (_, list) = mesh.get("/conversations", Some(&coach.token)).await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["unread"], 1);
    assert_eq!(list[0]["last_message"]["message_id"], message_id);
    assert_eq!(list[0]["last_message"]["mine"], false);
    assert_eq!(list[0]["other"]["full_name"], "Chris Client");
    let (_, unread) = mesh.get("/conversations/unread-count", Some(&coach.token)).await;
    assert_eq!(unread, json!({"unread": 1}));
    let (status, _) = mesh
        .call(
            Method::POST,
            &format!("/conversations/{id}/read"),
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, unread) = mesh.get("/conversations/unread-count", Some(&coach.token)).await;
    assert_eq!(unread, json!({"unread": 0}));
    let (_, history) = mesh
        .get(&format!("/conversations/{id}/messages"), Some(&client.token))
        .await;
    assert_eq!(history[0]["read"], true, "{history}");
    assert_eq!(
        history[0]["sender"],
        json!({"user_id": client.id, "full_name": "Chris Client"})
    );

    // Bad bodies are a 400 a person can act on.
    for body in [json!({"body": "   "}), json!({"body": "x".repeat(2001)})] {
        let (status, refused) = mesh
            .post(&format!("/conversations/{id}/messages"), Some(&coach.token), body)
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    }
}

/// An open `GET /notifications/stream` on one gateway, read chunk by chunk.
async fn next_message(response: &mut reqwest::Response, buffered: &mut String) -> Value {
    tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            if let Some(at) = buffered.find("event: message\n") {
                let rest = &buffered[at..];
                if let Some(end) = rest.find("\n\n") {
                    let event = rest[..end].to_owned();
                    buffered.drain(..at + end + 2);
                    let data = event
                        .lines()
                        .find_map(|l| l.strip_prefix("data: "))
                        .expect("data");
                    return serde_json::from_str::<Value>(data).expect("JSON data");
                }
            }
            match response.chunk().await.expect("the stream reads") {
                Some(chunk) => buffered.push_str(&String::from_utf8_lossy(&chunk)),
                None => panic!("the stream ended: {buffered}"),
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no message on the stream within 2 s: {buffered}"))
}

#[tokio::test]
async fn a_message_reaches_the_other_persons_stream_through_another_gateway_and_pages_backwards() {
    let mut mesh = Mesh::start().await;
    let second = mesh.second_gateway().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    booked(&mesh, &coach, &slot_id, &client).await;
    let thread = coach_starts(&mesh, &coach, &client).await;
    let id = thread["conversation_id"].as_str().unwrap().to_owned();

    // The client listens on the second replica; the coach writes through the first.
    let mut stream = mesh
        .http
        .get(format!("{second}/notifications/stream"))
        .bearer_auth(&client.token)
        .send()
        .await
        .expect("the second gateway answers");
    assert_eq!(stream.status(), StatusCode::OK);
    let mut buffered = String::new();
    while !buffered.contains(": connected") {
        let chunk = stream.chunk().await.unwrap().expect("connected");
        buffered.push_str(&String::from_utf8_lossy(&chunk));
    }
    let (status, sent) = mesh
        .post(
            &format!("/conversations/{id}/messages"),
            Some(&coach.token),
            json!({"body": "The court moved to B <b>6 pm</b>"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{sent}");
    let pushed = next_message(&mut stream, &mut buffered).await;
    assert_eq!(pushed["conversation_id"], id.as_str());
    assert_eq!(pushed["message"]["message_id"], sent["message_id"]);
    assert_eq!(pushed["message"]["body"], "The court moved to B <b>6 pm</b>");
    assert_eq!(pushed["message"]["mine"], false);
    assert_eq!(pushed["message"]["sender"]["full_name"], "Carla Coach");

    // The history pages backwards: newest first, the older page by the Link header.
    for n in 1..=3 {
        let (status, _) = mesh
            .post(
                &format!("/conversations/{id}/messages"),
                Some(&client.token),
                json!({"body": format!("reply {n}")}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let first = mesh
        .raw(
            Method::GET,
            &format!("/conversations/{id}/messages?limit=3"),
            Some(&client.token),
            None,
            "",
        )
        .await;
    let bodies: Vec<&str> = first
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap())
        .collect();
    assert_eq!(bodies, ["reply 3", "reply 2", "reply 1"]);
    let link = first.headers["link"].to_str().unwrap().to_owned();
    let older = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .trim_start_matches("/api");
    let (_, second_page) = mesh.get(older, Some(&client.token)).await;
    assert_eq!(second_page.as_array().map(Vec::len), Some(1), "{second_page}");
    assert_eq!(second_page[0]["body"], "The court moved to B <b>6 pm</b>");
    // Another person's cursor is refused.
    let (status, _) = mesh.get(older, Some(&coach.token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // `before` a message: the ones older than it, for either side of the thread.
    let reply_2 = first.body[1]["message_id"].as_str().unwrap();
    let (status, before) = mesh
        .get(
            &format!("/conversations/{id}/messages?before={reply_2}"),
            Some(&coach.token),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{before}");
    let bodies: Vec<&str> = before
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap())
        .collect();
    assert_eq!(bodies, ["reply 1", "The court moved to B <b>6 pm</b>"]);
    let (status, refused) = mesh
        .get(
            &format!("/conversations/{id}/messages?before={}", uuid::Uuid::nil()),
            Some(&coach.token),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");

    let (_, list) = mesh.get("/conversations", Some(&coach.token)).await;
    assert_eq!(list[0]["last_message"]["body"], "reply 3");
    assert_eq!(list[0]["unread"], 3);
}

/// A client's thread with a new coach, and the coach.
async fn thread_with_coach(mesh: &Mesh, client: &User, name: &str) -> (User, String) {
    let coach = user(mesh, "coach", name).await;
    let (status, thread) = mesh
        .post(
            "/conversations",
            Some(&client.token),
            json!({"with_user_id": coach.id}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{thread}");
    (coach, thread["conversation_id"].as_str().unwrap().to_owned())
}

async fn send(mesh: &Mesh, token: &str, id: &str, body: &str) -> (StatusCode, Value) {
    mesh.post(
        &format!("/conversations/{id}/messages"),
        Some(token),
        json!({"body": body}),
    )
    .await
}

#[tokio::test]
async fn a_block_stops_new_messages_either_way_and_keeps_the_thread_readable() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (coach, id) = thread_with_coach(&mesh, &client, "Carla Coach").await;
    assert_eq!(
        send(&mesh, &client.token, &id, "hello").await.0,
        StatusCode::CREATED
    );

    let block = format!("/users/{}/block", coach.id);
    let (status, _) = mesh.call(Method::POST, &block, Some(&client.token), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, refused) = send(&mesh, &client.token, &id, "again").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        refused["detail"],
        "You blocked Carla Coach. Unblock them to send a message."
    );
    let (status, refused) = send(&mesh, &coach.token, &id, "why?").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(refused["detail"], "Chris Client is not taking messages from you.");
    let (_, mine) = mesh
        .get(&format!("/conversations/{id}"), Some(&client.token))
        .await;
    assert_eq!(
        (mine["blocked"].as_str(), mine["can_send"].as_bool()),
        (Some("by_me"), Some(false))
    );
    let (_, theirs) = mesh
        .get(&format!("/conversations/{id}"), Some(&coach.token))
        .await;
    assert_eq!(theirs["blocked"], "by_them");
    let (status, history) = mesh
        .get(&format!("/conversations/{id}/messages"), Some(&coach.token))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(history[0]["body"], "hello");
    // No new thread either: another client's block of a coach refuses the start.
    let other = user(&mesh, "client", "Olive Other").await;
    let (status, _) = mesh
        .call(
            Method::POST,
            &format!("/users/{}/block", other.id),
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, refused) = mesh
        .post(
            "/conversations",
            Some(&other.token),
            json!({"with_user_id": coach.id}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    let (status, _) = mesh
        .call(
            Method::POST,
            &format!("/users/{}/block", client.id),
            Some(&client.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let (status, _) = mesh.call(Method::DELETE, &block, Some(&client.token), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        send(&mesh, &coach.token, &id, "welcome back").await.0,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn a_reported_message_reaches_the_admin_in_context_and_a_suspension_ends_the_senders_sessions() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (coach, id) = thread_with_coach(&mesh, &client, "Rude Coach").await;
    let stranger = user(&mesh, "client", "Sam Stranger").await;
    let admin = mesh.admin().await;
    for n in 1..=7 {
        send(&mesh, &client.token, &id, &format!("before {n}")).await;
    }
    let (_, bad) = send(&mesh, &coach.token, &id, "something nasty").await;
    for n in 1..=2 {
        send(&mesh, &client.token, &id, &format!("after {n}")).await;
    }
    let report = format!("/messages/{}/report", bad["message_id"].as_str().unwrap());

    // Only the recipient reports it, once; anyone else is told it does not exist.
    let (status, _) = mesh
        .post(&report, Some(&coach.token), json!({"reason": "mine"}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for outsider in [&stranger.token, &admin] {
        let (status, _) = mesh
            .post(&report, Some(outsider), json!({"reason": "spam"}))
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    let (status, refused) = mesh
        .post(&report, Some(&client.token), json!({"reason": "   "}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (status, made) = mesh
        .post(&report, Some(&client.token), json!({"reason": "Insults."}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let (status, _) = mesh
        .post(&report, Some(&client.token), json!({"reason": "Insults."}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);

    let (status, _) = mesh.get("/admin/reports", Some(&client.token)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, reports) = mesh.get("/admin/reports", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{reports}");
    let listed = &reports[0];
    assert_eq!(listed["report_id"], made["report_id"]);
    assert_eq!(listed["reason"], "Insults.");
    assert_eq!(
        listed["reporter"],
        json!({"user_id": client.id, "full_name": "Chris Client"})
    );
    assert_eq!(
        listed["sender"],
        json!({"user_id": coach.id, "full_name": "Rude Coach", "suspended": false})
    );
    assert_eq!(listed["message"]["body"], "something nasty");
    let context: Vec<&str> = listed["context"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap())
        .collect();
    assert_eq!(
        context,
        [
            "before 3", "before 4", "before 5", "before 6", "before 7", "after 1", "after 2"
        ]
    );

    // Suspended: the coach's token stops at once, sign-in is refused, the audit has it.
    let suspend = format!("/admin/users/{}/suspend", coach.id);
    let (status, suspended) = mesh
        .post(&suspend, Some(&admin), json!({"reason": "Threats."}))
        .await;
    assert_eq!(status, StatusCode::OK, "{suspended}");
    assert_eq!(suspended["user_id"], coach.id.as_str());
    let (status, _) = mesh.get("/conversations", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, me) = mesh.get("/auth/me", Some(&admin)).await;
    let (_, who) = mesh
        .get(&format!("/admin/users/{}", coach.id), Some(&admin))
        .await;
    let email = who["email"].as_str().expect("the coach's email").to_owned();
    let (status, refused) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert!(refused["detail"].as_str().unwrap().contains("suspended"));
    let (_, reports) = mesh.get("/admin/reports", Some(&admin)).await;
    assert_eq!(reports[0]["sender"]["suspended"], true);
    let (_, audit) = mesh.get("/admin/audit", Some(&admin)).await;
    let entry = audit
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["action"] == "user_suspended")
        .unwrap_or_else(|| panic!("no suspension in the audit: {audit}"));
    assert_eq!(entry["admin_id"], me["user_id"]);
    let (status, _) = mesh
        .post(
            &format!("/admin/users/{}/suspend", me["user_id"].as_str().unwrap()),
            Some(&admin),
            json!({"reason": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_sender_is_held_to_messages_per_minute_and_a_client_to_new_threads_a_day() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (_, id) = thread_with_coach(&mesh, &client, "Carla Coach").await;
    for n in 1..=20 {
        let (status, body) = send(&mesh, &client.token, &id, &format!("message {n}")).await;
        assert_eq!(status, StatusCode::CREATED, "{n}: {body}");
    }
    let answer = mesh
        .raw(
            Method::POST,
            &format!("/conversations/{id}/messages"),
            Some(&client.token),
            Some("application/json"),
            json!({"body": "one too many"}).to_string(),
        )
        .await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS, "{}", answer.body);
    assert_eq!(answer.headers["retry-after"], "60");

    // Ten new threads a day (the first above counts), then 429; an existing thread still opens.
    for n in 2..=10 {
        thread_with_coach(&mesh, &client, &format!("Coach {n}")).await;
    }
    let eleventh = user(&mesh, "coach", "Coach 11").await;
    let (status, refused) = mesh
        .post(
            "/conversations",
            Some(&client.token),
            json!({"with_user_id": eleventh.id}),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    let (_, list) = mesh.get("/conversations", Some(&client.token)).await;
    let first_coach = list.as_array().unwrap().last().unwrap()["other"]["user_id"].clone();
    let (status, _) = mesh
        .post(
            "/conversations",
            Some(&client.token),
            json!({"with_user_id": first_coach}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
}
