//! A gym's profile: read by any signed-in user, written by the gym.

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

/// A gym's profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct GymProfile {
    /// The gym's user id.
    #[schema(format = Uuid)]
    pub gym_id: String,
    pub gym_name: String,
    pub description: String,
    pub phone: String,
}

impl From<pb::GymProfile> for GymProfile {
    fn from(p: pb::GymProfile) -> Self {
        Self {
            gym_id: p.gym_id,
            gym_name: p.gym_name,
            description: p.description,
            phone: p.phone,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"gym_name": "Downtown Hoops", "description": "Four indoor courts.",
                          "phone": "555-0100"}))]
pub struct GymProfileBody {
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub gym_name: String,
    #[serde(default)]
    #[schema(
        max_length = 2000,
        pattern = "^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$"
    )]
    pub description: String,
    /// Digits, spaces and `+-().`; blank for none.
    #[serde(default)]
    #[schema(
        max_length = 30,
        pattern = "^[^\\S\\x1c-\\x1f]*$|^[0-9 +().-]*[0-9][0-9 +().-]*$"
    )]
    pub phone: String,
}

impl From<GymProfileBody> for pb::GymProfileFields {
    fn from(b: GymProfileBody) -> Self {
        Self {
            gym_name: b.gym_name,
            description: b.description,
            phone: b.phone,
        }
    }
}

/// A gym's profile; 404 when it has none.
#[utoipa::path(get, path = "/gym/profile/{user_id}", tag = "gym",
    params(("user_id" = String, Path, format = Uuid, description = "The gym's user id")),
    responses((status = 200, description = "The profile", body = GymProfile),
              (status = 404, description = "This gym has no profile", body = crate::error::ErrorBody)))]
pub(crate) async fn get_profile(
    State(state): State<AppState>,
    session: Session,
    PathId(gym_id): PathId,
) -> Result<axum::Json<GymProfile>, ApiError> {
    let message = pb::GetGymProfileRequest { gym_id };
    let reply = call::read!(state, gym.get_gym_profile, Some(&session), message).await?;
    Ok(axum::Json(present("gym", reply.profile)?.into()))
}

/// Create the signed-in gym's profile.
#[utoipa::path(post, path = "/gym/profile", tag = "gym", request_body = GymProfileBody,
    responses((status = 201, description = "Profile created", body = GymProfile),
              (status = 409, description = "A profile exists already: update it", body = crate::error::ErrorBody)))]
pub(crate) async fn create_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<GymProfileBody>,
) -> Result<(StatusCode, axum::Json<GymProfile>), ApiError> {
    let message = pb::CreateGymProfileRequest {
        fields: Some(body.into()),
    };
    let reply = call::write!(state, gym.create_gym_profile, Some(&session), message).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.profile)?.into()),
    ))
}

/// Update the signed-in gym's profile.
#[utoipa::path(put, path = "/gym/profile", tag = "gym", request_body = GymProfileBody,
    responses((status = 200, description = "Profile updated", body = GymProfile),
              (status = 404, description = "No profile yet: create it", body = crate::error::ErrorBody)))]
pub(crate) async fn update_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<GymProfileBody>,
) -> Result<axum::Json<GymProfile>, ApiError> {
    let message = pb::UpdateGymProfileRequest {
        fields: Some(body.into()),
    };
    let reply = call::write!(state, gym.update_gym_profile, Some(&session), message).await?;
    Ok(axum::Json(present("gym", reply.profile)?.into()))
}
