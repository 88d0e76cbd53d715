//! Idempotency keys, as the IETF httpapi draft "The Idempotency-Key HTTP Header Field" describes
//! them: a `POST`, `PUT`, `PATCH` or `DELETE` under `/api` sent with `Idempotency-Key` is carried
//! out once per caller and key. The first answer is kept for [`KEEP_SECS`] and given again, with
//! `Idempotent-Replayed: true`, to a retry with the same key and the same request; the same key
//! with another request (method, path or body) is 422; a retry while the first is still being
//! carried out is 409.
//!
//! Keys live in Redis, so every gateway replica sees them and they outlive a gateway restart.
//! They are scoped per user (per client address for anonymous calls). An answer of 5xx or 429
//! is not kept: the request may not have been carried out, so a retry runs it again. The key also
//! travels to the service as gRPC metadata ([`METADATA`]), so a service can keep it with what it
//! wrote, in the same transaction: booking-svc does with a booking and gym-svc with a court
//! request, which is how a retry of a booking whose answer was lost (the gateway said 503) finds
//! the booking instead of "slot taken".
//!
//! While a request is being carried out its key holds a claim that lapses after [`CLAIM_SECS`]
//! (a gateway killed mid-request does not hold the key for a day). Without Redis, a request with
//! a key is answered 503: it cannot be promised to run once.
//!
//! An answer that carries a secret ([`crate::no_store::carries_secret`]: every `/auth/*` route,
//! the calendar feed's address) is never kept: its key is checked, then ignored, and a retry runs
//! again. A kept sign-in would hand its token back for a day, after a logout too, and keep it in
//! clear in Redis.

use std::sync::LazyLock;

use axum::{
    body::{Body, Bytes},
    extract::{Request, State},
    http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use redis::Script;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{
    error::ApiError,
    extract::{ClientIp, Session},
    state::AppState,
};

/// The request header.
pub const HEADER: &str = "idempotency-key";
/// The header on an answer given again.
pub const REPLAYED: &str = "idempotent-replayed";
/// The gRPC metadata the key travels in to the services.
pub const METADATA: &str = "idempotency-key";
/// How long a first answer is kept: 24 hours.
pub const KEEP_SECS: u64 = 86_400;
/// How long a request being carried out holds its key: longer than any request takes.
pub const CLAIM_SECS: u64 = 30;
/// The longest key accepted.
const MAX_KEY_LEN: usize = 255;
/// The largest body read for a fingerprint: a picture upload's limit.
const BODY_LIMIT: usize = crate::uploads::BODY_LIMIT;
/// The answer headers kept with the body.
const KEPT_HEADERS: [HeaderName; 3] = [
    header::CONTENT_TYPE,
    header::LOCATION,
    header::CONTENT_DISPOSITION,
];

/// Claims KEYS[1] with ARGV[1] for ARGV[2] seconds unless it is held; answers what holds it, or
/// nil when the claim is ours. One round trip, atomic across replicas.
static CLAIM: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local held = redis.call('GET', KEYS[1])
        if held then
            return held
        end
        redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
        return false
        ",
    )
});

/// The claim script, for [`crate::redis_store::RedisStore::claim_idempotency`].
pub(crate) fn claim_script() -> &'static Script {
    &CLAIM
}

/// What Redis holds under a key.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// The request's fingerprint: its method, path and body, hashed.
    fingerprint: String,
    /// The first answer; `None` while it is being carried out.
    answer: Option<Answer>,
    /// Which attempt holds a claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    attempt: Option<String>,
}

/// A kept answer.
#[derive(Debug, Serialize, Deserialize)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    /// Base64, so any body round-trips.
    body: String,
}

tokio::task_local! {
    /// The key of the request being served, for [`current`].
    static KEY: String;
    /// The id of the write being served, for [`request_id`].
    static REQUEST_ID: String;
}

/// The request id of the write being served, if it is one: [`AppState::request`] sends it to the
/// service as `x-request-id`.
pub fn request_id() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

/// The idempotency key of the request being served, if it has one: [`AppState::request`] sends
/// it to the service as [`METADATA`].
pub fn current() -> Option<String> {
    KEY.try_with(Clone::clone).ok()
}

/// Whether requests with `method` take a key.
fn applies(method: &Method) -> bool {
    [Method::POST, Method::PUT, Method::PATCH, Method::DELETE].contains(method)
}

/// The key of a header value: a structured-field string (`"..."`, as the draft writes it) or the
/// bare text; 1 to 255 visible ASCII characters.
fn parse_key(value: &HeaderValue) -> Result<String, ApiError> {
    let invalid = || {
        ApiError::bad_request(format!(
            "The Idempotency-Key header must be 1 to {MAX_KEY_LEN} visible ASCII characters, such as a UUID."
        ))
    };
    let text = value.to_str().map_err(|_| invalid())?.trim();
    let key = text.strip_prefix('"').unwrap_or(text);
    let key = key.strip_suffix('"').unwrap_or(key);
    let visible = key
        .bytes()
        .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\');
    if key.is_empty() || key.len() > MAX_KEY_LEN || !visible {
        return Err(invalid());
    }
    Ok(key.to_owned())
}

/// The fingerprint of a request: method, path and query, and body.
fn fingerprint(method: &Method, path: &str, body: &[u8]) -> String {
    let mut hash = Sha256::new();
    hash.update(method.as_str());
    hash.update(b"\n");
    hash.update(path);
    hash.update(b"\n");
    hash.update(body);
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether an answer is kept: not when the request may not have been carried out (5xx) or was
/// turned away before it was (429).
fn kept(status: StatusCode) -> bool {
    !(status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS)
}

fn unavailable() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "Courtside cannot make sure this request runs only once right now. \
         Please try again in a moment with the same Idempotency-Key.",
    )
}

fn with_retry_after(error: ApiError) -> Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// The layer every write route passes after the role gate: see the module documentation. It also
/// hands the write's request id (nginx's `X-Request-Id`, or a new one) to the services
/// ([`request_id`]), for the records they keep of it (the admin audit trail).
pub async fn idempotent(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !applies(request.method()) {
        return next.run(request).await;
    }
    let request_id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
    REQUEST_ID.scope(request_id, keyed(state, request, next)).await
}

async fn keyed(state: AppState, request: Request, next: Next) -> Response {
    let Some(value) = request.headers().get(HEADER) else {
        return next.run(request).await;
    };
    let key = match parse_key(value) {
        Ok(key) => key,
        Err(error) => return error.into_response(),
    };
    if crate::no_store::carries_secret(request.uri().path()) {
        return next.run(request).await;
    }
    let scope = match request.extensions().get::<Session>() {
        Some(session) => format!("u:{}", session.caller.user_id),
        None => {
            let (mut parts, body) = request.into_parts();
            let ClientIp(ip) =
                match <ClientIp as axum::extract::FromRequestParts<()>>::from_request_parts(&mut parts, &())
                    .await
                {
                    Ok(ip) => ip,
                    Err(never) => match never {},
                };
            return carry_out(
                state,
                format!("a:{ip}"),
                key,
                Request::from_parts(parts, body),
                next,
            )
            .await;
        }
    };
    carry_out(state, scope, key, request, next).await
}

async fn carry_out(state: AppState, scope: String, key: String, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let body: Bytes = match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(body) => body,
        Err(_) => {
            return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "The request body is too large.")
                .into_response();
        }
    };
    let path = parts.uri.path_and_query().map_or("", |p| p.as_str());
    let fingerprint = fingerprint(&parts.method, path, &body);
    let redis_key = format!("idem:{scope}:{key}");
    // The claim names this attempt, so only this attempt lets go of it.
    let claim = serde_json::to_string(&Record {
        fingerprint: fingerprint.clone(),
        answer: None,
        attempt: Some(uuid::Uuid::new_v4().to_string()),
    })
    .unwrap_or_default();
    let held = match state
        .redis
        .claim_idempotency(&redis_key, &claim, CLAIM_SECS)
        .await
    {
        Ok(held) => held,
        Err(down) => {
            tracing::warn!(error = %down, "idempotency keys unavailable; a request with a key is refused");
            return with_retry_after(unavailable());
        }
    };
    if let Some(held) = held {
        return match serde_json::from_str::<Record>(&held) {
            Ok(record) if record.fingerprint != fingerprint => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "This Idempotency-Key was already used for another request. \
                 Use a new key for a new request.",
            )
            .into_response(),
            Ok(Record { answer: None, .. }) => with_retry_after(ApiError::new(
                StatusCode::CONFLICT,
                "A request with this Idempotency-Key is still being carried out. \
                 Please wait a moment and try again.",
            )),
            Ok(Record {
                answer: Some(answer), ..
            }) => replay(answer),
            Err(error) => {
                tracing::error!(%error, "an idempotency record that does not parse");
                ApiError::internal("an idempotency record that does not parse").into_response()
            }
        };
    }

    let request = Request::from_parts(parts, Body::from(body));
    let response = KEY.scope(key, next.run(request)).await;
    let status = response.status();
    if !kept(status) {
        if let Err(error) = state.redis.release_idempotency(&redis_key, &claim).await {
            tracing::warn!(%error, "an idempotency claim not released; it lapses on its own");
        }
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(body) = axum::body::to_bytes(body, usize::MAX).await else {
        return ApiError::internal("an answer's body could not be read").into_response();
    };
    let record = Record {
        fingerprint,
        attempt: None,
        answer: Some(Answer {
            status: status.as_u16(),
            headers: kept_headers(&parts.headers),
            body: base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &body),
        }),
    };
    let stored = state
        .redis
        .keep_idempotency(
            &redis_key,
            &serde_json::to_string(&record).unwrap_or_default(),
            KEEP_SECS,
        )
        .await;
    if let Err(error) = stored {
        tracing::warn!(%error, "an idempotent answer not kept; a retry runs the request again");
    }
    Response::from_parts(parts, Body::from(body))
}

fn kept_headers(headers: &HeaderMap) -> Vec<(String, String)> {
    KEPT_HEADERS
        .iter()
        .filter_map(|name| {
            let value = headers.get(name)?.to_str().ok()?;
            Some((name.as_str().to_owned(), value.to_owned()))
        })
        .collect()
}

/// The first answer again.
fn replay(answer: Answer) -> Response {
    let body =
        base64::Engine::decode(&base64::engine::general_purpose::STANDARD, &answer.body).unwrap_or_default();
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    for (name, value) in answer.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            response.headers_mut().insert(name, value);
        }
    }
    response
        .headers_mut()
        .insert(REPLAYED, HeaderValue::from_static("true"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_read_bare_or_as_a_structured_string() {
        let bare = parse_key(&HeaderValue::from_static("8e03978e-40d5-43e8-bc93-6894a57f9324"));
        let quoted = parse_key(&HeaderValue::from_static(
            "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"",
        ));
        assert_eq!(bare.unwrap(), "8e03978e-40d5-43e8-bc93-6894a57f9324");
        assert_eq!(quoted.unwrap(), "8e03978e-40d5-43e8-bc93-6894a57f9324");
    }

    #[test]
    fn an_empty_long_or_spaced_key_is_refused() {
        assert!(parse_key(&HeaderValue::from_static("")).is_err());
        assert!(parse_key(&HeaderValue::from_static("\"\"")).is_err());
        assert!(parse_key(&HeaderValue::from_static("two words")).is_err());
        assert!(parse_key(&HeaderValue::from_str(&"k".repeat(256)).unwrap()).is_err());
        assert!(parse_key(&HeaderValue::from_str(&"k".repeat(255)).unwrap()).is_ok());
    }

    #[test]
    fn the_fingerprint_tells_apart_method_path_and_body() {
        let base = fingerprint(&Method::POST, "/api/bookings", b"{}");
        assert_eq!(base, fingerprint(&Method::POST, "/api/bookings", b"{}"));
        assert_ne!(base, fingerprint(&Method::PUT, "/api/bookings", b"{}"));
        assert_ne!(base, fingerprint(&Method::POST, "/api/locations", b"{}"));
        assert_ne!(base, fingerprint(&Method::POST, "/api/bookings", b"{\"a\":1}"));
    }

    #[test]
    fn server_errors_and_rate_limits_are_not_kept() {
        assert!(kept(StatusCode::CREATED));
        assert!(kept(StatusCode::CONFLICT));
        assert!(kept(StatusCode::BAD_REQUEST));
        assert!(!kept(StatusCode::SERVICE_UNAVAILABLE));
        assert!(!kept(StatusCode::INTERNAL_SERVER_ERROR));
        assert!(!kept(StatusCode::TOO_MANY_REQUESTS));
    }
}
