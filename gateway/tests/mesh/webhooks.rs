//! Issue 37's webhooks over HTTP, through the whole mesh: a coach subscribes a receiver (on
//! 127.0.0.1; the mesh allows loopback as development does), a client books, and the receiver gets
//! `booking.created` signed as Standard Webhooks says, which it verifies with its own HMAC; the
//! delivery log shows it, a replay arrives with the same `webhook-id`; the refusals are 4xx with
//! a detail.

use std::sync::{Arc, Mutex};

use axum::{Router, body::Bytes, extract::State, http::HeaderMap, routing::post};
use base64::{Engine, engine::general_purpose::STANDARD};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::{
    coaching::{coach_with_slot, user},
    helpers::Mesh,
};

/// A Wednesday a week or two ahead: the fixture coach's recurring slot is on Wednesdays.
fn next_wednesday() -> String {
    use chrono::Datelike;
    let mut day = chrono::Utc::now().date_naive() + chrono::Duration::days(7);
    while day.weekday() != chrono::Weekday::Wed {
        day += chrono::Duration::days(1);
    }
    day.to_string()
}

/// (webhook-id, webhook-timestamp, webhook-signature, body) of each request received.
type Received = Arc<Mutex<Vec<(String, String, String, Bytes)>>>;

async fn receiver() -> (String, Received) {
    let received: Received = Arc::default();
    let app = Router::new()
        .route(
            "/hooks",
            post(
                |State(seen): State<Received>, headers: HeaderMap, body: Bytes| async move {
                    let h = |n: &str| {
                        headers
                            .get(n)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or_default()
                            .to_owned()
                    };
                    seen.lock().unwrap().push((
                        h("webhook-id"),
                        h("webhook-timestamp"),
                        h("webhook-signature"),
                        body,
                    ));
                    "ok"
                },
            ),
        )
        .with_state(received.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, received)
}

/// HMAC-SHA256 (RFC 2104) written out here, so the check owes nothing to the service's code.
fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.iter().map(|k| k ^ byte).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .to_vec()
}

fn signed_by(secret: &str, (id, timestamp, signature, body): &(String, String, String, Bytes)) -> bool {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap()).unwrap();
    let mut message = format!("{id}.{timestamp}.").into_bytes();
    message.extend_from_slice(body);
    let expected = format!("v1,{}", STANDARD.encode(hmac_sha256(&key, &message)));
    signature.split(' ').any(|s| s == expected)
}

async fn wait_for(received: &Received, n: usize) -> Vec<(String, String, String, Bytes)> {
    for _ in 0..400 {
        let got = received.lock().unwrap().clone();
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("{n} deliveries never arrived");
}

#[tokio::test]
async fn a_coachs_webhook_receives_a_clients_booking_signed_and_its_replay_with_the_same_id() {
    let mesh = Mesh::start().await;
    let (url, received) = receiver().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Hook Coach").await;
    let client = user(&mesh, "client", "Hook Client").await;

    let (status, created) = mesh
        .post(
            "/webhooks",
            Some(&coach.token),
            json!({"url": url, "event_types": ["booking.created"], "description": "club sheet"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let secret = created["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"));
    let webhook_id = created["webhook_id"].as_str().unwrap().to_owned();
    assert_eq!(created["enabled"], true);
    assert_eq!(created["disabled_reason"], Value::Null);
    let (status, listed) = mesh.get("/webhooks", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(listed[0]["webhook_id"], webhook_id.as_str());
    assert!(listed[0].get("secret").is_none(), "the secret is shown once");

    let (status, booking) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next_wednesday()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");

    let got = wait_for(&received, 1).await;
    assert!(signed_by(&secret, &got[0]), "the signature verifies");
    let body: Value = serde_json::from_slice(&got[0].3).unwrap();
    assert_eq!(body["type"], "booking.created");
    assert_eq!(body["id"], got[0].0.as_str(), "the body's id is the webhook-id");
    assert_eq!(body["data"]["booking_id"], booking["booking_id"]);
    assert_eq!(body["data"]["coach_id"], coach.id.as_str());
    assert_eq!(body["data"]["status"], "pending");

    let log_path = format!("/webhooks/{webhook_id}/deliveries");
    let mut log = Value::Null;
    for _ in 0..200 {
        log = mesh.get(&log_path, Some(&coach.token)).await.1;
        if log[0]["status"] == "delivered" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert_eq!(log[0]["status"], "delivered", "{log}");
    assert_eq!(log[0]["event_id"], got[0].0.as_str());
    assert_eq!(log[0]["attempts"][0]["status_code"], 200);
    assert_eq!(log[0]["attempts"][0]["error"], Value::Null);

    let delivery_id = log[0]["delivery_id"].as_str().unwrap();
    let (status, replayed) = mesh
        .call(
            Method::POST,
            &format!("/webhooks/{webhook_id}/deliveries/{delivery_id}/replay"),
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{replayed}");
    assert_eq!(replayed["event_id"], got[0].0.as_str());
    let got = wait_for(&received, 2).await;
    assert_eq!(got[1].0, got[0].0, "a replay keeps the webhook-id");
    assert!(signed_by(&secret, &got[1]));

    // Another person's webhook is not found; a client may not subscribe; a private address is 400.
    let other = user(&mesh, "coach", "Other Coach").await;
    let (status, _) = mesh.get(&log_path, Some(&other.token)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = mesh
        .post(
            "/webhooks",
            Some(&client.token),
            json!({"url": url, "event_types": ["booking.created"]}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, refused) = mesh
        .post(
            "/webhooks",
            Some(&coach.token),
            json!({"url": "https://169.254.169.254/latest", "event_types": ["booking.created"]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(
        refused["detail"].as_str().unwrap().contains("public addresses"),
        "{refused}"
    );
    let (status, refused) = mesh
        .post(
            "/webhooks",
            Some(&coach.token),
            json!({"url": url, "event_types": ["booking.exploded"]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
}
