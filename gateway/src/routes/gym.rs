//! Gym routes: gym profiles, gym locations, courts, court availability, and court reservations
//! from both sides (a coach requests and cancels, the gym approves or denies). Coach names on
//! reservations come from identity-svc in one batched call; gym, location and court names are
//! gym-svc's own.

use axum::{extract::State, http::StatusCode, response::Response};
use platform::stamps::Context;
use proto::gym::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::routes;

use super::{Access, COACH, GYM, Route, route};
use crate::{
    error::ApiError,
    extract::{Json, PathId, Session},
    state::{AppState, DELETED_USER, names, present, write},
};

pub fn routes() -> Vec<Route> {
    vec![
        route(Access::SignedIn, routes!(get_profile)),
        route(GYM, routes!(create_profile)),
        route(GYM, routes!(update_profile)),
        route(Access::SignedIn, routes!(list_locations)),
        route(GYM, routes!(create_location)),
        route(Access::SignedIn, routes!(list_courts)),
        route(GYM, routes!(create_court)),
        route(Access::SignedIn, routes!(open_availability)),
        route(GYM, routes!(list_availability)),
        route(GYM, routes!(create_availability)),
        route(GYM, routes!(pending_reservations)),
        route(GYM, routes!(approve_reservation)),
        route(GYM, routes!(deny_reservation)),
        route(COACH, routes!(coach_reservations)),
        route(COACH, routes!(request_reservation)),
        route(COACH, routes!(cancel_reservation)),
    ]
}

// ---------------------------------------------------------------------------------------------
// Profile

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
pub struct GymProfileBody {
    pub gym_name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
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
async fn get_profile(
    State(state): State<AppState>,
    session: Session,
    PathId(gym_id): PathId,
) -> Result<axum::Json<GymProfile>, ApiError> {
    let message = pb::GetGymProfileRequest { gym_id };
    let reply = crate::read!(state, gym.get_gym_profile, Some(&session), message).await?;
    Ok(axum::Json(present("gym", reply.profile)?.into()))
}

/// Create the signed-in gym's profile.
#[utoipa::path(post, path = "/gym/profile", tag = "gym", request_body = GymProfileBody,
    responses((status = 201, description = "Profile created", body = GymProfile),
              (status = 409, description = "A profile exists already: update it", body = crate::error::ErrorBody)))]
async fn create_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<GymProfileBody>,
) -> Result<(StatusCode, axum::Json<GymProfile>), ApiError> {
    let message = pb::CreateGymProfileRequest {
        fields: Some(body.into()),
    };
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .create_gym_profile(state.request(Some(&session), message)),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.profile)?.into()),
    ))
}

/// Update the signed-in gym's profile.
#[utoipa::path(put, path = "/gym/profile", tag = "gym", request_body = GymProfileBody,
    responses((status = 200, description = "Profile updated", body = GymProfile),
              (status = 404, description = "No profile yet: create it", body = crate::error::ErrorBody)))]
async fn update_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<GymProfileBody>,
) -> Result<axum::Json<GymProfile>, ApiError> {
    let message = pb::UpdateGymProfileRequest {
        fields: Some(body.into()),
    };
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .update_gym_profile(state.request(Some(&session), message)),
    )
    .await?;
    Ok(axum::Json(present("gym", reply.profile)?.into()))
}

// ---------------------------------------------------------------------------------------------
// Locations and courts

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
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GymLocationBody {
    pub name: String,
    #[serde(default)]
    pub address: String,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub state: String,
    /// -90 to 90.
    #[serde(default)]
    pub latitude: Option<f64>,
    /// -180 to 180.
    #[serde(default)]
    pub longitude: Option<f64>,
}

/// A court at a gym location.
#[derive(Debug, Serialize, ToSchema)]
pub struct Court {
    #[schema(format = Uuid)]
    pub court_id: String,
    #[schema(format = Uuid)]
    pub location_id: String,
    pub court_name: String,
    /// basketball, volleyball or multi-purpose.
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
pub struct CourtBody {
    pub court_name: String,
    /// basketball (default), volleyball or multi-purpose.
    #[serde(default)]
    pub court_type: Option<String>,
}

/// A gym sees its own locations; any other signed-in user sees every gym's.
#[utoipa::path(get, path = "/gym/locations", tag = "gym",
    responses((status = 200, description = "Gym locations", body = [GymLocation])))]
async fn list_locations(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<GymLocation>>, ApiError> {
    let reply = crate::read!(
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
    responses((status = 201, description = "Location added", body = GymLocation)))]
async fn create_location(
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
    };
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .create_gym_location(state.request(Some(&session), message)),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.location)?.into()),
    ))
}

/// The courts at a gym location.
#[utoipa::path(get, path = "/gym/locations/{location_id}/courts", tag = "gym",
    params(("location_id" = String, Path, format = Uuid, description = "The gym location")),
    responses((status = 200, description = "The location's courts", body = [Court])))]
async fn list_courts(
    State(state): State<AppState>,
    session: Session,
    PathId(location_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = session.stamps.of(&[Context::Gym]);
    state
        .memo
        .json("location-courts", &location_id, stamp, async {
            let message = pb::ListCourtsRequest {
                location_id: location_id.clone(),
            };
            let reply = crate::read!(state, gym.list_courts, Some(&session), message).await?;
            Ok(reply.courts.into_iter().map(Court::from).collect::<Vec<_>>())
        })
        .await
}

/// Add a court at one of the signed-in gym's locations.
#[utoipa::path(post, path = "/gym/locations/{location_id}/courts", tag = "gym", request_body = CourtBody,
    params(("location_id" = String, Path, format = Uuid, description = "One of the gym's locations")),
    responses((status = 201, description = "Court added", body = Court)))]
async fn create_court(
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
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .create_court(state.request(Some(&session), message)),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.court)?.into()),
    ))
}

// ---------------------------------------------------------------------------------------------
// Court availability

/// A time a court can be reserved.
#[derive(Debug, Serialize, ToSchema)]
pub struct CourtAvailability {
    #[schema(format = Uuid)]
    pub availability_id: String,
    #[schema(format = Uuid)]
    pub court_id: String,
    #[schema(format = Uuid)]
    pub location_id: String,
    /// YYYY-MM-DD.
    #[schema(format = Date)]
    pub date: String,
    /// HH:MM.
    pub start_time: String,
    /// HH:MM.
    pub end_time: String,
    pub is_reserved: bool,
    pub location_name: String,
    pub court_name: String,
}

impl From<pb::CourtAvailability> for CourtAvailability {
    fn from(a: pb::CourtAvailability) -> Self {
        Self {
            availability_id: a.availability_id,
            court_id: a.court_id,
            location_id: a.location_id,
            date: a.date,
            start_time: a.start_time,
            end_time: a.end_time,
            is_reserved: a.is_reserved,
            location_name: a.location_name,
            court_name: a.court_name,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CourtAvailabilityBody {
    /// One of the gym's own courts.
    #[schema(format = Uuid)]
    pub court_id: String,
    /// YYYY-MM-DD, not in the past.
    #[schema(format = Date)]
    pub date: String,
    /// HH:MM.
    pub start_time: String,
    /// HH:MM, after start_time.
    pub end_time: String,
}

/// The open (unreserved, not past) court availability at one gym location, for coaches to request.
#[utoipa::path(get, path = "/gym/locations/{location_id}/availability", tag = "gym",
    params(("location_id" = String, Path, format = Uuid, description = "The gym location")),
    responses((status = 200, description = "Open court availability", body = [CourtAvailability])))]
async fn open_availability(
    State(state): State<AppState>,
    session: Session,
    PathId(location_id): PathId,
) -> Result<axum::Json<Vec<CourtAvailability>>, ApiError> {
    let message = pb::ListOpenAvailabilityRequest { location_id };
    let reply = crate::read!(state, gym.list_open_availability, Some(&session), message).await?;
    Ok(axum::Json(
        reply
            .availability
            .into_iter()
            .map(CourtAvailability::from)
            .collect(),
    ))
}

/// The availability of the signed-in gym's courts.
#[utoipa::path(get, path = "/gym/court-availability", tag = "gym",
    responses((status = 200, description = "Court availability", body = [CourtAvailability])))]
async fn list_availability(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<CourtAvailability>>, ApiError> {
    let message = pb::ListCourtAvailabilityRequest {};
    let reply = crate::read!(state, gym.list_court_availability, Some(&session), message).await?;
    Ok(axum::Json(
        reply
            .availability
            .into_iter()
            .map(CourtAvailability::from)
            .collect(),
    ))
}

/// Offer time on one of the signed-in gym's courts.
#[utoipa::path(post, path = "/gym/court-availability", tag = "gym", request_body = CourtAvailabilityBody,
    responses((status = 201, description = "Availability added", body = CourtAvailability),
              (status = 409, description = "Overlaps other availability of the court", body = crate::error::ErrorBody)))]
async fn create_availability(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CourtAvailabilityBody>,
) -> Result<(StatusCode, axum::Json<CourtAvailability>), ApiError> {
    let message = pb::CreateCourtAvailabilityRequest {
        court_id: body.court_id,
        date: body.date,
        start_time: body.start_time,
        end_time: body.end_time,
    };
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .create_court_availability(state.request(Some(&session), message)),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.availability)?.into()),
    ))
}

// ---------------------------------------------------------------------------------------------
// Reservations

/// A coach's request for court time, as both sides see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CourtReservation {
    #[schema(format = Uuid)]
    pub reservation_id: String,
    #[schema(format = Uuid)]
    pub availability_id: String,
    #[schema(format = Uuid)]
    pub coach_id: String,
    pub coach_name: String,
    pub gym_name: String,
    pub location_name: String,
    pub court_name: String,
    /// YYYY-MM-DD.
    #[schema(format = Date)]
    pub date: String,
    /// HH:MM.
    pub start_time: String,
    /// HH:MM.
    pub end_time: String,
    /// pending, approved, denied or cancelled.
    pub status: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReservationBody {
    /// Open court availability (from `/gym/locations/{location_id}/availability`).
    #[schema(format = Uuid)]
    pub availability_id: String,
}

/// Reservations with the coaches' names, from ONE identity call.
async fn with_names(
    state: &AppState,
    session: &Session,
    records: Vec<pb::CourtReservation>,
) -> Result<Vec<CourtReservation>, ApiError> {
    let names = names(state, Some(session), records.iter().map(|r| r.coach_id.clone())).await?;
    Ok(records
        .into_iter()
        .map(|r| CourtReservation {
            coach_name: names
                .get(&r.coach_id)
                .cloned()
                .unwrap_or_else(|| DELETED_USER.to_owned()),
            reservation_id: r.reservation_id,
            availability_id: r.availability_id,
            coach_id: r.coach_id,
            gym_name: r.gym_name,
            location_name: r.location_name,
            court_name: r.court_name,
            date: r.date,
            start_time: r.start_time,
            end_time: r.end_time,
            status: r.status,
        })
        .collect())
}

/// One reservation from a write's reply, with its coach's name.
async fn one(
    state: &AppState,
    session: &Session,
    record: Option<pb::CourtReservation>,
) -> Result<CourtReservation, ApiError> {
    let record = present("gym", record)?;
    with_names(state, session, vec![record])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal("a reservation lost while naming it"))
}

/// Pending requests for the signed-in gym's courts.
#[utoipa::path(get, path = "/gym/pending-reservations", tag = "gym",
    responses((status = 200, description = "Pending reservations", body = [CourtReservation])))]
async fn pending_reservations(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<CourtReservation>>, ApiError> {
    let message = pb::ListPendingReservationsRequest {};
    let reply = crate::read!(state, gym.list_pending_reservations, Some(&session), message).await?;
    Ok(axum::Json(
        with_names(&state, &session, reply.reservations).await?,
    ))
}

/// Approve a pending request on one of the gym's courts: the availability becomes reserved and
/// other pending requests for it are denied.
#[utoipa::path(patch, path = "/gym/reservations/{reservation_id}/approve", tag = "gym",
    params(("reservation_id" = String, Path, format = Uuid, description = "The reservation")),
    responses((status = 200, description = "Approved", body = CourtReservation)))]
async fn approve_reservation(
    State(state): State<AppState>,
    session: Session,
    PathId(reservation_id): PathId,
) -> Result<axum::Json<CourtReservation>, ApiError> {
    let message = pb::ApproveReservationRequest { reservation_id };
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .approve_reservation(state.request(Some(&session), message)),
    )
    .await?;
    Ok(axum::Json(one(&state, &session, reply.reservation).await?))
}

/// Deny a pending request on one of the gym's courts.
#[utoipa::path(patch, path = "/gym/reservations/{reservation_id}/deny", tag = "gym",
    params(("reservation_id" = String, Path, format = Uuid, description = "The reservation")),
    responses((status = 200, description = "Denied", body = CourtReservation)))]
async fn deny_reservation(
    State(state): State<AppState>,
    session: Session,
    PathId(reservation_id): PathId,
) -> Result<axum::Json<CourtReservation>, ApiError> {
    let message = pb::DenyReservationRequest { reservation_id };
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .deny_reservation(state.request(Some(&session), message)),
    )
    .await?;
    Ok(axum::Json(one(&state, &session, reply.reservation).await?))
}

/// The signed-in coach's court reservations.
#[utoipa::path(get, path = "/coach/court-reservations", tag = "gym",
    responses((status = 200, description = "Own court reservations", body = [CourtReservation])))]
async fn coach_reservations(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<CourtReservation>>, ApiError> {
    let message = pb::ListCoachReservationsRequest {};
    let reply = crate::read!(state, gym.list_coach_reservations, Some(&session), message).await?;
    Ok(axum::Json(
        with_names(&state, &session, reply.reservations).await?,
    ))
}

/// Request open court availability (coach). The request starts pending.
#[utoipa::path(post, path = "/coach/court-reservations", tag = "gym", request_body = ReservationBody,
    responses((status = 201, description = "Requested, pending the gym's approval", body = CourtReservation),
              (status = 409, description = "Already reserved or in the past", body = crate::error::ErrorBody)))]
async fn request_reservation(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<ReservationBody>,
) -> Result<(StatusCode, axum::Json<CourtReservation>), ApiError> {
    let message = pb::CreateCourtReservationRequest {
        availability_id: body.availability_id,
    };
    let reply = write(
        "gym",
        state
            .gym
            .clone()
            .create_court_reservation(state.request(Some(&session), message)),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(one(&state, &session, reply.reservation).await?),
    ))
}

/// Cancel one of the signed-in coach's pending requests.
#[utoipa::path(delete, path = "/coach/court-reservations/{reservation_id}", tag = "gym",
    params(("reservation_id" = String, Path, format = Uuid, description = "The reservation")),
    responses((status = 204, description = "Cancelled")))]
async fn cancel_reservation(
    State(state): State<AppState>,
    session: Session,
    PathId(reservation_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::CancelCourtReservationRequest { reservation_id };
    write(
        "gym",
        state
            .gym
            .clone()
            .cancel_court_reservation(state.request(Some(&session), message)),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
