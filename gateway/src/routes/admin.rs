//! `/admin`: platform statistics and user management, for admins only.
//!
//! identity-svc owns the users and enforces the rules (an admin cannot be deleted, nor delete
//! themselves; email unique; password of 6+ characters). The gateway composes the views that span
//! contexts: the stats (identity + booking) and one user's totals (identity + booking + coaching
//! or gym), with independent calls made concurrently.

use std::{collections::BTreeMap, future::ready, sync::Arc};

use axum::{
    body::Body,
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use futures::{Stream, StreamExt, stream};
use proto::{booking::v1 as booking, coaching::v1 as coaching, gym::v1 as gym, identity::v1 as pb};
use serde::{Deserialize, Deserializer, Serialize};
use tokio::sync::OwnedSemaphorePermit;
use utoipa::ToSchema;
use utoipa_axum::routes;

use super::{
    ADMIN, Route,
    auth::{User, user},
    client::ClientProfile,
    route,
};
use crate::{
    error::{ApiError, ErrorBody, upstream},
    extract::{Json, PathId, Session},
    state::{AppState, write},
};

pub fn routes() -> Vec<Route> {
    vec![
        route(ADMIN, routes!(admin_stats)),
        route(ADMIN, routes!(list_users)),
        route(ADMIN, routes!(get_user)),
        route(ADMIN, routes!(create_user)),
        route(ADMIN, routes!(update_user)),
        route(ADMIN, routes!(delete_user)),
    ]
}

/// The platform's counts and its weekly activity.
#[derive(Debug, Serialize, ToSchema)]
pub struct Stats {
    pub total_users: i64,
    pub total_coaches: i64,
    pub total_gyms: i64,
    pub total_bookings: i64,
    /// The last 12 weeks, oldest first.
    pub activity: Vec<WeekActivity>,
}

/// Sign-ups and bookings made in one week.
#[derive(Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct WeekActivity {
    /// The Monday that starts the week, YYYY-MM-DD.
    #[schema(format = Date)]
    pub week_start: String,
    pub signups: i64,
    pub bookings: i64,
}

/// One user as the admin sees them: the user, their totals and, for a client, the profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserDetail {
    #[schema(format = Uuid)]
    pub user_id: String,
    pub email: String,
    pub full_name: String,
    pub phone: Option<String>,
    /// admin, coach, client or gym.
    pub role: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// Bookings where the user is the client or the coach.
    pub total_bookings: i64,
    /// A coach's locations or a gym's locations; 0 for other roles.
    pub total_locations: i64,
    /// A client's profile; null for other roles and for a client without one.
    pub profile: Option<ClientProfile>,
}

/// A new user. A missing email, password or full name is refused by identity-svc with SPEC.md's
/// one sentence, so they default to empty here.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateUserBody {
    #[serde(default)]
    #[schema(required = true, max_length = 254)]
    pub email: String,
    /// At least 6 characters.
    #[serde(default)]
    #[schema(required = true, min_length = 6, max_length = 128)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true, max_length = 100)]
    pub full_name: String,
    #[serde(default)]
    pub phone: Option<String>,
    /// client (default), coach, gym or admin.
    #[serde(default)]
    pub role: Option<String>,
}

/// Only the fields present change.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct UpdateUserBody {
    #[serde(default)]
    #[schema(max_length = 100)]
    pub full_name: Option<String>,
    #[serde(default)]
    #[schema(max_length = 254)]
    pub email: Option<String>,
    /// Absent: unchanged; null or empty: cleared.
    #[serde(default, deserialize_with = "present_or_null")]
    #[schema(value_type = Option<String>)]
    pub phone: Option<Option<String>>,
    /// admin, coach, client or gym.
    #[serde(default)]
    pub role: Option<String>,
    /// At least 6 characters.
    #[serde(default)]
    #[schema(min_length = 6, max_length = 128)]
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

/// Joins the weekly sign-ups and bookings on their week.
fn activity(signups: Vec<pb::WeeklyCount>, bookings: Vec<booking::WeeklyCount>) -> Vec<WeekActivity> {
    let mut weeks: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for week in signups {
        weeks.entry(week.week_start).or_default().0 += week.count;
    }
    for week in bookings {
        weeks.entry(week.week_start).or_default().1 += week.count;
    }
    weeks
        .into_iter()
        .map(|(week_start, (signups, bookings))| WeekActivity {
            week_start,
            signups,
            bookings,
        })
        .collect()
}

/// Platform statistics: users by role (identity) and bookings (booking), asked concurrently.
#[utoipa::path(get, path = "/admin/stats", tag = "admin",
    responses((status = 200, description = "The counts and the weekly activity", body = Stats)))]
async fn admin_stats(State(state): State<AppState>, session: Session) -> Result<axum::Json<Stats>, ApiError> {
    let (users, bookings) = tokio::join!(
        crate::read!(
            state,
            identity.count_users,
            Some(&session),
            pb::CountUsersRequest {}
        ),
        crate::read!(
            state,
            booking.count_bookings,
            Some(&session),
            booking::CountBookingsRequest { user_id: None }
        ),
    );
    let (users, bookings) = (users?, bookings?);
    Ok(axum::Json(Stats {
        total_users: users.total_users,
        total_coaches: users.total_coaches,
        total_gyms: users.total_gyms,
        total_bookings: bookings.total,
        activity: activity(users.signups_per_week, bookings.per_week),
    }))
}

/// Every user, newest first.
#[utoipa::path(get, path = "/admin/users", tag = "admin",
    responses((status = 200, description = "Every user", body = [User])))]
async fn list_users(State(state): State<AppState>, session: Session) -> Result<Response, ApiError> {
    // Every user is megabytes of JSON: the permit bounds how many lists this gateway, and
    // through it identity-svc, writes at once. It goes with the body, so it is held until the
    // last page is out.
    let permit = Arc::clone(&state.bulk_reads)
        .acquire_owned()
        .await
        .map_err(ApiError::internal)?;
    let mut pages = crate::read!(
        state,
        identity.list_users,
        Some(&session),
        pb::ListUsersRequest {}
    )
    .await?;
    // The first page (or what went wrong instead) before the status line: a list that cannot
    // start is an ordinary error answer, never a 200 that breaks off.
    let first = pages
        .message()
        .await
        .map_err(upstream("identity"))?
        .unwrap_or_default();
    let body = Body::from_stream(users_json(first, pages, permit));
    Ok((
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        body,
    )
        .into_response())
}

/// The JSON array of every user, written a page at a time as identity-svc sends the pages: the
/// list is never whole in memory. A page that fails after the first ends the body early, so the
/// caller sees a broken answer rather than a short list.
fn users_json(
    first: pb::ListUsersResponse,
    rest: tonic::Streaming<pb::ListUsersResponse>,
    permit: OwnedSemaphorePermit,
) -> impl Stream<Item = Result<Bytes, tonic::Status>> {
    let mut first_user = true;
    let users = stream::once(ready(Ok(first))).chain(rest).map(move |page| {
        let page = page.inspect_err(|status| tracing::warn!(%status, "the user list broke off"))?;
        let mut json = Vec::with_capacity(page.users.len() * 192);
        for user in page.users {
            if !std::mem::take(&mut first_user) {
                json.push(b',');
            }
            serde_json::to_writer(&mut json, &User::from(user))
                .map_err(|e| tonic::Status::internal(e.to_string()))?;
        }
        Ok(Bytes::from(json))
    });
    stream::once(ready(Ok(Bytes::from_static(b"["))))
        .chain(users)
        .chain(stream::once(async move {
            drop(permit);
            Ok(Bytes::from_static(b"]"))
        }))
}

/// One user with their totals and, for a client, the profile.
#[utoipa::path(get, path = "/admin/users/{user_id}", tag = "admin",
    params(("user_id" = String, Path, format = Uuid, description = "The user's id")),
    responses((status = 200, description = "The user", body = UserDetail),
              (status = 404, description = "No such user", body = ErrorBody)))]
async fn get_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<axum::Json<UserDetail>, ApiError> {
    // The bookings count does not depend on the role; the locations count does.
    let (reply, bookings) = tokio::join!(
        crate::read!(
            state,
            identity.get_user,
            Some(&session),
            pb::GetUserRequest {
                user_id: user_id.clone()
            }
        ),
        crate::read!(
            state,
            booking.count_bookings,
            Some(&session),
            booking::CountBookingsRequest {
                user_id: Some(user_id.clone())
            }
        ),
    );
    let reply = reply?;
    let bookings = bookings?;
    let found = user(reply.user)?;
    let total_locations = match found.role.as_str() {
        "coach" => {
            let message = coaching::CountCoachLocationsRequest {
                coach_id: found.user_id.clone(),
            };
            crate::read!(state, coaching.count_coach_locations, Some(&session), message)
                .await?
                .count
        }
        "gym" => {
            let message = gym::CountGymLocationsRequest {
                gym_id: found.user_id.clone(),
            };
            crate::read!(state, gym.count_gym_locations, Some(&session), message)
                .await?
                .count
        }
        _ => 0,
    };
    let profile = (found.role == "client")
        .then_some(reply.profile)
        .flatten()
        .map(ClientProfile::from);
    Ok(axum::Json(UserDetail {
        user_id: found.user_id,
        email: found.email,
        full_name: found.full_name,
        phone: found.phone,
        role: found.role,
        created_at: found.created_at,
        total_bookings: bookings.total,
        total_locations,
        profile,
    }))
}

/// Create a user of any role, admin included.
#[utoipa::path(post, path = "/admin/users", tag = "admin", request_body = CreateUserBody,
    responses((status = 201, description = "User created", body = User),
              (status = 409, description = "The email is taken", body = ErrorBody)))]
async fn create_user(
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
    let reply = write(
        "identity",
        state
            .identity
            .clone()
            .create_user(state.request(Some(&session), message)),
    )
    .await?;
    Ok((StatusCode::CREATED, axum::Json(user(reply.user)?)))
}

/// Change only the fields present. A role or password change ends the user's sessions.
#[utoipa::path(put, path = "/admin/users/{user_id}", tag = "admin", request_body = UpdateUserBody,
    params(("user_id" = String, Path, format = Uuid, description = "The user's id")),
    responses((status = 200, description = "The updated user", body = User),
              (status = 404, description = "No such user", body = ErrorBody),
              (status = 409, description = "The email is taken", body = ErrorBody)))]
async fn update_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
    Json(body): Json<UpdateUserBody>,
) -> Result<axum::Json<User>, ApiError> {
    let message = body.into_request(user_id);
    let reply = write(
        "identity",
        state
            .identity
            .clone()
            .update_user(state.request(Some(&session), message)),
    )
    .await?;
    Ok(axum::Json(user(reply.user)?))
}

/// Delete a user who is not an admin and not the caller; their sessions end at once.
#[utoipa::path(delete, path = "/admin/users/{user_id}", tag = "admin",
    params(("user_id" = String, Path, format = Uuid, description = "The user's id")),
    responses((status = 204, description = "User deleted"),
              (status = 403, description = "An admin cannot be deleted, nor delete themselves", body = ErrorBody),
              (status = 404, description = "No such user", body = ErrorBody)))]
async fn delete_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::DeleteUserRequest { user_id };
    write(
        "identity",
        state
            .identity
            .clone()
            .delete_user(state.request(Some(&session), message)),
    )
    .await?;
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

    #[test]
    fn activity_joins_signups_and_bookings_by_week_oldest_first() {
        let signups = vec![
            pb::WeeklyCount {
                week_start: "2025-01-06".into(),
                count: 2,
            },
            pb::WeeklyCount {
                week_start: "2025-01-13".into(),
                count: 0,
            },
        ];
        let bookings = vec![
            booking::WeeklyCount {
                week_start: "2025-01-13".into(),
                count: 5,
            },
            booking::WeeklyCount {
                week_start: "2024-12-30".into(),
                count: 1,
            },
        ];
        let weeks: Vec<_> = activity(signups, bookings)
            .into_iter()
            .map(|w| (w.week_start, w.signups, w.bookings))
            .collect();
        assert_eq!(
            weeks,
            [
                ("2024-12-30".to_owned(), 0, 1),
                ("2025-01-06".to_owned(), 2, 0),
                ("2025-01-13".to_owned(), 0, 5),
            ]
        );
    }
}
