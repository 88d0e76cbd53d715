//! How a request for a booking (a new one, or a move) becomes a [`NewBooking`]: its snapshot of
//! the slot, its price and card ([`settle::opening`]), and a retried request's key.

use chrono::{DateTime, Utc};
use proto::booking::v1 as pb;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::{BookingService, one};
use crate::{
    domain::{BookingDate, BookingId, ClientId, CoachId, Session, Slot, SlotId},
    error::Error,
    payments::{cards, settle},
    store::{BookingRow, NewBooking},
};

/// A new pending booking of `session` of `slot` by `client_id`, made at `now`, its price held on
/// `card` ([`settle::opening`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn new_booking<'a>(
    client_id: ClientId,
    slot: &'a Slot,
    session: &Session,
    time_zone: &'a str,
    now: DateTime<Utc>,
    rescheduled_from: Option<BookingId>,
    idempotency_key: Option<&'a str>,
    payment: settle::Opening,
) -> NewBooking<'a> {
    NewBooking {
        // Time-ordered (UUIDv7): each new row lands at the right edge of the primary key's
        // index instead of on a random page of it.
        booking_id: BookingId(Uuid::now_v7()),
        client_id,
        coach_id: slot.coach_id,
        slot_id: slot.slot_id,
        booking_date: session.date,
        start_time: session.start_time,
        end_time: session.end_time,
        location_name: &slot.location_name,
        time_zone,
        starts_at: session.starts_at,
        ends_at: session.ends_at,
        created_at: now,
        expires_at: slot.policy.expires_at(now, session.starts_at),
        cancellation_window_minutes: i32::try_from(slot.policy.cancellation_window.num_minutes())
            .unwrap_or(i32::MAX),
        rescheduled_from,
        idempotency_key,
        payment,
    }
}

impl BookingService {
    /// How a booking of `slot`'s `session` by `client_id` pays at `now`: free, or held on the
    /// requested card (theirs), else their default; a price and no card is "payment_required".
    /// Reads the local mirror of their cards only: never the provider.
    pub(super) async fn opening(
        &self,
        client_id: ClientId,
        slot: &Slot,
        session: &Session,
        requested: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<settle::Opening, Error> {
        let price = slot.price_cents();
        let card = if price > 0 {
            cards::card_for_booking(&self.db, client_id, requested).await?
        } else {
            None
        };
        let fees = (
            slot.policy.late_cancellation_fee_percent,
            slot.policy.no_show_fee_percent,
        );
        settle::opening(price, fees, card, session.starts_at, now).require_card()
    }
}

/// The idempotency key the gateway passed along (the client's `Idempotency-Key`), if any.
pub(super) fn idempotency_key<T>(request: &Request<T>) -> Option<String> {
    request
        .metadata()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .filter(|k| !k.is_empty())
        .map(str::to_owned)
}

/// The answer to a booking request whose key already made `row`: that booking, when the request
/// asks for the same coach, slot and date; refused when the key made another booking.
pub(super) fn made_with_key(
    row: BookingRow,
    coach_id: CoachId,
    slot_id: SlotId,
    date: BookingDate,
) -> Result<Response<pb::CreateBookingResponse>, Status> {
    if row.coach_id != coach_id.0 || row.slot_id != slot_id.0 || row.booking_date != date.get() {
        return Err(Error::KeyUsed.into());
    }
    tracing::info!(booking_id = %row.booking_id, "booking request retried with its key; answered the booking it made");
    Ok(Response::new(pb::CreateBookingResponse { booking: one(row) }))
}
