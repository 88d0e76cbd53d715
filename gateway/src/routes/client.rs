//! `/client`: the client's profile (identity-svc) and the profile picture upload (the gateway
//! writes the file; see `crate::uploads`).
//!
//! A client's profile (a minor's age and grade among it) is read by the client, by the coaches
//! they have booked (any status: booking-svc's `HasBookingWithClient`) and by admins; to anyone
//! else it is as absent as a profile that does not exist (404).

use axum::{
    extract::{DefaultBodyLimit, Multipart, State, multipart::MultipartRejection},
    http::StatusCode,
};
use platform::auth::Role;
use proto::{booking::v1 as bpb, identity::v1 as pb};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::UtoipaMethodRouter, routes};
use uuid::Uuid;

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

/// The answer to anyone who may not read a client's profile: the same as no profile.
fn no_profile() -> ApiError {
    ApiError::not_found("This client has no profile you can see.")
}

/// Whether the caller may read `client_id`'s profile: their own, a coach they booked, an admin.
async fn may_read_profile(state: &AppState, session: &Session, client_id: &str) -> Result<bool, ApiError> {
    let caller = &session.caller;
    if caller.role == Role::Admin || client_id.parse::<Uuid>().ok() == Some(caller.user_id) {
        return Ok(true);
    }
    if caller.role != Role::Coach {
        return Ok(false);
    }
    let message = bpb::HasBookingWithClientRequest {
        client_id: client_id.to_owned(),
    };
    let reply = call::read!(state, booking.has_booking_with_client, Some(session), message).await?;
    Ok(reply.booked)
}

/// A client's profile, for the client, a coach they have booked (in any status) or an admin; 404
/// when they have none yet, and to anyone else.
#[utoipa::path(get, path = "/client/profile/{user_id}", tag = "client",
    params(("user_id" = String, Path, format = Uuid, description = "The client's user id")),
    responses((status = 200, description = "The profile", body = ClientProfile),
              (status = 404, description = "No profile yet, or not one the caller may see", body = ErrorBody)))]
pub(crate) async fn get_client_profile(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<axum::Json<ClientProfile>, ApiError> {
    if !may_read_profile(&state, &session, &user_id).await? {
        return Err(no_profile());
    }
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
    let profile = profile(reply.profile)?;
    keep_only_saved_picture(&state, &session, &profile).await;
    Ok((StatusCode::CREATED, axum::Json(profile)))
}

/// Removes the caller's stored pictures but the one their saved profile shows: the replaced one,
/// and uploads never saved.
async fn keep_only_saved_picture(state: &AppState, session: &Session, saved: &ClientProfile) {
    let keep: Vec<&str> = saved
        .profile_picture_url
        .as_deref()
        .and_then(uploads::name_of)
        .into_iter()
        .collect();
    uploads::remove_pictures_of(&state.config.upload_dir, session.caller.user_id, &keep).await;
}

/// The picture the caller's saved profile shows, if any; `Err` when it cannot be told now.
async fn saved_picture(state: &AppState, session: &Session) -> Result<Option<String>, ApiError> {
    let message = pb::GetClientProfileRequest {
        user_id: session.caller.user_id.to_string(),
    };
    match call::read!(state, identity.get_client_profile, Some(session), message).await {
        Ok(reply) => Ok(reply.profile.and_then(|p| p.profile_picture_url)),
        Err(error) if error.status == StatusCode::NOT_FOUND => Ok(None),
        Err(error) => Err(error),
    }
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
    let profile = profile(reply.profile)?;
    keep_only_saved_picture(&state, &session, &profile).await;
    Ok(axum::Json(profile))
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
/// stored under a random name. A person uploads at most `UPLOADS_PER_USER_PER_DAY` pictures a day
/// (20 unless configured), and keeps one: earlier uploads not saved in the profile are removed,
/// and the saved one once the profile is saved with another.
#[utoipa::path(post, path = "/client/upload-profile-picture", tag = "client",
    request_body(content = ProfilePictureForm, content_type = "multipart/form-data"),
    responses((status = 201, description = "Picture stored", body = ProfilePictureUrl),
              (status = 400, description = "No field named file, a field other than file, or a malformed form", body = ErrorBody),
              (status = 413, description = "Image size must be less than 5MB", body = ErrorBody),
              (status = 415, description = "Please select an image file", body = ErrorBody),
              (status = 429, description = "Every upload of the day is used", body = ErrorBody,
                  headers(("Retry-After" = u64, description = "Seconds until the next day (UTC)")))))]
pub(crate) async fn upload_profile_picture(
    State(state): State<AppState>,
    session: Session,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<(StatusCode, axum::Json<ProfilePictureUrl>), ApiError> {
    let multipart = multipart.map_err(|_| {
        ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the picture as multipart/form-data with a field named file.",
        )
    })?;
    let owner = session.caller.user_id;
    let admit = state.limits.count_upload(owner);
    let name = uploads::store_profile_picture(&state.config.upload_dir, owner, multipart, admit).await?;
    match saved_picture(&state, &session).await {
        Ok(saved) => {
            let saved = saved.as_deref().and_then(uploads::name_of);
            let keep: Vec<&str> = [Some(name.as_str()), saved].into_iter().flatten().collect();
            uploads::remove_pictures_of(&state.config.upload_dir, owner, &keep).await;
        }
        // Removed with the next upload or save instead.
        Err(error) => {
            tracing::warn!(detail = %error.detail, "earlier uploads kept: the saved profile is unknown")
        }
    }
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
