//! A gym's closures of its locations (`/gym/locations/{location_id}/closures`): dates on which a
//! location's court time is not offered nor requestable. gym-svc keeps them; a new closure denies
//! the requests pending on its dates, with its reason.

use axum::{extract::State, http::StatusCode};
use proto::gym::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    state::AppState,
};

/// Dates (the location's local dates, both inclusive) on which a gym location is closed.
#[derive(Debug, Serialize, ToSchema)]
pub struct Closure {
    #[schema(format = Uuid)]
    pub closure_id: String,
    #[schema(format = Uuid)]
    pub location_id: String,
    /// YYYY-MM-DD, the first closed day.
    #[schema(format = Date)]
    pub start_date: String,
    /// YYYY-MM-DD, the last closed day (inclusive).
    #[schema(format = Date)]
    pub end_date: String,
    pub reason: Option<String>,
}

impl From<pb::Closure> for Closure {
    fn from(c: pb::Closure) -> Self {
        Self {
            closure_id: c.closure_id,
            location_id: c.location_id,
            start_date: c.start_date,
            end_date: c.end_date,
            reason: c.reason,
        }
    }
}

/// A new closure, with the requests it denied.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewClosure {
    #[serde(flatten)]
    pub closure: Closure,
    /// The ids of the pending court requests on its dates, now denied with its reason.
    #[schema(value_type = Vec<String>, format = Uuid)]
    pub denied_reservations: Vec<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"start_date": "2030-07-01", "end_date": "2030-07-03", "reason": "Tournament"}))]
pub struct ClosureBody {
    /// YYYY-MM-DD, the first closed day.
    #[schema(format = Date)]
    pub start_date: String,
    /// YYYY-MM-DD, the last closed day (inclusive), not before start_date (422), not in the past
    /// (409).
    #[schema(format = Date)]
    pub end_date: String,
    /// Optional, one line, at most 200 characters; coaches whose requests it denies read it.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub reason: Option<String>,
}

/// Close one of the signed-in gym's locations on some dates: its court time on them is no longer
/// offered nor requestable, and the requests pending on them are denied with the reason.
#[utoipa::path(post, path = "/gym/locations/{location_id}/closures", tag = "gym", request_body = ClosureBody,
    params(("location_id" = String, Path, format = Uuid, description = "One of the gym's locations")),
    responses((status = 201, description = "Closed, with the requests it denied", body = NewClosure)))]
pub(crate) async fn create_closure(
    State(state): State<AppState>,
    session: Session,
    PathId(location_id): PathId,
    Json(body): Json<ClosureBody>,
) -> Result<(StatusCode, axum::Json<NewClosure>), ApiError> {
    let message = pb::CreateClosureRequest {
        location_id,
        start_date: body.start_date,
        end_date: body.end_date,
        reason: body.reason.filter(|r| !r.trim().is_empty()),
    };
    let reply = call::write!(state, gym.create_closure, Some(&session), message).await?;
    let closure = present("gym", reply.closure)?.into();
    Ok((
        StatusCode::CREATED,
        axum::Json(NewClosure {
            closure,
            denied_reservations: reply.denied_reservation_ids,
        }),
    ))
}

/// The closures of one of the signed-in gym's locations that have not ended, soonest first.
#[utoipa::path(get, path = "/gym/locations/{location_id}/closures", tag = "gym",
    params(("location_id" = String, Path, format = Uuid, description = "One of the gym's locations")),
    responses((status = 200, description = "The location's closures", body = [Closure])))]
pub(crate) async fn list_closures(
    State(state): State<AppState>,
    session: Session,
    PathId(location_id): PathId,
) -> Result<axum::Json<Vec<Closure>>, ApiError> {
    let message = pb::ListClosuresRequest { location_id };
    let reply = call::read!(state, gym.list_closures, Some(&session), message).await?;
    Ok(axum::Json(reply.closures.into_iter().map(Into::into).collect()))
}

/// Reopen: remove one of the signed-in gym's closures (denied requests stay denied).
#[utoipa::path(delete, path = "/gym/closures/{closure_id}", tag = "gym",
    params(("closure_id" = String, Path, format = Uuid, description = "The closure")),
    responses((status = 204, description = "Closure removed")))]
pub(crate) async fn delete_closure(
    State(state): State<AppState>,
    session: Session,
    PathId(closure_id): PathId,
) -> Result<StatusCode, ApiError> {
    call::write!(
        state,
        gym.delete_closure,
        Some(&session),
        pb::DeleteClosureRequest { closure_id }
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
