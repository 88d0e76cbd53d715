//! A client's side of bookings: book a slot (with a card when the session is paid), move a
//! booking, list them (a coach lists theirs here too) and cancel one.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::booking::v1 as pb;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{Booking, CancelBody, booking, one, parties};
use crate::{
    call,
    error::ApiError,
    extract::{Json, OptionalJson, PathId, Session},
    names::named,
    pages::Paging,
    state::AppState,
};

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"coach_id": "5e0c6d1a-8b3f-4f2e-9a7c-1d2b3c4d5e6f",
                          "slot_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "booking_date": "2030-06-03"}))]
pub struct BookingBody {
    #[schema(format = Uuid)]
    pub coach_id: String,
    #[schema(format = Uuid)]
    pub slot_id: String,
    /// YYYY-MM-DD: the slot's weekday (recurring) or its date (one-time), not in the past.
    #[schema(format = Date)]
    pub booking_date: String,
    /// One of the client's saved cards (`payment_method_id` from `GET /client/payment-methods`)
    /// to hold the price on; left out, null or blank: their default card. A free session holds
    /// nothing and ignores it.
    #[serde(default)]
    #[schema(max_length = 255)]
    pub payment_method_id: Option<String>,
}

/// Where to move a booking: another slot of the same coach (or the same one) and a date.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"slot_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "booking_date": "2030-06-10"}))]
pub struct RescheduleBody {
    /// One of the booking's coach's slots.
    #[schema(format = Uuid)]
    pub slot_id: String,
    /// YYYY-MM-DD: a date of that slot the coach takes bookings on.
    #[schema(format = Date)]
    pub booking_date: String,
}

/// Book a coach's slot on a date (client). The booking starts pending, and expires if the coach
/// does not answer within their response window (or before it starts).
///
/// Its price (`price_cents`) is the coach's hourly rate now times the slot's length. A paid
/// session needs a saved card: the one named, else the client's default; without one the answer
/// is 402 and nothing is booked. The price is held on the card (`payment_status: authorized`)
/// when the session starts within 6 days, else 6 days before it (`pending` until then); it is
/// captured when the session completes, and released, or charged the coach's fee, by the other
/// outcomes (see `payment_status`). A free session (`price_cents: 0`) needs no card
/// (`payment_status: none`).
#[utoipa::path(post, path = "/bookings", tag = "booking", request_body = BookingBody,
    responses((status = 201, description = "Booked, pending the coach's approval", body = Booking),
              (status = 402, description = "The session is paid and the client has no saved card to hold it on: the detail says how to add one", body = crate::error::ErrorBody),
              (status = 404, description = "No such slot", body = crate::error::ErrorBody),
              (status = 409, description = "The slot is already taken on that date; or the session has started, starts sooner than the coach's minimum notice or further ahead than their maximum", body = crate::error::ErrorBody)))]
pub(crate) async fn create_booking(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<BookingBody>,
) -> Result<(StatusCode, axum::Json<Booking>), ApiError> {
    let message = pb::CreateBookingRequest {
        coach_id: body.coach_id,
        slot_id: body.slot_id,
        booking_date: body.booking_date,
        payment_method_id: body.payment_method_id.filter(|id| !id.trim().is_empty()),
    };
    let reply = call::write!(state, booking.create_booking, Some(&session), message).await?;
    let booking = one(&state, &session, reply.booking).await?;
    Ok((StatusCode::CREATED, axum::Json(booking)))
}

/// Move one of the client's pending or confirmed bookings that has not started to another slot of
/// the same coach and a date, in one step: the answer is the new booking (pending, with
/// `rescheduled_from`); the old one is cancelled by the client (a late cancellation when a cancel
/// now would be) with `rescheduled_to`. When the new slot and date cannot be booked, nothing
/// changes. Money: when the price is the same and the old booking's hold is in place, the hold
/// follows the new booking (the old one reads `released`); otherwise the old hold is released and
/// the new booking held afresh, on the client's default card or the old booking's. A move is never
/// charged a fee.
#[utoipa::path(post, path = "/bookings/{booking_id}/reschedule", tag = "booking", request_body = RescheduleBody,
    params(("booking_id" = String, Path, format = Uuid, description = "The booking to move")),
    responses((status = 201, description = "Moved: the new booking, pending the coach's approval", body = Booking),
              (status = 402, description = "The new session is paid and neither the old booking nor the client has a card to hold it on: the detail says how to add one", body = crate::error::ErrorBody),
              (status = 404, description = "No such booking of yours, or no such slot", body = crate::error::ErrorBody),
              (status = 409, description = "The booking can no longer be cancelled, or the new slot and date cannot be booked (taken, time off, too soon, too far, past)", body = crate::error::ErrorBody)))]
pub(crate) async fn reschedule_booking(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
    Json(body): Json<RescheduleBody>,
) -> Result<(StatusCode, axum::Json<Booking>), ApiError> {
    let message = pb::RescheduleBookingRequest {
        booking_id,
        slot_id: body.slot_id,
        booking_date: body.booking_date,
    };
    let reply = call::write!(state, booking.reschedule_booking, Some(&session), message).await?;
    let booking = one(&state, &session, reply.booking).await?;
    Ok((StatusCode::CREATED, axum::Json(booking)))
}

/// A client's own bookings, or a coach's bookings with them; by date, then start time. Whole
/// without `limit`; pages of `limit` with it.
#[utoipa::path(get, path = "/bookings", tag = "booking", params(Paging<100>),
    responses((status = 200, description = "The caller's bookings", body = [Booking])))]
pub(crate) async fn list_bookings(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100>,
) -> Result<Response, ApiError> {
    let message = pb::ListBookingsRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, booking.list_bookings, Some(&session), message).await?;
    let bookings = named(&state, Some(&session), reply.bookings, parties, |b, names| {
        Some(booking(b, names))
    });
    Ok(paging.respond(bookings.await?, &reply.next, None))
}

/// Cancel one of the client's own pending or confirmed bookings before it starts, with an
/// optional reason (the body may be left out). A confirmed booking cancelled inside the coach's
/// cancellation window is recorded with `late_cancellation: true`.
#[utoipa::path(patch, path = "/bookings/{booking_id}/cancel", tag = "booking",
    request_body = Option<CancelBody>,
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "Cancelled", body = Booking),
              (status = 409, description = "The booking has moved on (no longer pending or confirmed), or the session has started", body = crate::error::ErrorBody)))]
pub(crate) async fn cancel_booking(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
    OptionalJson(body): OptionalJson<CancelBody>,
) -> Result<axum::Json<Booking>, ApiError> {
    let message = pb::CancelBookingRequest {
        booking_id,
        reason: body.reason,
    };
    let reply = call::write!(state, booking.cancel_booking, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.booking).await?))
}
