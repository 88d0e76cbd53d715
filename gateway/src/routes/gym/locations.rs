//! Gym locations: a gym lists and adds its own; other signed-in users see every gym's.

use axum::{extract::State, http::StatusCode};
use proto::gym::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, Session},
    state::AppState,
};

/// A gym's location.
#[derive(Debug, Serialize, ToSchema)]
pub struct GymLocation {
    #[schema(format = Uuid)]
    pub location_id: String,
    #[schema(format = Uuid)]
    pub gym_id: String,
    /// Empty until the gym has a profile.
    pub gym_name: String,
    pub name: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    /// The place's IANA time zone (e.g. `America/Chicago`): its court times' dates and times are this
    /// zone's wall clock.
    #[schema(example = "America/Chicago")]
    pub time_zone: String,
}

impl From<pb::GymLocation> for GymLocation {
    fn from(l: pb::GymLocation) -> Self {
        Self {
            location_id: l.location_id,
            gym_id: l.gym_id,
            gym_name: l.gym_name,
            name: l.name,
            address: l.address,
            city: l.city,
            state: l.state,
            latitude: l.latitude,
            longitude: l.longitude,
            time_zone: l.time_zone,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Main Street", "address": "1 Main St", "city": "Austin", "state": "TX",
                          "latitude": 30.27, "longitude": -97.74}))]
pub struct GymLocationBody {
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub name: String,
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    pub address: String,
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub city: String,
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub state: String,
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

/// A gym sees its own locations; any other signed-in user sees every gym's.
#[utoipa::path(get, path = "/gym/locations", tag = "gym",
    responses((status = 200, description = "Gym locations", body = [GymLocation])))]
pub(crate) async fn list_locations(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<GymLocation>>, ApiError> {
    let reply = call::read!(
        state,
        gym.list_gym_locations,
        Some(&session),
        pb::ListGymLocationsRequest {}
    )
    .await?;
    Ok(axum::Json(
        reply.locations.into_iter().map(GymLocation::from).collect(),
    ))
}

/// Add a location for the signed-in gym.
#[utoipa::path(post, path = "/gym/locations", tag = "gym", request_body = GymLocationBody,
    responses((status = 201, description = "Location added", body = GymLocation),
              (status = 422, description = "No time_zone given, and neither the coordinates nor the city and state tell one",
               body = crate::error::ErrorBody)))]
pub(crate) async fn create_location(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<GymLocationBody>,
) -> Result<(StatusCode, axum::Json<GymLocation>), ApiError> {
    let message = pb::CreateGymLocationRequest {
        name: body.name,
        address: body.address,
        city: body.city,
        state: body.state,
        latitude: body.latitude,
        longitude: body.longitude,
        time_zone: body.time_zone.filter(|zone| !zone.trim().is_empty()),
    };
    let reply = call::write!(state, gym.create_gym_location, Some(&session), message).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.location)?.into()),
    ))
}
