//! The token check every non-public route passes: signature and claims (`platform::auth`), then
//! revocation — a logged-out token, a deleted user, or a user whose role or password changed
//! since the token was issued.
//!
//! identity-svc's database is the truth (`CheckToken` reads it). Redis holds what identity-svc
//! wrote there as it happened, and every replica reads it on every request, so a revocation that
//! reached Redis holds everywhere at once. Redis is believed only against a token, never for it: a
//! write that missed Redis (a hiccup during a logout, a password or a role change) must not leave
//! the token working. A token is let through on `CheckToken`'s word, remembered by this replica
//! for [`RECENT`] only; when Redis cannot answer, `CheckToken` is asked every time; when neither
//! answers, the request is refused with a 503 (never let through).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::http::StatusCode;
use platform::auth::Claims;
use proto::identity::v1::{CheckTokenRequest, ExchangeApiTokenRequest};

use crate::{call, error::ApiError, extract::Session, redis_store::TokenState, state::AppState};

const ENDED: &str = "Your session has ended. Please sign in again.";
const GONE: &str = "This account no longer exists.";
const CHANGED: &str = "Your account changed since you signed in. Please sign in again.";
const CANNOT_CHECK: &str = "Courtside cannot check your sign-in right now. Please try again in a moment.";

/// How long a replica lets a token through on identity-svc's last word without asking again: the
/// longest a revocation that missed Redis stays unnoticed.
pub const RECENT: Duration = Duration::from_secs(5);
/// Tokens remembered at most; past it the stale ones are dropped, then all.
const RECENT_MAX: usize = 10_000;

/// The tokens identity-svc confirmed lately, by `jti`, with the version confirmed and when.
#[derive(Clone, Default)]
pub struct RecentChecks(Arc<Mutex<HashMap<String, (i64, Instant)>>>);

impl RecentChecks {
    fn confirmed(&self, jti: &str, version: i64) -> bool {
        let recent = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        recent
            .get(jti)
            .is_some_and(|(v, at)| *v == version && at.elapsed() < RECENT)
    }

    fn confirm(&self, jti: &str, version: i64) {
        let mut recent = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if recent.len() >= RECENT_MAX {
            recent.retain(|_, (_, at)| at.elapsed() < RECENT);
            if recent.len() >= RECENT_MAX {
                recent.clear();
            }
        }
        recent.insert(jti.to_owned(), (version, Instant::now()));
    }

    /// Forgets a token (logged out here): the next request with it asks again.
    pub fn forget(&self, jti: &str) {
        let mut recent = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        recent.remove(jti);
    }
}

/// Verifies `token` and returns the session, or 401 (503 when revocation cannot be checked).
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

/// What [`api_session`] found: the session of the token's person and the token's scopes.
pub struct ApiTokenSession {
    pub session: Session,
    pub token_id: String,
    pub scopes: Vec<String>,
}

/// Whether a bearer credential is an API token's secret (issue 37) rather than a JWT.
pub fn is_api_token(bearer: &str) -> bool {
    bearer.starts_with("cst_")
}

/// The session an API token's secret speaks for: identity-svc trades the secret (refusing an
/// unknown, revoked or expired one with the 401 of its detail) for a short-lived JWT of its
/// person, whose `jti` is the token's id; that JWT then passes the same revocation check as any
/// token, so a revocation published in Redis holds at once even if identity-svc's answer was
/// already on its way. `used_for` ("GET /api/bookings") goes to the audit trail of an admin's
/// token. Nothing is remembered between requests: every request is traded afresh.
pub async fn api_session(
    state: &AppState,
    secret: &str,
    used_for: String,
) -> Result<ApiTokenSession, ApiError> {
    let message = ExchangeApiTokenRequest {
        secret: secret.to_owned(),
        used_for,
    };
    let reply = call::read!(state, identity.exchange_api_token, None, message)
        .await
        .map_err(cannot_check)?;
    let session = session(state, &reply.jwt).await?;
    Ok(ApiTokenSession {
        session,
        token_id: reply.token_id,
        scopes: reply.scopes,
    })
}

/// Refuses a revoked token; see the module documentation.
async fn ensure_not_revoked(state: &AppState, claims: &Claims) -> Result<(), ApiError> {
    let user_id = claims.sub.to_string();
    let jti = claims.jti.to_string();
    let cached = match state.redis.token_state(&user_id, &jti).await {
        Ok(cached) => cached,
        Err(down) => {
            tracing::warn!(error = %down, "revocation cache unavailable; asking identity-svc");
            let (version, revoked) = ask_identity(state, &user_id, &jti).await?;
            return verdict(version, revoked, claims.ver);
        }
    };
    // What Redis holds against the token takes effect at once. A version below the token's is a
    // write that never arrived, not a verdict: identity-svc is asked.
    match cached {
        TokenState { revoked: true, .. } => return Err(ApiError::unauthorized(ENDED)),
        TokenState {
            version: Some(version),
            ..
        } if version < 0 || version > claims.ver => return verdict(Some(version), false, claims.ver),
        _ => {}
    }
    if state.redis.recent.confirmed(&jti, claims.ver) {
        return Ok(());
    }
    let (version, revoked) = ask_identity(state, &user_id, &jti).await?;
    // Put back in Redis what it missed, for every replica.
    if let Some(version) = version {
        let _ = state.redis.cache_token_version(&user_id, version).await;
    }
    if revoked {
        let ttl = (claims.exp - platform::auth::now_secs()).max(1) as u64;
        let _ = state.redis.revoke(&jti, ttl).await;
    }
    verdict(version, revoked, claims.ver)?;
    state.redis.recent.confirm(&jti, claims.ver);
    Ok(())
}

/// Whether a token of version `token_version` stands, given the user's current version (`None` or
/// negative: the user is gone) and whether it was logged out.
fn verdict(version: Option<i64>, revoked: bool, token_version: i64) -> Result<(), ApiError> {
    match version {
        _ if revoked => Err(ApiError::unauthorized(ENDED)),
        Some(v) if v == token_version => Ok(()),
        Some(v) if v < 0 => Err(ApiError::unauthorized(GONE)),
        None => Err(ApiError::unauthorized(GONE)),
        Some(_) => Err(ApiError::unauthorized(CHANGED)),
    }
}

/// `CheckToken`: the user's current token version and whether `jti` was logged out. When
/// identity-svc cannot answer, a 503 that says the sign-in could not be checked.
async fn ask_identity(state: &AppState, user_id: &str, jti: &str) -> Result<(Option<i64>, bool), ApiError> {
    let message = CheckTokenRequest {
        user_id: user_id.to_owned(),
        jti: jti.to_owned(),
    };
    let reply = call::read!(state, identity.check_token, None, message)
        .await
        .map_err(cannot_check)?;
    Ok((reply.token_version, reply.jti_revoked))
}

/// identity-svc's server error, as the 503 of a sign-in that could not be checked.
fn cannot_check(error: ApiError) -> ApiError {
    if error.status.is_server_error() {
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, CANNOT_CHECK)
        }
    } else {
        error
    }
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_stands_only_at_its_users_current_version_and_not_logged_out() {
        assert!(verdict(Some(3), false, 3).is_ok());
        assert_eq!(verdict(Some(3), true, 3).unwrap_err().detail, ENDED);
        assert_eq!(verdict(Some(4), false, 3).unwrap_err().detail, CHANGED);
        assert_eq!(verdict(Some(-1), false, 3).unwrap_err().detail, GONE);
        assert_eq!(verdict(None, false, 3).unwrap_err().detail, GONE);
    }

    #[test]
    fn a_confirmation_holds_for_its_version_only_and_can_be_forgotten() {
        let recent = RecentChecks::default();
        assert!(!recent.confirmed("j", 1));
        recent.confirm("j", 1);
        assert!(recent.confirmed("j", 1));
        assert!(!recent.confirmed("j", 2));
        recent.forget("j");
        assert!(!recent.confirmed("j", 1));
    }
}
