//! The webhook tests' receiver (an HTTP server on 127.0.0.1 that records what it gets and checks
//! signatures as a receiver would) and their fixtures: facts, envelopes, subscribing, the log.

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU16, Ordering},
    },
};

use axum::{
    Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode, header::LOCATION},
    response::IntoResponse,
    routing::post,
};
use base64::{Engine, engine::general_purpose::STANDARD};
use chrono::{DateTime, Duration, SecondsFormat, Utc};
use hmac::{Hmac, Mac};
use platform::events::{BookingFact, Envelope, Event, ReservationFact};
use proto::identity::v1 as pb;
use sha2::Sha256;
use uuid::Uuid;

use crate::helpers::{TestApp, authed, eventually};

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub path: String,
    pub id: String,
    pub timestamp: String,
    pub signature: String,
    pub body: Bytes,
}

impl Received {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    pub fn kind(&self) -> String {
        self.json()["type"].as_str().unwrap_or_default().to_owned()
    }

    /// Whether one of the signatures is `secret`'s, verified as a receiver would (independently
    /// of the service's code).
    pub fn signed_by(&self, secret: &str) -> bool {
        let key = STANDARD
            .decode(secret.strip_prefix("whsec_").expect("a whsec_ secret"))
            .expect("base64");
        let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
        mac.update(format!("{}.{}.", self.id, self.timestamp).as_bytes());
        mac.update(&self.body);
        let expected = STANDARD.encode(mac.finalize().into_bytes());
        self.signature
            .split(' ')
            .any(|s| s.strip_prefix("v1,") == Some(expected.as_str()))
    }
}

/// An HTTP receiver on 127.0.0.1 recording every request and answering [`Receiver::answer`].
/// `/redirect` answers 302 to `/target`.
#[derive(Clone)]
pub struct Receiver {
    pub addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
    status: Arc<AtomicU16>,
}

impl Receiver {
    pub async fn start() -> Receiver {
        let received = Arc::new(Mutex::new(Vec::new()));
        let status = Arc::new(AtomicU16::new(200));
        let state = (received.clone(), status.clone());
        let app = Router::new()
            .route("/redirect", post(redirect))
            .route("/{*path}", post(record))
            .with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Receiver {
            addr,
            received,
            status,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{path}", self.addr)
    }

    /// What the receiver answers from now on.
    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Waits until `n` requests arrived and returns them.
    pub async fn wait_for(&self, n: usize) -> Vec<Received> {
        eventually(&format!("{n} requests at the receiver"), || async {
            let got = self.received();
            (got.len() >= n).then_some(got)
        })
        .await
    }
}

type ReceiverState = (Arc<Mutex<Vec<Received>>>, Arc<AtomicU16>);

async fn record(
    State((received, status)): State<ReceiverState>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    received.lock().unwrap().push(Received {
        path: uri.path().to_owned(),
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body,
    });
    StatusCode::from_u16(status.load(Ordering::SeqCst)).unwrap()
}

async fn redirect() -> impl IntoResponse {
    (StatusCode::FOUND, [(LOCATION, "/target")])
}

pub fn id(user: &pb::User) -> Uuid {
    user.user_id.parse().expect("a user id")
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub fn booking(coach: Uuid, client: Uuid) -> BookingFact {
    let starts_at = Utc::now() + Duration::days(3);
    BookingFact {
        booking_id: Uuid::new_v4(),
        coach_id: coach,
        client_id: client,
        booking_date: starts_at.format("%Y-%m-%d").to_string(),
        start_time: starts_at.format("%H:%M").to_string(),
        end_time: (starts_at + Duration::hours(1)).format("%H:%M").to_string(),
        time_zone: "UTC".into(),
        starts_at: rfc3339(starts_at),
        ends_at: rfc3339(starts_at + Duration::hours(1)),
        location_name: "Court A".into(),
        rescheduled_from: None,
        rescheduled_to: None,
    }
}

pub fn reservation(coach: Uuid, gym: Uuid) -> ReservationFact {
    let starts_at = Utc::now() + Duration::days(3);
    ReservationFact {
        reservation_id: Uuid::new_v4(),
        coach_id: coach,
        gym_id: gym,
        gym_name: "Hoops Gym".into(),
        location_name: "Downtown".into(),
        court_name: "Court 1".into(),
        date: starts_at.format("%Y-%m-%d").to_string(),
        start_time: starts_at.format("%H:%M").to_string(),
        end_time: (starts_at + Duration::hours(1)).format("%H:%M").to_string(),
        time_zone: "UTC".into(),
        starts_at: rfc3339(starts_at),
        ends_at: rfc3339(starts_at + Duration::hours(1)),
    }
}

pub fn envelope(event: Event) -> Envelope {
    Envelope {
        event_id: Uuid::new_v4(),
        occurred_at: Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
        event,
    }
}

/// Creates a webhook of `token`'s owner to `url` for `kinds`; returns (webhook_id, secret).
pub async fn subscribe(app: &TestApp, token: &str, url: &str, kinds: &[&str]) -> (String, String) {
    let reply = app
        .client()
        .create_webhook(authed(
            pb::CreateWebhookRequest {
                url: url.into(),
                event_types: kinds.iter().map(|k| (*k).to_owned()).collect(),
                description: "tests".into(),
            },
            token,
        ))
        .await
        .expect("CreateWebhook")
        .into_inner();
    (reply.webhook.expect("a webhook").webhook_id, reply.secret)
}

/// The webhook's delivery log, newest first.
pub async fn log(app: &TestApp, token: &str, webhook_id: &str) -> Vec<pb::WebhookDelivery> {
    app.client()
        .list_webhook_deliveries(authed(
            pb::ListWebhookDeliveriesRequest {
                webhook_id: webhook_id.into(),
                ..Default::default()
            },
            token,
        ))
        .await
        .expect("ListWebhookDeliveries")
        .into_inner()
        .deliveries
}
