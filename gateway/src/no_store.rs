//! Answers that carry a secret or a token: a sign-in's or registration's token, a password reset's
//! completion, a calendar feed's address, a new card's SetupIntent (its client secret). They go
//! out with `Cache-Control: no-store`, so no browser, proxy or back-forward cache keeps them, and
//! the idempotency layer never keeps them either ([`crate::idempotency`]): a retry runs again
//! instead of handing back a token that may have been revoked since.

use axum::{
    extract::Request,
    http::{HeaderValue, header},
    middleware::Next,
    response::Response,
};

/// Whether the answers of `path` (with or without the `/api` prefix) carry a secret: every
/// `/auth/*` route (tokens, the reset completion, a person's sessions), the calendar feed's
/// address (`GET` and `POST /calendar/feed`) and a new card's SetupIntent (its client secret).
pub fn carries_secret(path: &str) -> bool {
    let path = path.strip_prefix("/api").unwrap_or(path);
    path.starts_with("/auth/")
        || path == "/calendar/feed"
        || path.starts_with("/calendar/feed/")
        || path == "/client/payment-methods/setup"
}

/// Marks the answers of [`carries_secret`] paths `Cache-Control: no-store`, errors included.
pub async fn no_store(request: Request, next: Next) -> Response {
    let secret = carries_secret(request.uri().path());
    let mut response = next.run(request).await;
    if secret {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::carries_secret;

    #[test]
    fn tokens_and_feed_addresses_carry_secrets_and_other_answers_do_not() {
        for path in [
            "/api/auth/login",
            "/api/auth/register",
            "/api/auth/reset-password",
            "/auth/login",
            "/api/calendar/feed",
            "/api/client/payment-methods/setup",
        ] {
            assert!(carries_secret(path), "{path}");
        }
        for path in [
            "/api/coaches",
            "/api/calendar/abc.ics",
            "/api/bookings",
            "/api/authx",
        ] {
            assert!(!carries_secret(path), "{path}");
        }
    }
}
