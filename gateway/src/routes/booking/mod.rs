//! Booking routes: a client books a coach's slot, lists and cancels their bookings ([`client`]);
//! a coach lists, approves and denies the bookings with them, cancels a confirmed one and marks a
//! completed one no-show ([`coach`]). Every answer carries both names, resolved from identity-svc
//! in one batched call, and the booking's money (its price, what was captured and refunded, and
//! where its payment stands).

pub mod client;
pub mod coach;

use proto::booking::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    error::ApiError,
    extract::Session,
    names::{Names, named_one},
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
    /// What the session costs in whole cents, kept when it was booked (the coach's hourly rate
    /// times its length; a later rate change never changes it); 0 for a free session.
    #[schema(minimum = 0)]
    pub price_cents: i64,
    /// The currency of every amount, ISO 4217 in lower case: `usd`.
    #[schema(example = "usd")]
    pub currency: String,
    /// Captured from the client's card, whole cents (the price, a fee, or 0).
    #[schema(minimum = 0)]
    pub amount_paid_cents: i64,
    /// Refunded of what was captured, whole cents.
    #[schema(minimum = 0)]
    pub amount_refunded_cents: i64,
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
pub(crate) fn parties(b: &pb::BookingRecord) -> [String; 2] {
    [b.coach_id.clone(), b.client_id.clone()]
}

/// A booking with both names.
pub(crate) fn booking(b: pb::BookingRecord, names: &Names) -> Booking {
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
        price_cents: b.price_cents,
        currency: b.currency,
        amount_paid_cents: b.amount_paid_cents,
        amount_refunded_cents: b.amount_refunded_cents,
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
pub(crate) async fn one(
    state: &AppState,
    session: &Session,
    record: Option<pb::BookingRecord>,
) -> Result<Booking, ApiError> {
    named_one(state, session, "booking", record, parties, booking).await
}
