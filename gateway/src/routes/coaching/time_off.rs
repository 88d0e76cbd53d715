//! A coach's time off (`/coach/exceptions`): date ranges on which none of their slots can be
//! booked. coaching-svc keeps them beside the availability (booking-svc re-checks them when it
//! books); each answer names the coach's active bookings inside the range (`conflicts`), read from
//! booking-svc in one call, so the coach decides what to do with them: nothing is cancelled
//! silently.

use std::collections::BTreeMap;

use axum::{extract::State, http::StatusCode};
use proto::{booking::v1 as bpb, coaching::v1 as pb};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::blank_is_none;
use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    state::AppState,
};

/// Dates (the coach's local dates, both inclusive) on which none of the coach's slots can be
/// booked.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimeOff {
    #[schema(format = Uuid)]
    pub exception_id: String,
    /// YYYY-MM-DD, the first day off.
    #[schema(format = Date)]
    pub start_date: String,
    /// YYYY-MM-DD, the last day off (inclusive).
    #[schema(format = Date)]
    pub end_date: String,
    pub reason: Option<String>,
    /// The ids of the coach's active (pending or confirmed) bookings inside the range: they are
    /// not cancelled by the time off; the coach decides.
    #[schema(value_type = Vec<String>, format = Uuid)]
    pub conflicts: Vec<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"start_date": "2030-07-01", "end_date": "2030-07-14", "reason": "Summer camp"}))]
pub struct TimeOffBody {
    /// YYYY-MM-DD, the first day off.
    #[schema(format = Date)]
    pub start_date: String,
    /// YYYY-MM-DD, the last day off (inclusive), not before start_date (422), not in the past
    /// (409).
    #[schema(format = Date)]
    pub end_date: String,
    /// Optional, one line, at most 200 characters; for the coach's own list.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub reason: Option<String>,
}

/// Each time off with the ids of the coach's active bookings on its dates, from one call to
/// booking-svc over the whole span. When booking-svc does not answer, the time off is still
/// shown (with no conflicts listed) rather than refused: it is saved either way.
async fn with_conflicts(state: &AppState, session: &Session, time_off: Vec<pb::TimeOff>) -> Vec<TimeOff> {
    let span = time_off
        .iter()
        .map(|t| (t.start_date.clone(), t.end_date.clone()))
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)));
    let mut by_date: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some((from, to)) = span {
        let message = bpb::ListActiveBookingsRequest { from, to };
        match call::read!(state, booking.list_active_bookings, Some(session), message).await {
            Ok(reply) => {
                for b in reply.bookings {
                    by_date.entry(b.booking_date).or_default().push(b.booking_id);
                }
            }
            Err(error) => tracing::warn!(?error, "a time off's conflicts are unread"),
        }
    }
    time_off
        .into_iter()
        .map(|t| {
            // Dates as YYYY-MM-DD order as text.
            let conflicts = by_date
                .range(t.start_date.clone()..=t.end_date.clone())
                .flat_map(|(_, ids)| ids.iter().cloned())
                .collect();
            TimeOff {
                exception_id: t.time_off_id,
                start_date: t.start_date,
                end_date: t.end_date,
                reason: t.reason,
                conflicts,
            }
        })
        .collect()
}

/// Take time off: none of the signed-in coach's slots can be booked on these dates (a booking is
/// a 409). The answer lists the active bookings already on them (`conflicts`), which stay as they
/// are until the coach cancels them.
#[utoipa::path(post, path = "/coach/exceptions", tag = "coaching", request_body = TimeOffBody,
    responses((status = 201, description = "Time off saved, with the bookings it meets", body = TimeOff)))]
pub(crate) async fn create_time_off(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<TimeOffBody>,
) -> Result<(StatusCode, axum::Json<TimeOff>), ApiError> {
    let message = pb::CreateTimeOffRequest {
        start_date: body.start_date,
        end_date: body.end_date,
        reason: blank_is_none(body.reason),
    };
    let reply = call::write!(state, coaching.create_time_off, Some(&session), message).await?;
    let time_off = present("coaching", reply.time_off)?;
    let mut answer = with_conflicts(&state, &session, vec![time_off]).await;
    let time_off = answer
        .pop()
        .ok_or_else(|| ApiError::internal("a time off went missing"))?;
    Ok((StatusCode::CREATED, axum::Json(time_off)))
}

/// The signed-in coach's time off that has not ended, soonest first, each with its conflicts.
#[utoipa::path(get, path = "/coach/exceptions", tag = "coaching",
    responses((status = 200, description = "The coach's time off", body = [TimeOff])))]
pub(crate) async fn list_time_off(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<TimeOff>>, ApiError> {
    let reply = call::read!(
        state,
        coaching.list_my_time_off,
        Some(&session),
        pb::ListMyTimeOffRequest {}
    )
    .await?;
    Ok(axum::Json(with_conflicts(&state, &session, reply.time_off).await))
}

/// Remove one of the signed-in coach's time off: its dates can be booked again.
#[utoipa::path(delete, path = "/coach/exceptions/{exception_id}", tag = "coaching",
    params(("exception_id" = String, Path, format = Uuid, description = "The time off")),
    responses((status = 204, description = "Time off removed")))]
pub(crate) async fn delete_time_off(
    State(state): State<AppState>,
    session: Session,
    PathId(time_off_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::DeleteTimeOffRequest { time_off_id };
    call::write!(state, coaching.delete_time_off, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}
