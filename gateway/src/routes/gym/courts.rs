//! The courts at a gym location: listed for signed-in users, added by the gym.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::gym::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    routes::cache,
    state::AppState,
    vocabulary::CourtType,
};

/// A court at a gym location.
#[derive(Debug, Serialize, ToSchema)]
pub struct Court {
    #[schema(format = Uuid)]
    pub court_id: String,
    #[schema(format = Uuid)]
    pub location_id: String,
    pub court_name: String,
    #[schema(value_type = CourtType)]
    pub court_type: String,
}

impl From<pb::Court> for Court {
    fn from(c: pb::Court) -> Self {
        Self {
            court_id: c.court_id,
            location_id: c.location_id,
            court_name: c.court_name,
            court_type: c.court_type,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"court_name": "Court 1", "court_type": "basketball"}))]
pub struct CourtBody {
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub court_name: String,
    /// Basketball when absent or null.
    #[serde(default)]
    #[schema(value_type = Option<CourtType>)]
    pub court_type: Option<String>,
}

/// The courts at a gym location.
#[utoipa::path(get, path = "/gym/locations/{location_id}/courts", tag = "gym",
    params(("location_id" = String, Path, format = Uuid, description = "The gym location")),
    responses((status = 200, description = "The location's courts", body = [Court])))]
pub(crate) async fn list_courts(
    State(state): State<AppState>,
    session: Session,
    PathId(location_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = crate::memo::stamps().of(cache::LOCATION_COURTS.shows);
    state
        .memo
        .json(cache::LOCATION_COURTS.name, &location_id, stamp, async {
            let message = pb::ListCourtsRequest {
                location_id: location_id.clone(),
            };
            let reply = call::read!(state, gym.list_courts, Some(&session), message).await?;
            Ok(reply.courts.into_iter().map(Court::from).collect::<Vec<_>>())
        })
        .await
}

/// Add a court at one of the signed-in gym's locations.
#[utoipa::path(post, path = "/gym/locations/{location_id}/courts", tag = "gym", request_body = CourtBody,
    params(("location_id" = String, Path, format = Uuid, description = "One of the gym's locations")),
    responses((status = 201, description = "Court added", body = Court)))]
pub(crate) async fn create_court(
    State(state): State<AppState>,
    session: Session,
    PathId(location_id): PathId,
    Json(body): Json<CourtBody>,
) -> Result<(StatusCode, axum::Json<Court>), ApiError> {
    let message = pb::CreateCourtRequest {
        location_id,
        court_name: body.court_name,
        court_type: body.court_type.unwrap_or_default(),
    };
    let reply = call::write!(state, gym.create_court, Some(&session), message).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.court)?.into()),
    ))
}
