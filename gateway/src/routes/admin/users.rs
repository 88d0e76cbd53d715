//! The users as the admin reads them: every user (streamed a page at a time) and one user with
//! their totals across contexts (identity + booking + coaching or gym), asked concurrently.

use std::{future::ready, sync::Arc};

use axum::{
    body::Body,
    extract::State,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use futures::{Stream, StreamExt, stream};
use proto::{booking::v1 as booking, coaching::v1 as coaching, gym::v1 as gym, identity::v1 as pb};
use serde::{Deserialize, Serialize};
use tokio::sync::OwnedSemaphorePermit;
use utoipa::{IntoParams, ToSchema};

use crate::{
    call,
    error::{ApiError, ErrorBody, upstream},
    extract::{PathId, Query, Session},
    pages::Paging,
    routes::{
        auth::{User, user},
        client::ClientProfile,
    },
    state::AppState,
    vocabulary::Role,
};

/// One user as the admin sees them: the user, their totals and, for a client, the profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserDetail {
    #[schema(format = Uuid)]
    pub user_id: String,
    pub email: String,
    pub full_name: String,
    pub phone: Option<String>,
    #[schema(value_type = Role)]
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

/// The admin's filters of the user list; both may be left out.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// Users whose full name, email or id holds this text, in any case (at most 254 characters;
    /// blank for everyone).
    #[param(max_length = 254)]
    pub q: Option<String>,
    /// Only users of this role.
    #[param(value_type = Option<Role>)]
    pub role: Option<Role>,
}

/// Every user, newest first; `q` searches full name, email and id (any case), `role` filters.
/// Whole without `limit` (streamed as it is read); pages of `limit` with it. `X-Total-Count` says
/// how many users the filters match when there is no `q` (counters keep it).
#[utoipa::path(get, path = "/admin/users", tag = "admin", params(UsersQuery, Paging<100>),
    responses((status = 200, description = "The users the filters let through", body = [User],
               headers(("X-Total-Count" = i64, description = "How many users the filters match (no `q` only)")))))]
pub(crate) async fn list_users(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100>,
    Query(query): Query<UsersQuery>,
) -> Result<Response, ApiError> {
    let message = pb::ListUsersRequest {
        limit: paging.limit(),
        after: paging.after(),
        q: query.q.unwrap_or_default(),
        role: query.role.map(|r| r.as_str().to_owned()).unwrap_or_default(),
    };
    if paging.limit() > 0 {
        let mut reply = call::read!(state, identity.list_users, Some(&session), message).await?;
        let page = reply
            .message()
            .await
            .map_err(upstream("identity"))?
            .unwrap_or_default();
        let users: Vec<User> = page.users.into_iter().map(User::from).collect();
        return Ok(paging.respond(users, &page.next, page.total.map(|t| t.max(0).unsigned_abs())));
    }
    // Every user is megabytes of JSON: the permit bounds how many lists this gateway, and
    // through it identity-svc, writes at once. It goes with the body, so it is held until the
    // last page is out.
    let permit = Arc::clone(&state.bulk_reads)
        .acquire_owned()
        .await
        .map_err(ApiError::internal)?;
    let mut pages = call::read!(state, identity.list_users, Some(&session), message).await?;
    // The first page (or what went wrong instead) before the status line: a list that cannot
    // start is an ordinary error answer, never a 200 that breaks off.
    let first = pages
        .message()
        .await
        .map_err(upstream("identity"))?
        .unwrap_or_default();
    let total = first.total;
    let body = Body::from_stream(users_json(first, pages, permit));
    let mut response = (
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        body,
    )
        .into_response();
    if let Some(total) = total {
        response
            .headers_mut()
            .insert("x-total-count", HeaderValue::from(total.max(0)));
    }
    Ok(response)
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
pub(crate) async fn get_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<axum::Json<UserDetail>, ApiError> {
    // The bookings count does not depend on the role; the locations count does.
    let (reply, bookings) = tokio::join!(
        call::read!(
            state,
            identity.get_user,
            Some(&session),
            pb::GetUserRequest {
                user_id: user_id.clone()
            }
        ),
        call::read!(
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
            call::read!(state, coaching.count_coach_locations, Some(&session), message)
                .await?
                .count
        }
        "gym" => {
            let message = gym::CountGymLocationsRequest {
                gym_id: found.user_id.clone(),
            };
            call::read!(state, gym.count_gym_locations, Some(&session), message)
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
