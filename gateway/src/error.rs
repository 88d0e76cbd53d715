//! The gateway's one error type: every error body is `{"detail": "..."}`.
//!
//! gRPC statuses map through the one table in `platform::status`; 4xx details come from the service
//! (they are written for people), 5xx details are fixed while the cause goes to the log.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;

/// Every error body.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// A sentence a person can act on.
    pub detail: String,
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub detail: String,
    /// Seconds, for 429.
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Self {
        Self {
            status,
            detail: detail.into(),
            retry_after: None,
        }
    }

    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, detail)
    }

    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, detail)
    }

    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, detail)
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, detail)
    }

    pub fn too_many(retry_after: u64) -> Self {
        Self {
            status: StatusCode::TOO_MANY_REQUESTS,
            detail: format!("Too many attempts. Please wait {retry_after} seconds and try again."),
            retry_after: Some(retry_after),
        }
    }

    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong on our side. Please try again.",
        )
    }

    /// A gRPC status from `service` as an HTTP error.
    pub fn from_grpc(service: &'static str, status: tonic::Status) -> Self {
        // A status with a source was made by our own transport (connection refused, an HTTP/2
        // error), not sent by the service: whatever its code, the service could not be reached.
        let from_transport = std::error::Error::source(&status).is_some();
        let code = if from_transport {
            StatusCode::SERVICE_UNAVAILABLE
        } else {
            StatusCode::from_u16(platform::status::http_status(status.code()))
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
        };
        if code == StatusCode::SERVICE_UNAVAILABLE {
            tracing::warn!(service, code = ?status.code(), message = status.message(), "upstream unavailable");
            return Self::new(
                code,
                format!("The {service} service is unavailable right now. Please try again shortly."),
            );
        }
        if code.is_server_error() {
            return Self::internal(format_args!("{service}: {status}"));
        }
        if let Some(detail) = payment_required(&status) {
            return Self::new(StatusCode::PAYMENT_REQUIRED, detail);
        }
        let detail = if status.message().is_empty() {
            default_detail(code)
        } else {
            status.message().to_owned()
        };
        Self::new(code, detail)
    }
}

/// What a person must do when booking-svc refuses a paid booking for want of a card: its
/// `FailedPrecondition` whose message starts with [`PAYMENT_REQUIRED`] is a 402 with the rest of
/// the message as the detail.
fn payment_required(status: &tonic::Status) -> Option<String> {
    if status.code() != tonic::Code::FailedPrecondition {
        return None;
    }
    let rest = status.message().strip_prefix(PAYMENT_REQUIRED)?.trim();
    Some(if rest.is_empty() {
        "Add a card under Payment methods on your dashboard, then book again.".to_owned()
    } else {
        rest.to_owned()
    })
}

/// The prefix of booking-svc's message when a paid session needs a card the client has not saved.
pub const PAYMENT_REQUIRED: &str = "payment_required:";

fn default_detail(code: StatusCode) -> String {
    code.canonical_reason().unwrap_or("Request failed").to_owned()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(ErrorBody { detail: self.detail })).into_response();
        if let Some(seconds) = self.retry_after
            && let Ok(value) = HeaderValue::from_str(&seconds.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

/// Maps a gRPC error from `service`: `.map_err(upstream("coaching"))`.
pub fn upstream(service: &'static str) -> impl Fn(tonic::Status) -> ApiError {
    move |status| ApiError::from_grpc(service, status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_error_keeps_the_services_detail() {
        let e = ApiError::from_grpc(
            "booking",
            tonic::Status::already_exists("This slot is already booked."),
        );
        assert_eq!(
            (e.status, e.detail.as_str()),
            (StatusCode::CONFLICT, "This slot is already booked.")
        );
    }

    #[test]
    fn a_paid_booking_without_a_card_is_a_402_with_the_rest_of_the_message() {
        let e = ApiError::from_grpc(
            "booking",
            tonic::Status::failed_precondition(
                "payment_required: Add a card under Payment methods on your dashboard, then book again.",
            ),
        );
        assert_eq!(
            (e.status, e.detail.as_str()),
            (
                StatusCode::PAYMENT_REQUIRED,
                "Add a card under Payment methods on your dashboard, then book again."
            )
        );
        let other = ApiError::from_grpc("booking", tonic::Status::failed_precondition("Too late."));
        assert_eq!(other.status, StatusCode::CONFLICT);
    }

    #[test]
    fn an_internal_error_hides_its_cause() {
        let e = ApiError::from_grpc(
            "booking",
            tonic::Status::internal("relation booking.x does not exist"),
        );
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!e.detail.contains("relation"));
    }

    #[test]
    fn a_status_made_by_the_transport_is_a_503_not_a_client_error() {
        let transport = std::io::Error::other("h2 protocol error");
        let status = tonic::Status::from_error(Box::new(transport));
        let e = ApiError::from_grpc("identity", status);
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(!e.detail.contains("h2"));
    }

    #[test]
    fn an_unreachable_service_is_named_in_a_503() {
        let e = ApiError::from_grpc("coaching", tonic::Status::unavailable("tcp connect error"));
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(e.detail.contains("coaching"));
    }
}
