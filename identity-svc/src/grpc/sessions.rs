//! A person's sessions (a token each, from a sign-in) and calendar-feed secrets, as RPCs of identity.v1.

use platform::auth::Role;
use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};

use crate::{domain::FeedSecret, error::Error, feeds, store};

use super::{IdentityService, parse_id};

pub(super) async fn list_sessions(
    service: &IdentityService,
    request: Request<pb::ListSessionsRequest>,
) -> Result<Response<pb::ListSessionsResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let sessions = store::live_sessions(&service.db, caller.user_id).await?;
    let time = |at: chrono::DateTime<chrono::Utc>| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    Ok(Response::new(pb::ListSessionsResponse {
        sessions: sessions
            .into_iter()
            .map(|s| pb::Session {
                session_id: s.jti.to_string(),
                created_at: time(s.created_at),
                last_seen_at: time(s.last_seen_at),
                user_agent: s.user_agent,
                current: s.jti == caller.jti,
            })
            .collect(),
    }))
}

pub(super) async fn end_session(
    service: &IdentityService,
    request: Request<pb::EndSessionRequest>,
) -> Result<Response<pb::EndSessionResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let session_id = parse_id(&request.get_ref().session_id, "session_id")?;
    let sessions = store::live_sessions(&service.db, caller.user_id).await?;
    let ended: Vec<_> = sessions.into_iter().filter(|s| s.jti == session_id).collect();
    if ended.is_empty() {
        return Err(Error::NotFound("you have no signed-in session with this id".into()).into());
    }
    service.end_sessions(&ended).await?;
    Ok(Response::new(pb::EndSessionResponse {}))
}

pub(super) async fn end_other_sessions(
    service: &IdentityService,
    request: Request<pb::EndOtherSessionsRequest>,
) -> Result<Response<pb::EndOtherSessionsResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let others: Vec<_> = store::live_sessions(&service.db, caller.user_id)
        .await?
        .into_iter()
        .filter(|s| s.jti != caller.jti)
        .collect();
    // Signing out everywhere ends the calendar feed's address too.
    feeds::close(&service.db, caller.user_id).await?;
    service.end_sessions(&others).await?;
    Ok(Response::new(pb::EndOtherSessionsResponse {
        ended: u32::try_from(others.len()).unwrap_or(u32::MAX),
    }))
}

pub(super) async fn get_calendar_feed(
    service: &IdentityService,
    request: Request<pb::GetCalendarFeedRequest>,
) -> Result<Response<pb::GetCalendarFeedResponse>, Status> {
    let caller = service.current_caller(&request, &feeds::ROLES).await?;
    // Empty when the caller has a feed already: only its hash is kept.
    let secret = feeds::secret_of(&service.db, &caller).await?;
    Ok(Response::new(pb::GetCalendarFeedResponse {
        secret: secret.map(FeedSecret::into_string).unwrap_or_default(),
    }))
}

pub(super) async fn reset_calendar_feed(
    service: &IdentityService,
    request: Request<pb::ResetCalendarFeedRequest>,
) -> Result<Response<pb::ResetCalendarFeedResponse>, Status> {
    let caller = service.current_caller(&request, &feeds::ROLES).await?;
    let secret = feeds::reset(&service.db, &caller).await?;
    Ok(Response::new(pb::ResetCalendarFeedResponse {
        secret: secret.into_string(),
    }))
}

pub(super) async fn resolve_calendar_feed(
    service: &IdentityService,
    request: Request<pb::ResolveCalendarFeedRequest>,
) -> Result<Response<pb::ResolveCalendarFeedResponse>, Status> {
    let (user_id, role) = feeds::owner(&service.db, &request.get_ref().secret).await?;
    Ok(Response::new(pb::ResolveCalendarFeedResponse {
        user_id: user_id.to_string(),
        role,
    }))
}
