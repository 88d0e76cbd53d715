//! `GET /bookings/{booking_id}/receipt`: what one booking's client was charged, for its client and
//! its coach, with both names resolved in one call.

use axum::extract::State;
use proto::booking::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    call,
    error::{ApiError, ErrorBody},
    extract::{PathId, Session},
    names::names,
    routes::booking::{Booking, booking, parties},
    state::AppState,
    vocabulary::PaymentLineKind,
};

/// One movement of a booking's money.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReceiptLine {
    #[schema(value_type = PaymentLineKind)]
    pub kind: String,
    /// Whole cents.
    pub amount_cents: i64,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub at: String,
    /// A refund's reason; null for the other kinds.
    pub reason: Option<String>,
}

/// What a booking's client was charged and refunded.
#[derive(Debug, Serialize, ToSchema)]
pub struct Receipt {
    /// Stable for the booking: the same on every read.
    pub receipt_id: String,
    /// The booking, with both names.
    pub booking: Booking,
    /// The card charged (`visa`, ...), as the provider reports it.
    pub card_brand: String,
    pub card_last4: String,
    /// Charged in all, whole cents.
    pub amount_paid_cents: i64,
    /// Refunded of that, whole cents.
    pub amount_refunded_cents: i64,
    /// `usd`.
    pub currency: String,
    /// Every movement, oldest first.
    pub lines: Vec<ReceiptLine>,
    /// When the first charge was made: RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub issued_at: String,
}

/// The receipt of a booking that was charged (in full or a fee), for its client and its coach: the
/// card, what was charged and refunded, and each movement. 404 before anything was charged, and
/// to anyone else.
#[utoipa::path(get, path = "/bookings/{booking_id}/receipt", tag = "payments",
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "The receipt", body = Receipt),
              (status = 404, description = "No such booking of yours, or nothing was charged for it yet", body = ErrorBody)))]
pub(crate) async fn booking_receipt(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
) -> Result<axum::Json<Receipt>, ApiError> {
    let message = pb::GetReceiptRequest { booking_id };
    let reply = call::read!(state, booking.get_receipt, Some(&session), message).await?;
    let receipt = call::present("booking", reply.receipt)?;
    let record = call::present("booking", receipt.booking)?;
    let names = names(&state, Some(&session), parties(&record)).await?;
    Ok(axum::Json(Receipt {
        receipt_id: receipt.receipt_id,
        booking: booking(record, &names),
        card_brand: receipt.card_brand,
        card_last4: receipt.card_last4,
        amount_paid_cents: receipt.amount_paid_cents,
        amount_refunded_cents: receipt.amount_refunded_cents,
        currency: receipt.currency,
        lines: receipt
            .lines
            .into_iter()
            .map(|l| ReceiptLine {
                kind: l.kind,
                amount_cents: l.amount_cents,
                at: l.at,
                reason: l.reason,
            })
            .collect(),
        issued_at: receipt.issued_at,
    }))
}
