//! The one table from gRPC status codes to HTTP status codes, as ARCHITECTURE.md fixes them.
//!
//! Services put a sentence a person can act on in the status message for every client error; the
//! gateway passes it on as `{"detail": ...}`. Server errors keep their cause in the log and send a
//! fixed message.

use tonic::{Code, Status};

/// The HTTP status the gateway answers for a gRPC status code.
pub fn http_status(code: Code) -> u16 {
    match code {
        Code::Ok => 200,
        Code::InvalidArgument => 400,
        // Every field valid, but together they do not say enough (a place whose time zone nothing
        // tells): Unprocessable Content.
        Code::OutOfRange => 422,
        Code::Unauthenticated => 401,
        Code::PermissionDenied => 403,
        Code::NotFound => 404,
        Code::AlreadyExists | Code::FailedPrecondition | Code::Aborted => 409,
        Code::ResourceExhausted => 429,
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled => 503,
        Code::Unknown | Code::Internal | Code::Unimplemented | Code::DataLoss => 500,
    }
}

/// Whether the status message is meant for the person (a 4xx) rather than the log.
pub fn is_client_error(code: Code) -> bool {
    (400..500).contains(&http_status(code))
}

/// A server error: its cause (with its chain, for an `anyhow::Error`) goes to the log, the caller
/// gets a fixed message.
pub fn internal(cause: impl std::fmt::Display) -> Status {
    tracing::error!(error = format!("{cause:#}"), "internal error");
    Status::internal("something went wrong on our side")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_maps_to_the_documented_http_status() {
        let table = [
            (Code::InvalidArgument, 400),
            (Code::OutOfRange, 422),
            (Code::Unauthenticated, 401),
            (Code::PermissionDenied, 403),
            (Code::NotFound, 404),
            (Code::AlreadyExists, 409),
            (Code::FailedPrecondition, 409),
            (Code::Aborted, 409),
            (Code::ResourceExhausted, 429),
            (Code::Unavailable, 503),
            (Code::DeadlineExceeded, 503),
            (Code::Internal, 500),
            (Code::Unknown, 500),
        ];
        for (code, http) in table {
            assert_eq!(http_status(code), http, "{code:?}");
        }
    }

    #[test]
    fn only_4xx_messages_are_for_people() {
        assert!(is_client_error(Code::NotFound));
        assert!(!is_client_error(Code::Internal));
        assert!(!is_client_error(Code::Unavailable));
    }
}
