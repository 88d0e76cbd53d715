//! The authorization gate in front of every route: the bearer token checked (signature, claims,
//! revocation) and the caller's role checked against the route's [`Access`].

use axum::{
    extract::{Request, State},
    middleware::Next,
    response::Response,
};

use super::Access;
use crate::{
    error::ApiError,
    memo::{self, Stamps},
    state::AppState,
};

/// Verifies the bearer token, checks the role against the route's [`Access`], and hands the
/// handler a [`Session`](crate::extract::Session).
pub async fn authorize(
    State((state, access)): State<(AppState, Access)>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let header = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let token = header.and_then(platform::auth::bearer);
    if access == Access::Public {
        // A public route ignores credentials, good or bad.
        return Ok(next.run(request).await);
    }
    let token = token.ok_or_else(|| ApiError::unauthorized("Please sign in to do this."))?;
    // The token check and the cache's change stamps, read side by side (each one Redis round
    // trip, on one connection): the session is identity only, the stamps are the cache's.
    let (session, stamps) = tokio::join!(crate::auth::session(&state, token), state.redis.stamps());
    let session = session?;
    let stamps = stamps.unwrap_or_else(|down| {
        tracing::warn!(error = %down, "change stamps unavailable; nothing remembered is served");
        Stamps::default()
    });
    if !access.allows(Some(session.caller.role)) {
        return Err(ApiError::forbidden(format!(
            "A {} account cannot do this.",
            session.caller.role
        )));
    }
    request.extensions_mut().insert(session);
    Ok(memo::with_stamps(stamps, next.run(request)).await)
}
