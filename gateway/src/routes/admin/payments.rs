//! `/admin/payments` and `/admin/bookings/{booking_id}/refund`: the bookings that carry money, a
//! page at a time and filtered, and an admin's refund of what a client paid (booking-svc audits it
//! in the same transaction). Each booking carries both names, resolved in one call per page.

use axum::{extract::State, response::Response};
use chrono::NaiveDate;
use proto::booking::v1 as pb;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::{
    call,
    error::{ApiError, ErrorBody},
    extract::{Json, PathId, Query, Session},
    names::named,
    pages::Paging,
    routes::booking::{Booking, booking, one, parties},
    state::AppState,
    vocabulary::PaymentStatus,
};

/// The admin's filters of the payments list; each may be left out.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PaymentsQuery {
    /// Only bookings whose payment stands so.
    #[param(value_type = Option<PaymentStatus>)]
    pub payment_status: Option<PaymentStatus>,
    /// Only this coach's bookings.
    #[param(value_type = Option<String>, format = Uuid)]
    pub coach_id: Option<Uuid>,
    /// Only sessions on or after this date (YYYY-MM-DD, the booking's date).
    #[param(value_type = Option<String>, format = Date)]
    pub from: Option<NaiveDate>,
    /// Only sessions on or before this date (YYYY-MM-DD).
    #[param(value_type = Option<String>, format = Date)]
    pub to: Option<NaiveDate>,
}

/// The bookings that carry money (a price above 0), newest first, with both names: pages of
/// `limit` (50 when left out) with a `Link` to the next; `payment_status`, `coach_id`, `from` and
/// `to` filter.
#[utoipa::path(get, path = "/admin/payments", tag = "admin", params(PaymentsQuery, Paging<100, 50>),
    responses((status = 200, description = "A page of the bookings that carry money", body = [Booking])))]
pub(crate) async fn list_payments(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100, 50>,
    Query(query): Query<PaymentsQuery>,
) -> Result<Response, ApiError> {
    let message = pb::ListPaymentsRequest {
        limit: paging.limit(),
        after: paging.after(),
        payment_status: query.payment_status.map(|s| s.as_str().to_owned()),
        coach_id: query.coach_id.map(|id| id.to_string()),
        from: query.from.map(|d| d.to_string()),
        to: query.to.map(|d| d.to_string()),
    };
    let reply = call::read!(state, booking.list_payments, Some(&session), message).await?;
    let bookings = named(&state, Some(&session), reply.bookings, parties, |b, names| {
        Some(booking(b, names))
    })
    .await?;
    Ok(paging.respond(bookings, &reply.next, None))
}

/// An admin's refund of a booking's payment.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"amount_cents": 3750, "reason": "The court was closed; half back as agreed."}))]
pub struct RefundBody {
    /// Whole cents, at least 1 and at most what was paid less what was refunded already.
    #[schema(minimum = 1)]
    pub amount_cents: i64,
    /// Why: kept with the refund (audited) and told to the client; at most 500 characters, not
    /// blank.
    #[schema(min_length = 1, max_length = 500, pattern = "\\S")]
    pub reason: String,
}

/// Refund all or part of what a booking's client paid, with a reason (admin), on a paid, partially
/// paid or partially refunded booking. The refund is recorded at once, with the admin and the
/// reason, and the payment worker carries it to the provider within seconds: the answer is the
/// booking as it stands, and once the provider has refunded, its `amount_refunded_cents` grows and
/// its `payment_status` reads `refunded` (everything paid is back) or `partially_refunded`.
#[utoipa::path(post, path = "/admin/bookings/{booking_id}/refund", tag = "admin", request_body = RefundBody,
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "The refund is recorded: the booking, before the provider's refund reaches it", body = Booking),
              (status = 400, description = "A field is invalid, or the amount is more than what is left to refund (paid less refunded); the detail says how much is left", body = ErrorBody),
              (status = 404, description = "No such booking", body = ErrorBody),
              (status = 409, description = "Nothing is left to refund: its payment is not paid, partially paid or partially refunded, or every cent is refunded or being refunded", body = ErrorBody)))]
pub(crate) async fn refund_booking(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
    Json(body): Json<RefundBody>,
) -> Result<axum::Json<Booking>, ApiError> {
    let message = pb::RefundBookingRequest {
        booking_id,
        amount_cents: body.amount_cents,
        reason: body.reason.trim().to_owned(),
    };
    let reply = call::write!(state, booking.refund_booking, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.booking).await?))
}
