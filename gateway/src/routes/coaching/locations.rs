//! The places where a coach offers sessions: the coach's own list and additions, and any coach's
//! list for signed-in users.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::coaching::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    routes::cache,
    state::AppState,
};

/// A place where a coach offers sessions.
#[derive(Debug, Serialize, ToSchema)]
pub struct Location {
    #[schema(format = Uuid)]
    pub location_id: String,
    pub name: String,
    pub address: String,
    pub court_number: String,
    pub city: String,
    pub state: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    /// The place's IANA time zone (e.g. `America/Chicago`): its slots' dates and times are this
    /// zone's wall clock.
    #[schema(example = "America/Chicago")]
    pub time_zone: String,
}

impl From<pb::Location> for Location {
    fn from(l: pb::Location) -> Self {
        Self {
            location_id: l.location_id,
            name: l.name,
            address: l.address,
            court_number: l.court_number,
            city: l.city,
            state: l.state,
            latitude: l.latitude,
            longitude: l.longitude,
            time_zone: l.time_zone,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Eastside Rec", "address": "12 Main St", "court_number": "3",
                          "city": "Austin", "state": "TX", "latitude": 30.27, "longitude": -97.74}))]
pub struct LocationBody {
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub name: String,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub address: String,
    #[serde(default)]
    #[schema(max_length = 50)]
    pub court_number: String,
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub city: String,
    #[schema(min_length = 1, max_length = 50, pattern = "\\S")]
    pub state: String,
    /// Give both coordinates or neither; without them the place is looked up from city and state.
    #[serde(default)]
    #[schema(minimum = -90, maximum = 90)]
    pub latitude: Option<f64>,
    #[serde(default)]
    #[schema(minimum = -180, maximum = 180)]
    pub longitude: Option<f64>,
    /// An IANA time zone name (e.g. `America/Chicago`). Leave it out to have it derived: from
    /// the coordinates (the nearest place of the bundled gazetteer), else from city and state; a
    /// place neither tells is refused asking for it.
    #[serde(default)]
    #[schema(schema_with = crate::vocabulary::blank_or_time_zone, example = "America/Chicago")]
    pub time_zone: Option<String>,
}

/// The signed-in coach's locations.
#[utoipa::path(get, path = "/locations", tag = "coaching",
    responses((status = 200, description = "Own locations", body = [Location])))]
pub(crate) async fn my_locations(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<Location>>, ApiError> {
    let reply = call::read!(
        state,
        coaching.list_my_locations,
        Some(&session),
        pb::ListMyLocationsRequest {}
    )
    .await?;
    Ok(axum::Json(
        reply.locations.into_iter().map(Location::from).collect(),
    ))
}

/// Add a location for the signed-in coach.
#[utoipa::path(post, path = "/locations", tag = "coaching", request_body = LocationBody,
    responses((status = 201, description = "Location added", body = Location),
              (status = 422, description = "No time_zone given, and neither the coordinates nor the city and state tell one",
               body = crate::error::ErrorBody)))]
pub(crate) async fn create_location(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<LocationBody>,
) -> Result<(StatusCode, axum::Json<Location>), ApiError> {
    let message = pb::CreateLocationRequest {
        name: body.name,
        address: body.address,
        court_number: body.court_number,
        city: body.city,
        state: body.state,
        latitude: body.latitude,
        longitude: body.longitude,
        time_zone: super::blank_is_none(body.time_zone),
    };
    let reply = call::write!(state, coaching.create_location, Some(&session), message).await?;
    let location = present("coaching", reply.location)?;
    Ok((StatusCode::CREATED, axum::Json(location.into())))
}

/// A coach's locations.
#[utoipa::path(get, path = "/locations/coach/{coach_id}", tag = "coaching",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id")),
    responses((status = 200, description = "The coach's locations", body = [Location])))]
pub(crate) async fn coach_locations(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = crate::memo::stamps().of(cache::COACH_LOCATIONS.shows);
    state
        .memo
        .json(cache::COACH_LOCATIONS.name, &coach_id, stamp, async {
            let message = pb::ListCoachLocationsRequest {
                coach_id: coach_id.clone(),
            };
            let reply = call::read!(state, coaching.list_coach_locations, Some(&session), message).await?;
            Ok(reply
                .locations
                .into_iter()
                .map(Location::from)
                .collect::<Vec<_>>())
        })
        .await
}
