//! `/auth/sessions` and `/auth/logout-all`: a person's signed-in devices (one session per sign-in)
//! and ending them. identity-svc keeps the sessions and ends one by revoking its token, exactly as
//! a logout does (in its database and in the Redis revocation cache every gateway reads), so an
//! ended session's token stops working at once.

use axum::{extract::State, http::StatusCode};
use proto::identity::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{PathId, Session},
    state::AppState,
};

/// A signed-in device: one sign-in's session.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeviceSession {
    #[schema(format = Uuid)]
    pub session_id: String,
    /// When it signed in: RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it was last seen (renewed at most once a minute, as the app opens): RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub last_seen_at: String,
    /// The browser or app, as its User-Agent named it when it signed in ("" when it named none).
    pub user_agent: String,
    /// The session this request was made with.
    pub current: bool,
}

/// How many sessions `POST /auth/logout-all` ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ended {
    pub ended: u32,
}

/// The caller's signed-in devices, newest first, the current one marked.
#[utoipa::path(get, path = "/auth/sessions", tag = "auth",
    responses((status = 200, description = "The caller's sessions still in force", body = [DeviceSession])))]
pub(crate) async fn list_sessions(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<DeviceSession>>, ApiError> {
    let reply = call::read!(
        state,
        identity.list_sessions,
        Some(&session),
        pb::ListSessionsRequest {}
    )
    .await?;
    Ok(axum::Json(
        reply
            .sessions
            .into_iter()
            .map(|s| DeviceSession {
                session_id: s.session_id,
                created_at: s.created_at,
                last_seen_at: s.last_seen_at,
                user_agent: s.user_agent,
                current: s.current,
            })
            .collect(),
    ))
}

/// End one of the caller's sessions: its token stops working at once (the current one too: that
/// is a logout).
#[utoipa::path(delete, path = "/auth/sessions/{session_id}", tag = "auth",
    params(("session_id" = String, Path, format = Uuid, description = "The session")),
    responses((status = 204, description = "Ended")))]
pub(crate) async fn end_session(
    State(state): State<AppState>,
    session: Session,
    PathId(session_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::EndSessionRequest { session_id };
    call::write!(state, identity.end_session, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// End every session of the caller but this one: every other device is signed out at once.
#[utoipa::path(post, path = "/auth/logout-all", tag = "auth",
    responses((status = 200, description = "The other sessions ended", body = Ended)))]
pub(crate) async fn logout_all(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Ended>, ApiError> {
    let reply = call::write!(
        state,
        identity.end_other_sessions,
        Some(&session),
        pb::EndOtherSessionsRequest {}
    )
    .await?;
    Ok(axum::Json(Ended { ended: reply.ended }))
}
