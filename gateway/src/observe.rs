//! The outermost layer: one span per request (a child of the caller's trace, with the matched
//! route), per-route metrics (`http_requests_total`, `http_request_duration_seconds`,
//! `http_errors_total`), and a last-resort timeout that answers 503 with a detail.

use std::time::{Duration, Instant};

use axum::{
    extract::{MatchedPath, Request},
    http::StatusCode,
    middleware::Next,
    response::{IntoResponse, Response},
};
use tracing::Instrument;

use crate::error::ApiError;

/// No request may take longer than this, whatever it waits on.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

pub async fn observe(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let method = request.method().as_str().to_owned();
    let span = platform::telemetry::http_span(&request, &route);
    let started = Instant::now();
    let response =
        match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request).instrument(span.clone())).await {
            Ok(response) => response,
            Err(_) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "The request took too long. Please try again.",
            )
            .into_response(),
        };
    let status = response.status().as_u16();
    span.record("status", status);
    let labels = [
        ("method", method),
        ("route", route),
        ("status", status.to_string()),
    ];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!("http_request_duration_seconds", &labels[..2])
        .record(started.elapsed().as_secs_f64());
    if status >= 500 {
        metrics::counter!("http_errors_total", &labels).increment(1);
    }
    response
}
