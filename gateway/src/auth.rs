//! The token check every non-public route passes: signature and claims (`platform::auth`), then
//! revocation — a logged-out token, a deleted user, or a user whose role or password changed
//! since the token was issued. Redis holds the revocation cache every replica shares; when a
//! key is missing or Redis is down, identity-svc (the truth) is asked.

use std::sync::Arc;

use platform::auth::Claims;
use proto::identity::v1::CheckTokenRequest;

use crate::{call, error::ApiError, extract::Session, redis_store::TokenState, state::AppState};

const ENDED: &str = "Your session has ended. Please sign in again.";

/// Verifies `token` and returns the session, or 401.
pub async fn session(state: &AppState, token: &str) -> Result<Session, ApiError> {
    let claims = state
        .verifier
        .verify(token)
        .map_err(|e| ApiError::unauthorized(capitalise(&e.to_string())))?;
    ensure_not_revoked(state, &claims).await?;
    Ok(Session {
        caller: (&claims).into(),
        token: Arc::from(token),
    })
}

/// Refuses a revoked token.
async fn ensure_not_revoked(state: &AppState, claims: &Claims) -> Result<(), ApiError> {
    let user_id = claims.sub.to_string();
    let jti = claims.jti.to_string();
    let (version, revoked) = match state.redis.token_state(&user_id, &jti).await {
        Ok(TokenState { revoked: true, .. }) => return Err(ApiError::unauthorized(ENDED)),
        Ok(TokenState {
            version: Some(version),
            ..
        }) => (Some(version), false),
        Ok(TokenState { version: None, .. }) => {
            let (version, revoked) = ask_identity(state, &user_id, &jti).await?;
            if let Some(version) = version {
                let _ = state.redis.cache_token_version(&user_id, version).await;
            }
            (version, revoked)
        }
        Err(down) => {
            tracing::warn!(error = %down, "revocation cache unavailable; asking identity-svc");
            ask_identity(state, &user_id, &jti).await?
        }
    };
    match version {
        _ if revoked => Err(ApiError::unauthorized(ENDED)),
        Some(v) if v == claims.ver => Ok(()),
        Some(v) if v < 0 => Err(ApiError::unauthorized("This account no longer exists.")),
        None => Err(ApiError::unauthorized("This account no longer exists.")),
        Some(_) => Err(ApiError::unauthorized(
            "Your account changed since you signed in. Please sign in again.",
        )),
    }
}

async fn ask_identity(state: &AppState, user_id: &str, jti: &str) -> Result<(Option<i64>, bool), ApiError> {
    let message = CheckTokenRequest {
        user_id: user_id.to_owned(),
        jti: jti.to_owned(),
    };
    let reply = call::read!(state, identity.check_token, None, message).await?;
    Ok((reply.token_version, reply.jti_revoked))
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
