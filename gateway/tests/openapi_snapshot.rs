//! The committed OpenAPI document (`gateway/openapi.json`) is the one the gateway serves at
//! `/api/openapi.json`: the linters of the static stage and the web app's generated types read the
//! committed copy, so it must not drift from the code.
//!
//! `OPENAPI_SNAPSHOT=write` rewrites the committed copy instead of comparing (`./deploy/openapi.sh`
//! does that, then regenerates the web types).

use std::{path::PathBuf, time::Duration};

use axum::{body::Body, http::Request};
use tower::ServiceExt;

const REFRESH: &str = "./deploy/openapi.sh";

fn snapshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi.json")
}

/// Any Ed25519 public key will do: the document is served without a token. A constant, so this
/// test depends on nothing but the gateway's public API.
const PUBLIC_KEY: &str = "-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAdbnf7OzkPnXweUJu4PbndOPlBAUhFiqoJt/ifN6LZBI=
-----END PUBLIC KEY-----
";

/// A gateway whose upstreams are nowhere: serving the document needs none of them.
fn state() -> gateway::AppState {
    let nowhere = "http://127.0.0.1:1".to_owned();
    gateway::AppState::new(gateway::Config {
        listen_addr: ([127, 0, 0, 1], 0).into(),
        ops_addr: ([127, 0, 0, 1], 0).into(),
        identity_url: nowhere.clone(),
        coaching_url: nowhere.clone(),
        booking_url: nowhere.clone(),
        gym_url: nowhere,
        jwt_public_key: PUBLIC_KEY.to_owned(),
        redis_url: "redis://127.0.0.1:1".into(),
        redis_namespace: "openapi-snapshot".into(),
        upload_dir: std::env::temp_dir(),
        auth_rate_limit_per_minute: 1,
        auth_rate_limit_per_email_per_minute: 1,
        grpc_deadline: Duration::from_secs(1),
    })
    .expect("a gateway state")
}

/// The document as `GET /api/openapi.json` answers it, pretty-printed with sorted keys (so the
/// committed copy diffs line by line and does not depend on map order).
async fn served_document() -> String {
    let request = Request::get("/api/openapi.json")
        .body(Body::empty())
        .expect("a request");
    let response = gateway::router(state())
        .oneshot(request)
        .await
        .expect("the router answers");
    assert!(
        response.status().is_success(),
        "/api/openapi.json answered {}",
        response.status()
    );
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("the body reads");
    let document: serde_json::Value = serde_json::from_slice(&body).expect("the document is JSON");
    let mut text = serde_json::to_string_pretty(&document).expect("the document serialises");
    text.push('\n');
    text
}

/// The first line where the two texts differ, to point at in the failure message.
fn first_difference(committed: &str, served: &str) -> String {
    let mut committed_lines = committed.lines();
    let mut served_lines = served.lines();
    for number in 1.. {
        match (committed_lines.next(), served_lines.next()) {
            (Some(a), Some(b)) if a == b => {}
            (None, None) => break,
            (a, b) => {
                return format!(
                    "first difference at line {number}:\n  committed: {}\n  served:    {}",
                    a.unwrap_or("(end of file)"),
                    b.unwrap_or("(end of document)")
                );
            }
        }
    }
    "the texts differ only in their line endings".to_owned()
}

#[tokio::test]
async fn the_committed_openapi_document_is_the_one_the_gateway_serves() {
    let served = served_document().await;
    let path = snapshot_path();
    if std::env::var("OPENAPI_SNAPSHOT").as_deref() == Ok("write") {
        std::fs::write(&path, &served).expect("gateway/openapi.json is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == served,
        "gateway/openapi.json is not the document the gateway serves; run {REFRESH} to refresh it \
         (and commit it with the web types it regenerates).\n{}",
        first_difference(&committed, &served)
    );
}
