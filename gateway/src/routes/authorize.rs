//! The authorization gate in front of every route: the bearer token checked (signature, claims,
//! revocation) and the caller's role checked against the route's [`Access`]. A bearer that is an
//! API token's secret (`cst_…`, issue 37) is traded for its person's session first, counted
//! against the token's rate limit, and must hold the scope the route's area and the method need
//! ([`scopes`](super::scopes)).

use std::sync::Arc;

use axum::{
    extract::{OriginalUri, Request, State},
    http::Method,
    middleware::Next,
    response::Response,
};

use super::{Access, scopes};
use crate::{
    error::ApiError,
    extract::Session,
    memo::{self, Stamps},
    state::AppState,
};

/// The operations (method, route template relative to `/api`) one row of the table serves: what
/// the token path needs to know which scope the request needs.
#[derive(Clone, Debug, Default)]
pub struct Operations(Arc<[(Method, String)]>);

impl Operations {
    pub fn new(operations: &[(Method, String)]) -> Self {
        Self(operations.iter().cloned().collect())
    }

    /// The template a request of `method` was routed to (HEAD is a GET's).
    fn template(&self, method: &Method) -> Option<&str> {
        let method = if *method == Method::HEAD {
            &Method::GET
        } else {
            method
        };
        self.0
            .iter()
            .find(|(m, _)| m == method)
            .map(|(_, path)| path.as_str())
    }
}

/// Verifies the bearer token, checks the role against the route's [`Access`], and hands the
/// handler a [`Session`](crate::extract::Session).
pub async fn authorize(
    State((state, access, operations)): State<(AppState, Access, Operations)>,
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
    // What an API token is used for: the method and the path as the client sent it.
    let used_for = crate::auth::is_api_token(token).then(|| {
        let path = request.extensions().get::<OriginalUri>().map_or_else(
            || format!("/api{}", request.uri().path()),
            |uri| uri.path().to_owned(),
        );
        (request.method().clone(), path)
    });
    let checked = async {
        if let Some((method, path)) = &used_for {
            api_token(&state, access, &operations, (method, path), token).await
        } else {
            crate::auth::session(&state, token).await
        }
    };
    let (session, stamps) = tokio::join!(checked, state.redis.stamps());
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

/// The session of an API token's secret, if the token may make this request: traded by
/// identity-svc (401 when it is not in force), within the token's rate limit (429), of a role the
/// route allows (403), on a route of an area (403 otherwise) whose scope for the method the token
/// holds (403 naming the scope).
async fn api_token(
    state: &AppState,
    access: Access,
    operations: &Operations,
    (method, path): (&Method, &str),
    secret: &str,
) -> Result<Session, ApiError> {
    let found = crate::auth::api_session(state, secret, format!("{method} {path}")).await?;
    limit(state, &found.token_id).await?;
    if !access.allows(Some(found.session.caller.role)) {
        return Err(ApiError::forbidden(format!(
            "A {} account cannot do this.",
            found.session.caller.role
        )));
    }
    let template = operations.template(method).unwrap_or_default();
    let Some(scope) = scopes::required(method, template) else {
        return Err(ApiError::forbidden(scopes::refused_on(template)));
    };
    if !found.scopes.iter().any(|s| s == scope) {
        return Err(ApiError::forbidden(scopes::lacks(scope)));
    }
    Ok(found.session)
}

/// Counts a request against the token's limit per minute (`API_TOKEN_RATE_LIMIT_PER_MINUTE`,
/// over every replica); a 429 past it. Fails open while Redis is down, as other limits do.
async fn limit(state: &AppState, token_id: &str) -> Result<(), ApiError> {
    let bucket = [(
        format!("api-token:{token_id}"),
        state.config.api_token_rate_limit_per_minute,
    )];
    match state.redis.hit(&bucket).await {
        Ok(Some(retry_after)) => Err(ApiError::too_many(retry_after)),
        Ok(None) => Ok(()),
        Err(down) => {
            tracing::warn!(error = %down, "API token rate limits are off while Redis is unavailable");
            Ok(())
        }
    }
}
