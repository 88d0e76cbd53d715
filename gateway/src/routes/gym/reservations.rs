//! Court reservations from both sides: a coach requests and cancels, the gym approves or
//! denies. Coach names come from identity-svc in one batched call (`crate::names`).

use axum::{extract::State, http::StatusCode, response::Response};
use proto::gym::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{Json, OptionalJson, PathId, Session},
    names::{Names, named, named_one},
    pages::Paging,
    state::AppState,
    vocabulary::ReservationStatus,
};

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
    /// The gym's user id (to message it, for one).
    #[schema(format = Uuid)]
    pub gym_id: String,
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
    #[schema(value_type = ReservationStatus)]
    pub status: String,
    /// The location's IANA time zone (e.g. `America/Chicago`): date and times are its wall clock.
    #[schema(example = "America/Chicago")]
    pub time_zone: String,
    /// When the court time starts, RFC 3339 in UTC.
    #[schema(format = DateTime, example = "2030-06-03T23:00:00Z")]
    pub starts_at: String,
    /// When it ends, RFC 3339 in UTC.
    #[schema(format = DateTime, example = "2030-06-04T00:30:00Z")]
    pub ends_at: String,
    /// Why the gym cancelled an approved reservation, when it said; null otherwise.
    pub cancellation_reason: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"availability_id": "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f"}))]
pub struct ReservationBody {
    /// Open court availability (from `/gym/locations/{location_id}/availability`).
    #[schema(format = Uuid)]
    pub availability_id: String,
}

/// Why the gym cancels a reservation; the whole body may be left out.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "The hall floods; sorry."}))]
pub struct CancelReservationBody {
    /// Shown to the coach (at most 500 characters); blank or null for none.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub reason: Option<String>,
}

/// The user a reservation names.
fn coach_id(r: &pb::CourtReservation) -> [String; 1] {
    [r.coach_id.clone()]
}

/// A reservation with its coach's name.
fn reservation(r: pb::CourtReservation, names: &Names) -> CourtReservation {
    CourtReservation {
        coach_name: names.or_deleted(&r.coach_id),
        reservation_id: r.reservation_id,
        availability_id: r.availability_id,
        coach_id: r.coach_id,
        gym_id: r.gym_id,
        gym_name: r.gym_name,
        location_name: r.location_name,
        court_name: r.court_name,
        date: r.date,
        start_time: r.start_time,
        end_time: r.end_time,
        status: r.status,
        time_zone: r.time_zone,
        starts_at: r.starts_at,
        ends_at: r.ends_at,
        cancellation_reason: r.cancellation_reason,
    }
}

/// Reservations with the coaches' names, from ONE identity call.
async fn with_names(
    state: &AppState,
    session: &Session,
    records: Vec<pb::CourtReservation>,
) -> Result<Vec<CourtReservation>, ApiError> {
    named(state, Some(session), records, coach_id, |r, names| {
        Some(reservation(r, names))
    })
    .await
}

/// One reservation from a write's reply, with its coach's name.
async fn one(
    state: &AppState,
    session: &Session,
    record: Option<pb::CourtReservation>,
) -> Result<CourtReservation, ApiError> {
    named_one(state, session, "gym", record, coach_id, reservation).await
}

/// Pending requests for the signed-in gym's courts, soonest court time first. Whole without
/// `limit`; pages of `limit` with it.
#[utoipa::path(get, path = "/gym/pending-reservations", tag = "gym", params(Paging<100>),
    responses((status = 200, description = "Pending reservations", body = [CourtReservation])))]
pub(crate) async fn pending_reservations(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100>,
) -> Result<Response, ApiError> {
    let message = pb::ListPendingReservationsRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, gym.list_pending_reservations, Some(&session), message).await?;
    let rows = with_names(&state, &session, reply.reservations).await?;
    Ok(paging.respond(rows, &reply.next, None))
}

/// Approve a pending request on one of the gym's courts: the availability becomes reserved and
/// other pending requests for it are denied.
#[utoipa::path(patch, path = "/gym/reservations/{reservation_id}/approve", tag = "gym",
    params(("reservation_id" = String, Path, format = Uuid, description = "The reservation")),
    responses((status = 200, description = "Approved", body = CourtReservation),
              (status = 409, description = "The request was already decided or cancelled", body = crate::error::ErrorBody)))]
pub(crate) async fn approve_reservation(
    State(state): State<AppState>,
    session: Session,
    PathId(reservation_id): PathId,
) -> Result<axum::Json<CourtReservation>, ApiError> {
    let message = pb::ApproveReservationRequest { reservation_id };
    let reply = call::write!(state, gym.approve_reservation, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.reservation).await?))
}

/// Deny a pending request on one of the gym's courts.
#[utoipa::path(patch, path = "/gym/reservations/{reservation_id}/deny", tag = "gym",
    params(("reservation_id" = String, Path, format = Uuid, description = "The reservation")),
    responses((status = 200, description = "Denied", body = CourtReservation),
              (status = 409, description = "The request was already decided or cancelled", body = crate::error::ErrorBody)))]
pub(crate) async fn deny_reservation(
    State(state): State<AppState>,
    session: Session,
    PathId(reservation_id): PathId,
) -> Result<axum::Json<CourtReservation>, ApiError> {
    let message = pb::DenyReservationRequest { reservation_id };
    let reply = call::write!(state, gym.deny_reservation, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.reservation).await?))
}

/// Cancel an approved reservation on one of the gym's courts before it starts: the court time is
/// open to requests again.
#[utoipa::path(patch, path = "/gym/reservations/{reservation_id}/cancel", tag = "gym",
    request_body = Option<CancelReservationBody>,
    params(("reservation_id" = String, Path, format = Uuid, description = "The reservation")),
    responses((status = 200, description = "Cancelled", body = CourtReservation),
              (status = 409, description = "Not approved, or it has already started", body = crate::error::ErrorBody)))]
pub(crate) async fn gym_cancel_reservation(
    State(state): State<AppState>,
    session: Session,
    PathId(reservation_id): PathId,
    OptionalJson(body): OptionalJson<CancelReservationBody>,
) -> Result<axum::Json<CourtReservation>, ApiError> {
    let message = pb::GymCancelReservationRequest {
        reservation_id,
        reason: body.reason.filter(|reason| !reason.trim().is_empty()),
    };
    let reply = call::write!(state, gym.gym_cancel_reservation, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.reservation).await?))
}

/// The signed-in coach's court reservations, newest request first. Whole without `limit`; pages
/// of `limit` with it.
#[utoipa::path(get, path = "/coach/court-reservations", tag = "gym", params(Paging<100>),
    responses((status = 200, description = "Own court reservations", body = [CourtReservation])))]
pub(crate) async fn coach_reservations(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100>,
) -> Result<Response, ApiError> {
    let message = pb::ListCoachReservationsRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, gym.list_coach_reservations, Some(&session), message).await?;
    let rows = with_names(&state, &session, reply.reservations).await?;
    Ok(paging.respond(rows, &reply.next, None))
}

/// Request open court availability (coach). The request starts pending.
#[utoipa::path(post, path = "/coach/court-reservations", tag = "gym", request_body = ReservationBody,
    responses((status = 201, description = "Requested, pending the gym's approval", body = CourtReservation),
              (status = 404, description = "No such court availability", body = crate::error::ErrorBody),
              (status = 409, description = "Already reserved or in the past", body = crate::error::ErrorBody)))]
pub(crate) async fn request_reservation(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<ReservationBody>,
) -> Result<(StatusCode, axum::Json<CourtReservation>), ApiError> {
    let message = pb::CreateCourtReservationRequest {
        availability_id: body.availability_id,
    };
    let reply = call::write!(state, gym.create_court_reservation, Some(&session), message).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(one(&state, &session, reply.reservation).await?),
    ))
}

/// Cancel one of the signed-in coach's pending requests.
#[utoipa::path(delete, path = "/coach/court-reservations/{reservation_id}", tag = "gym",
    params(("reservation_id" = String, Path, format = Uuid, description = "The reservation")),
    responses((status = 204, description = "Cancelled"),
              (status = 409, description = "The request was already decided or cancelled", body = crate::error::ErrorBody)))]
pub(crate) async fn cancel_reservation(
    State(state): State<AppState>,
    session: Session,
    PathId(reservation_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::CancelCourtReservationRequest { reservation_id };
    call::write!(state, gym.cancel_court_reservation, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}
