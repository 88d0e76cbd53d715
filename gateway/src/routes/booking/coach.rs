//! A coach's side of bookings: approve or deny a request, cancel a confirmed session, mark a
//! completed one no-show.

use axum::extract::State;
use proto::booking::v1 as pb;

use super::{Booking, CancelBody, one};
use crate::{
    call,
    error::ApiError,
    extract::{OptionalJson, PathId, Session},
    state::AppState,
};

/// Cancel a confirmed booking with the signed-in coach before it starts, with an optional reason
/// for the client (the body may be left out) (→ cancelled, `cancelled_by: "coach"`).
#[utoipa::path(patch, path = "/coach/bookings/{booking_id}/cancel", tag = "booking",
    request_body = Option<CancelBody>,
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "Cancelled", body = Booking),
              (status = 409, description = "The booking is not confirmed, or the session has started", body = crate::error::ErrorBody)))]
pub(crate) async fn coach_cancel_booking(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
    OptionalJson(body): OptionalJson<CancelBody>,
) -> Result<axum::Json<Booking>, ApiError> {
    let message = pb::CoachCancelBookingRequest {
        booking_id,
        reason: body.reason,
    };
    let reply = call::write!(state, booking.coach_cancel_booking, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.booking).await?))
}

/// Record that the client did not come to a completed session with the signed-in coach, within
/// 7 days of its end (→ no_show).
#[utoipa::path(patch, path = "/coach/bookings/{booking_id}/no-show", tag = "booking",
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "Marked no-show", body = Booking),
              (status = 409, description = "The session has not ended, is not completed, or ended more than 7 days ago", body = crate::error::ErrorBody)))]
pub(crate) async fn mark_no_show(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
) -> Result<axum::Json<Booking>, ApiError> {
    let message = pb::MarkNoShowRequest { booking_id };
    let reply = call::write!(state, booking.mark_no_show, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.booking).await?))
}

/// Approve a pending booking with the signed-in coach (→ confirmed).
#[utoipa::path(patch, path = "/coach/bookings/{booking_id}/approve", tag = "booking",
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "Confirmed", body = Booking),
              (status = 409, description = "The booking has moved on (no longer pending, or already decided)", body = crate::error::ErrorBody)))]
pub(crate) async fn approve_booking(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
) -> Result<axum::Json<Booking>, ApiError> {
    let reply = call::write!(
        state,
        booking.approve_booking,
        Some(&session),
        pb::ApproveBookingRequest { booking_id }
    )
    .await?;
    Ok(axum::Json(one(&state, &session, reply.booking).await?))
}

/// Deny a pending booking with the signed-in coach (→ denied).
#[utoipa::path(patch, path = "/coach/bookings/{booking_id}/deny", tag = "booking",
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "Denied", body = Booking),
              (status = 409, description = "The booking has moved on (no longer pending, or already decided)", body = crate::error::ErrorBody)))]
pub(crate) async fn deny_booking(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
) -> Result<axum::Json<Booking>, ApiError> {
    let reply = call::write!(
        state,
        booking.deny_booking,
        Some(&session),
        pb::DenyBookingRequest { booking_id }
    )
    .await?;
    Ok(axum::Json(one(&state, &session, reply.booking).await?))
}
