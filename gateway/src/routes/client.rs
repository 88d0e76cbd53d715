//! `/client`: the client's profile (identity-svc) and the profile picture upload (the gateway
//! writes the file; see `crate::uploads`).

use axum::{
    extract::{DefaultBodyLimit, Multipart, State, multipart::MultipartRejection},
    http::StatusCode,
};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::UtoipaMethodRouter, routes};

use crate::{
    call,
    error::{ApiError, ErrorBody},
    extract::{Json, PathId, Session},
    state::AppState,
    uploads,
    vocabulary::{SkillLevel, blank_or_skill_level},
};

/// The picture upload with its own body limit: pictures may be larger than the JSON limit.
pub fn upload_route() -> UtoipaMethodRouter<AppState> {
    let (schemas, paths, upload) = routes!(upload_profile_picture);
    (
        schemas,
        paths,
        upload.layer(DefaultBodyLimit::max(uploads::BODY_LIMIT)),
    )
}

/// A client's profile. Every field but `user_id` may be null.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientProfile {
    #[schema(format = Uuid)]
    pub user_id: String,
    pub age: Option<i32>,
    pub grade: Option<String>,
    pub sport: Option<String>,
    #[schema(value_type = Option<SkillLevel>)]
    pub skill_level: Option<String>,
    /// A relative path under `/uploads/`.
    pub profile_picture_url: Option<String>,
}

impl From<pb::ClientProfile> for ClientProfile {
    fn from(p: pb::ClientProfile) -> Self {
        Self {
            user_id: p.user_id,
            age: p.age,
            grade: p.grade,
            sport: p.sport,
            skill_level: p.skill_level,
            profile_picture_url: p.profile_picture_url,
        }
    }
}

fn profile(profile: Option<pb::ClientProfile>) -> Result<ClientProfile, ApiError> {
    profile
        .map(ClientProfile::from)
        .ok_or_else(|| ApiError::internal("identity reply without a profile"))
}

/// The fields a client writes; all optional, and an empty string counts as null.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"age": 15, "grade": "10th", "sport": "basketball", "skill_level": "intermediate",
                          "profile_picture_url": null}))]
pub struct ClientProfileBody {
    #[serde(default)]
    #[schema(minimum = 1, maximum = 120)]
    pub age: Option<i32>,
    #[serde(default)]
    #[schema(max_length = 50)]
    pub grade: Option<String>,
    #[serde(default)]
    #[schema(max_length = 50)]
    pub sport: Option<String>,
    #[serde(default)]
    #[schema(schema_with = blank_or_skill_level)]
    pub skill_level: Option<String>,
    /// As answered by `POST /client/upload-profile-picture`.
    #[serde(default)]
    #[schema(pattern = "^[^\\S\\x1c-\\x1f]*$|^/uploads/[A-Za-z0-9_-]{1,128}\\.(png|jpg|jpeg|webp|gif)$")]
    pub profile_picture_url: Option<String>,
}

/// An empty (or blank) text field is no value.
fn present(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

impl From<ClientProfileBody> for pb::ClientProfileFields {
    fn from(b: ClientProfileBody) -> Self {
        Self {
            age: b.age,
            grade: present(b.grade),
            sport: present(b.sport),
            skill_level: present(b.skill_level),
            profile_picture_url: present(b.profile_picture_url),
        }
    }
}

/// A client's profile; 404 when they have none yet.
#[utoipa::path(get, path = "/client/profile/{user_id}", tag = "client",
    params(("user_id" = String, Path, format = Uuid, description = "The client's user id")),
    responses((status = 200, description = "The profile", body = ClientProfile),
              (status = 404, description = "No profile yet", body = ErrorBody)))]
pub(crate) async fn get_client_profile(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<axum::Json<ClientProfile>, ApiError> {
    let message = pb::GetClientProfileRequest { user_id };
    let reply = call::read!(state, identity.get_client_profile, Some(&session), message).await?;
    Ok(axum::Json(profile(reply.profile)?))
}

/// Create the caller's own profile.
#[utoipa::path(post, path = "/client/profile", tag = "client", request_body = ClientProfileBody,
    responses((status = 201, description = "Profile created", body = ClientProfile),
              (status = 409, description = "The caller already has a profile", body = ErrorBody)))]
pub(crate) async fn create_client_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<ClientProfileBody>,
) -> Result<(StatusCode, axum::Json<ClientProfile>), ApiError> {
    let message = pb::CreateClientProfileRequest {
        fields: Some(body.into()),
    };
    let reply = call::write!(state, identity.create_client_profile, Some(&session), message).await?;
    Ok((StatusCode::CREATED, axum::Json(profile(reply.profile)?)))
}

/// Update the caller's own profile (never anyone else's).
#[utoipa::path(put, path = "/client/profile", tag = "client", request_body = ClientProfileBody,
    responses((status = 200, description = "Profile updated", body = ClientProfile),
              (status = 404, description = "The caller has no profile yet", body = ErrorBody)))]
pub(crate) async fn update_client_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<ClientProfileBody>,
) -> Result<axum::Json<ClientProfile>, ApiError> {
    let message = pb::UpdateClientProfileRequest {
        fields: Some(body.into()),
    };
    let reply = call::write!(state, identity.update_client_profile, Some(&session), message).await?;
    Ok(axum::Json(profile(reply.profile)?))
}

/// The upload form: one field, `file`, and no other.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // documents the multipart body; the handler reads the fields itself
pub struct ProfilePictureForm {
    /// A PNG, JPEG, GIF or WebP image of at most 5 MB (5242880 bytes).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// Where a stored picture is served.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfilePictureUrl {
    /// A relative path under `/uploads/`.
    pub profile_picture_url: String,
}

/// Upload a profile picture; answers the URL to save in the profile.
///
/// The type is decided by the file's bytes, never by its declared type or name, and the file is
/// stored under a random name.
#[utoipa::path(post, path = "/client/upload-profile-picture", tag = "client",
    request_body(content = ProfilePictureForm, content_type = "multipart/form-data"),
    responses((status = 201, description = "Picture stored", body = ProfilePictureUrl),
              (status = 400, description = "No field named file, a field other than file, or a malformed form", body = ErrorBody),
              (status = 413, description = "Image size must be less than 5MB", body = ErrorBody),
              (status = 415, description = "Please select an image file", body = ErrorBody)))]
pub(crate) async fn upload_profile_picture(
    State(state): State<AppState>,
    _session: Session,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<(StatusCode, axum::Json<ProfilePictureUrl>), ApiError> {
    let multipart = multipart.map_err(|_| {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the picture as multipart/form-data with a field named file.",
        )
    })?;
    let name = uploads::store_profile_picture(&state.config.upload_dir, multipart).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(ProfilePictureUrl {
            profile_picture_url: format!("/uploads/{name}"),
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_text_fields_are_sent_as_null() {
        let body = ClientProfileBody {
            age: Some(15),
            grade: Some(String::new()),
            sport: Some("  ".into()),
            skill_level: Some("beginner".into()),
            profile_picture_url: None,
        };
        let fields = pb::ClientProfileFields::from(body);
        assert_eq!(fields.age, Some(15));
        assert_eq!(fields.grade, None);
        assert_eq!(fields.sport, None);
        assert_eq!(fields.skill_level.as_deref(), Some("beginner"));
    }
}
