//! The admin's changes to accounts: create a user of any role, change only the fields present,
//! delete. identity-svc enforces the rules (an admin cannot be deleted, nor delete themselves;
//! email unique; password of 6+ characters).

use axum::{extract::State, http::StatusCode};
use proto::identity::v1 as pb;
use serde::{Deserialize, Deserializer};
use utoipa::ToSchema;

use crate::{
    call,
    error::{ApiError, ErrorBody},
    extract::{Json, PathId, Session},
    routes::auth::{User, user},
    state::AppState,
    vocabulary::Role,
};

/// A new user: email, password and full name are required; an empty one is refused with
/// "Email, password, and full name are required".
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"email": "gym@example.com", "password": "Courtside-fixture-2026", "full_name": "Downtown Hoops",
                          "phone": null, "role": "gym"}))]
pub struct CreateUserBody {
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 1,
        max_length = 254,
        pattern = "^[^@\\s\\x00-\\x1f\\x7f-\\x9f]+@[^@\\s.\\x00-\\x1f\\x7f-\\x9f][^@\\s\\x00-\\x1f\\x7f-\\x9f]*\\.[^@\\s\\x00-\\x1f\\x7f-\\x9f]*[^@\\s.\\x00-\\x1f\\x7f-\\x9f]$"
    )]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 10, max_length = 128, pattern = "^[^\\x00]*$")]
    pub password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100, pattern = "\\S")]
    pub full_name: String,
    /// Digits, spaces and `+-().`; blank or null for none.
    #[serde(default)]
    #[schema(
        max_length = 30,
        pattern = "^[^\\S\\x1c-\\x1f]*$|^[0-9 +().-]*[0-9][0-9 +().-]*$"
    )]
    pub phone: Option<String>,
    /// Client when absent or null.
    #[serde(default)]
    #[schema(value_type = Option<Role>)]
    pub role: Option<String>,
}

/// Only the fields present change.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"full_name": "Jordan Lee", "phone": "+1 512 555 0142", "role": "coach"}))]
pub struct UpdateUserBody {
    #[serde(default)]
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub full_name: Option<String>,
    #[serde(default)]
    #[schema(
        min_length = 1,
        max_length = 254,
        pattern = "^[^@\\s\\x00-\\x1f\\x7f-\\x9f]+@[^@\\s.\\x00-\\x1f\\x7f-\\x9f][^@\\s\\x00-\\x1f\\x7f-\\x9f]*\\.[^@\\s\\x00-\\x1f\\x7f-\\x9f]*[^@\\s.\\x00-\\x1f\\x7f-\\x9f]$"
    )]
    pub email: Option<String>,
    /// Absent: unchanged; null or blank: cleared.
    #[serde(default, deserialize_with = "present_or_null")]
    #[schema(value_type = Option<String>, max_length = 30, pattern = "^[^\\S\\x1c-\\x1f]*$|^[0-9 +().-]*[0-9][0-9 +().-]*$")]
    pub phone: Option<Option<String>>,
    #[serde(default)]
    #[schema(value_type = Option<Role>)]
    pub role: Option<String>,
    /// A new password ends the user's sessions.
    #[serde(default)]
    #[schema(min_length = 10, max_length = 128, pattern = "^[^\\x00]*$")]
    pub password: Option<String>,
}

/// Tells a present `null` (`Some(None)`) from an absent field (`None`, by `#[serde(default)]`).
fn present_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

impl UpdateUserBody {
    fn into_request(self, user_id: String) -> pb::UpdateUserRequest {
        let (phone, clear_phone) = match self.phone {
            None => (None, false),
            Some(Some(phone)) if !phone.trim().is_empty() => (Some(phone), false),
            Some(_) => (None, true),
        };
        pb::UpdateUserRequest {
            user_id,
            full_name: self.full_name,
            email: self.email,
            phone,
            clear_phone,
            role: self.role,
            password: self.password,
        }
    }
}

/// Create a user of any role, admin included.
#[utoipa::path(post, path = "/admin/users", tag = "admin", request_body = CreateUserBody,
    responses((status = 201, description = "User created", body = User),
              (status = 409, description = "The email is taken", body = ErrorBody)))]
pub(crate) async fn create_user(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CreateUserBody>,
) -> Result<(StatusCode, axum::Json<User>), ApiError> {
    let message = pb::CreateUserRequest {
        email: body.email,
        password: body.password,
        full_name: body.full_name,
        phone: body.phone.filter(|p| !p.trim().is_empty()),
        role: body.role.unwrap_or_default(),
    };
    let reply = call::write!(state, identity.create_user, Some(&session), message).await?;
    Ok((StatusCode::CREATED, axum::Json(user(reply.user)?)))
}

/// Change only the fields present. A role or password change ends the user's sessions.
#[utoipa::path(put, path = "/admin/users/{user_id}", tag = "admin", request_body = UpdateUserBody,
    params(("user_id" = String, Path, format = Uuid, description = "The user's id")),
    responses((status = 200, description = "The updated user", body = User),
              (status = 404, description = "No such user", body = ErrorBody),
              (status = 409, description = "The email is taken", body = ErrorBody)))]
pub(crate) async fn update_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
    Json(body): Json<UpdateUserBody>,
) -> Result<axum::Json<User>, ApiError> {
    let message = body.into_request(user_id);
    let reply = call::write!(state, identity.update_user, Some(&session), message).await?;
    Ok(axum::Json(user(reply.user)?))
}

/// Delete a user who is not an admin and not the caller; their sessions end at once.
#[utoipa::path(delete, path = "/admin/users/{user_id}", tag = "admin",
    params(("user_id" = String, Path, format = Uuid, description = "The user's id")),
    responses((status = 204, description = "User deleted"),
              (status = 403, description = "An admin cannot be deleted, nor delete themselves", body = ErrorBody),
              (status = 404, description = "No such user", body = ErrorBody)))]
pub(crate) async fn delete_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::DeleteUserRequest {
        user_id: user_id.clone(),
    };
    call::write!(state, identity.delete_user, Some(&session), message).await?;
    // Their profile pictures go with them.
    if let Ok(owner) = user_id.parse() {
        crate::uploads::remove_pictures_of(&state.config.upload_dir, owner, &[]).await;
    }
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(json: &str) -> pb::UpdateUserRequest {
        serde_json::from_str::<UpdateUserBody>(json)
            .unwrap()
            .into_request("u".into())
    }

    #[test]
    fn an_absent_phone_is_left_alone() {
        let r = update(r#"{"full_name": "Ann"}"#);
        assert_eq!((r.phone, r.clear_phone), (None, false));
        assert_eq!(r.full_name.as_deref(), Some("Ann"));
        assert_eq!((r.email, r.role, r.password), (None, None, None));
    }

    #[test]
    fn a_null_or_empty_phone_clears_it() {
        for json in [r#"{"phone": null}"#, r#"{"phone": ""}"#, r#"{"phone": "  "}"#] {
            let r = update(json);
            assert_eq!((r.phone, r.clear_phone), (None, true), "{json}");
        }
    }

    #[test]
    fn a_new_phone_is_set() {
        let r = update(r#"{"phone": "555-0101"}"#);
        assert_eq!((r.phone.as_deref(), r.clear_phone), (Some("555-0101"), false));
    }
}
