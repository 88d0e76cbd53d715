//! The live notification stream with two gateway replicas: a booking made through one reaches the
//! coach's stream held open on the other, because every gateway fans the notices out from Redis.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;

use crate::mesh::{self, Backing, Services, session_date};

/// Reads `response` until it has sent `text` (within ten seconds) and returns what came before.
async fn until(response: &mut reqwest::Response, buffered: &mut String, text: &str) -> String {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(at) = buffered.find(text) {
                let before = buffered[..at].to_owned();
                buffered.drain(..at + text.len());
                return before;
            }
            match response.chunk().await.expect("the stream reads") {
                Some(chunk) => buffered.push_str(&String::from_utf8_lossy(&chunk)),
                None => panic!("the stream ended before {text:?}: {buffered}"),
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {text:?} on the stream within 10 s: {buffered}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_booking_made_through_one_gateway_reaches_the_coach_s_stream_on_another() {
    // Arrange: identity, coaching and booking, and two gateways in front of them on one Redis.
    let backing = Backing::new(mesh::REDIS_URL).await;
    let services = Services::start(&backing).await;
    let one = mesh::gateway(mesh::gateway_config(&backing, services.upstreams())).await;
    let two = mesh::gateway(mesh::gateway_config(&backing, services.upstreams())).await;
    let (coach, week) = one.coach_with_slot().await;
    let client = one.register("client").await;
    let mut stream = two.open("/notifications/stream", &coach.token).await;
    assert_eq!(stream.status(), StatusCode::OK);
    let mut buffered = String::new();
    until(&mut stream, &mut buffered, ": connected").await;

    // Act: the client books through the first gateway.
    let date = session_date(0);
    let reply = one.book(&client, &coach, &week, &date).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let booked = Instant::now();

    // Assert: the second gateway pushes the coach's new notification.
    until(&mut stream, &mut buffered, "event: notification\n").await;
    let data = until(&mut stream, &mut buffered, "\n\n").await;
    println!(
        "the notification reached the other gateway's stream {:?} after the 201",
        booked.elapsed()
    );
    let notice: Value =
        serde_json::from_str(data.strip_prefix("data: ").expect("a data line")).expect("JSON data");
    assert_eq!(notice["kind"], "booking_requested", "{notice}");
    assert!(notice["read_at"].is_null(), "{notice}");
}
