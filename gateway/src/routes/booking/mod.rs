//! Booking routes: a client books a coach's slot, lists and cancels their bookings; a coach lists,
//! approves and denies the bookings with them, cancels a confirmed one and marks a completed one
//! no-show. Every answer carries both names, resolved from identity-svc in one batched call.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::booking::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{Json, OptionalJson, PathId, Session},
    names::{Names, named, named_one},
    pages::Paging,
    state::AppState,
    vocabulary::{BookingStatus, CancelledBy, PaymentStatus},
};

/// A client's booking of a coach's slot on one date, with the slot's times, place and time zone as
/// they were when it was booked. `booking_date`, `start_time` and `end_time` are the place's wall
/// clock; `starts_at` and `ends_at` are the same instants in UTC.
#[derive(Debug, Serialize, ToSchema)]
pub struct Booking {
    #[schema(format = Uuid)]
    pub booking_id: String,
    #[schema(format = Uuid)]
    pub coach_id: String,
    pub coach_name: String,
    #[schema(format = Uuid)]
    pub client_id: String,
    pub client_name: String,
    /// The coach's availability slot it books.
    #[schema(format = Uuid)]
    pub slot_id: String,
    /// YYYY-MM-DD, on the place's calendar.
    #[schema(format = Date)]
    pub booking_date: String,
    /// HH:MM, on the place's clock.
    pub start_time: String,
    /// HH:MM, on the place's clock.
    pub end_time: String,
    /// Empty when the slot had no location.
    pub location_name: String,
    /// The place's IANA time zone (`America/Chicago`): the location's, or the coach's when the slot
    /// has no location; `UTC` for bookings made before zones were kept.
    pub time_zone: String,
    /// When the session starts: RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub starts_at: String,
    /// When the session ends: RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub ends_at: String,
    #[schema(value_type = BookingStatus)]
    pub status: String,
    #[schema(value_type = PaymentStatus)]
    pub payment_status: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// The client cancelled this confirmed booking inside the coach's cancellation window.
    pub late_cancellation: bool,
    /// Until when the client may cancel for free: RFC 3339, UTC. From then on a client's cancel
    /// of a confirmed booking is late. It is `starts_at` less the coach's cancellation window as
    /// it was when the booking was made, so a later change of policy does not move it.
    #[schema(format = DateTime)]
    pub free_cancellation_until: String,
    /// Who cancelled it; null unless it is cancelled.
    #[schema(value_type = Option<CancelledBy>)]
    pub cancelled_by: Option<String>,
    /// Why, when the one who cancelled said so.
    pub cancellation_reason: Option<String>,
    /// The booking this one was moved from (a reschedule); null when none.
    #[schema(format = Uuid)]
    pub rescheduled_from: Option<String>,
    /// The booking this one was moved to (this one is then cancelled); null when none.
    #[schema(format = Uuid)]
    pub rescheduled_to: Option<String>,
    /// The client's review of the session, once they posted one (lists only; null otherwise).
    pub review: Option<super::reviews::Review>,
}

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

/// An optional reason for a cancel; the request may have no body at all.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "I am ill; sorry."}))]
pub struct CancelBody {
    /// Shown to the other side (at most 500 characters); blank or null for none.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub reason: Option<String>,
}

/// The users a booking names: its coach and its client.
fn parties(b: &pb::BookingRecord) -> [String; 2] {
    [b.coach_id.clone(), b.client_id.clone()]
}

/// A booking with both names.
fn booking(b: pb::BookingRecord, names: &Names) -> Booking {
    Booking {
        review: b.review.map(|r| super::reviews::review(r, names)),
        coach_name: names.or_deleted(&b.coach_id),
        client_name: names.or_deleted(&b.client_id),
        booking_id: b.booking_id,
        coach_id: b.coach_id,
        client_id: b.client_id,
        slot_id: b.slot_id,
        booking_date: b.booking_date,
        start_time: b.start_time,
        end_time: b.end_time,
        location_name: b.location_name,
        time_zone: b.time_zone,
        starts_at: b.starts_at,
        ends_at: b.ends_at,
        status: b.status,
        payment_status: b.payment_status,
        created_at: b.created_at,
        late_cancellation: b.late_cancellation,
        free_cancellation_until: b.free_cancellation_until,
        cancelled_by: b.cancelled_by,
        cancellation_reason: b.cancellation_reason,
        rescheduled_from: b.rescheduled_from,
        rescheduled_to: b.rescheduled_to,
    }
}

/// One booking from a write's reply, with names.
async fn one(
    state: &AppState,
    session: &Session,
    record: Option<pb::BookingRecord>,
) -> Result<Booking, ApiError> {
    named_one(state, session, "booking", record, parties, booking).await
}

/// Book a coach's slot on a date (client). The booking starts pending, and expires if the coach
/// does not answer within their response window (or before it starts).
#[utoipa::path(post, path = "/bookings", tag = "booking", request_body = BookingBody,
    responses((status = 201, description = "Booked, pending the coach's approval", body = Booking),
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
    };
    let reply = call::write!(state, booking.create_booking, Some(&session), message).await?;
    let booking = one(&state, &session, reply.booking).await?;
    Ok((StatusCode::CREATED, axum::Json(booking)))
}

/// Move one of the client's pending or confirmed bookings that has not started to another slot of
/// the same coach and a date, in one step: the answer is the new booking (pending, with
/// `rescheduled_from`); the old one is cancelled by the client (a late cancellation when a cancel
/// now would be) with `rescheduled_to`. When the new slot and date cannot be booked, nothing
/// changes.
#[utoipa::path(post, path = "/bookings/{booking_id}/reschedule", tag = "booking", request_body = RescheduleBody,
    params(("booking_id" = String, Path, format = Uuid, description = "The booking to move")),
    responses((status = 201, description = "Moved: the new booking, pending the coach's approval", body = Booking),
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
