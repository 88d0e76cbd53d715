//! booking's facts for the other contexts: each change of a booking leaves as one
//! [`platform::events`] `Booking*` event, written to booking's outbox in the transaction that makes
//! it (see [`crate::lifecycle`]). Its payments leave the same way ([`payment_failed`],
//! [`payment_captured`], [`payment_refunded`]), written by the payment worker with their effect.

use platform::{
    events::{BookingFact, Envelope, Event, Party},
    instants::rfc3339,
    outbox::envelope,
};

use crate::{
    domain::{Status, format_time},
    error::Error,
    store::{BookingRow, NewBooking},
};

/// What every booking event says about the booking.
pub fn fact(row: &BookingRow) -> BookingFact {
    BookingFact {
        booking_id: row.booking_id,
        coach_id: row.coach_id,
        client_id: row.client_id,
        booking_date: row.booking_date.to_string(),
        start_time: format_time(row.start_time),
        end_time: format_time(row.end_time),
        time_zone: row.time_zone.clone(),
        starts_at: rfc3339(row.starts_at),
        ends_at: rfc3339(row.ends_at),
        location_name: row.location_name.clone(),
        rescheduled_from: row.rescheduled_from,
        rescheduled_to: row.rescheduled_to,
    }
}

/// The `booking_requested` event of a booking about to be inserted (written in the same
/// statement as it).
pub fn requested(new: &NewBooking<'_>) -> Envelope {
    envelope(Event::BookingRequested {
        booking: BookingFact {
            booking_id: new.booking_id.0,
            coach_id: new.coach_id.0,
            client_id: new.client_id.0,
            booking_date: new.booking_date.to_string(),
            start_time: format_time(new.start_time),
            end_time: format_time(new.end_time),
            time_zone: new.time_zone.to_owned(),
            starts_at: rfc3339(new.starts_at),
            ends_at: rfc3339(new.ends_at),
            location_name: new.location_name.to_owned(),
            rescheduled_from: new.rescheduled_from.map(|id| id.0),
            rescheduled_to: None,
        },
    })
}

/// The event of the transition that has just left `row` as it is.
pub fn event(row: &BookingRow) -> Result<Event, Error> {
    let booking = fact(row);
    Ok(match row.status.parse::<Status>()? {
        Status::Pending => Event::BookingRequested { booking },
        Status::Confirmed => Event::BookingConfirmed { booking },
        Status::Denied => Event::BookingDenied { booking },
        Status::Cancelled => Event::BookingCancelled {
            booking,
            by: match row.cancelled_by.as_deref() {
                Some("coach") => Party::Coach,
                _ => Party::Client,
            },
            reason: row.cancellation_reason.clone(),
            late: row.late_cancellation,
        },
        Status::Expired => Event::BookingExpired { booking },
        Status::Completed => Event::BookingCompleted { booking },
        Status::NoShow => Event::BookingNoShow { booking },
    })
}

/// The envelope of [`event`].
pub fn envelope_of(row: &BookingRow) -> Result<Envelope, Error> {
    Ok(envelope(event(row)?))
}

/// The hold of `row`'s price was declined: the client is asked to fix their card.
pub fn payment_failed(row: &BookingRow, reason: &str) -> Envelope {
    envelope(Event::PaymentFailed {
        booking: fact(row),
        reason: reason.to_owned(),
    })
}

/// `amount_cents` of `row`'s price (or fee) was captured: a receipt.
pub fn payment_captured(row: &BookingRow, amount_cents: i64) -> Envelope {
    envelope(Event::PaymentCaptured {
        booking: fact(row),
        amount_cents,
        currency: row.currency.clone(),
    })
}

/// `amount_cents` of what `row`'s client paid was refunded, because of `reason`.
pub fn payment_refunded(row: &BookingRow, amount_cents: i64, reason: &str) -> Envelope {
    envelope(Event::PaymentRefunded {
        booking: fact(row),
        amount_cents,
        currency: row.currency.clone(),
        reason: reason.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
    use uuid::Uuid;

    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    fn row(status: &str) -> BookingRow {
        BookingRow {
            booking_id: Uuid::new_v4(),
            client_id: Uuid::new_v4(),
            coach_id: Uuid::new_v4(),
            slot_id: Uuid::new_v4(),
            booking_date: NaiveDate::from_ymd_opt(2026, 3, 8).unwrap(),
            start_time: NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
            end_time: NaiveTime::from_hms_opt(10, 0, 0).unwrap(),
            location_name: "Eastside Rec".into(),
            status: status.into(),
            payment_status: "pending".into(),
            created_at: at("2026-03-01T10:00:00Z"),
            time_zone: "America/Chicago".into(),
            starts_at: at("2026-03-08T14:00:00Z"),
            ends_at: at("2026-03-08T15:00:00Z"),
            expires_at: at("2026-03-03T10:00:00Z"),
            cancellation_window_minutes: 1440,
            late_cancellation: false,
            cancelled_by: None,
            cancellation_reason: None,
            rescheduled_from: None,
            rescheduled_to: None,
            price_cents: 7500,
            currency: "usd".into(),
            amount_paid_cents: 0,
            amount_refunded_cents: 0,
            late_cancellation_fee_percent: 50,
            no_show_fee_percent: 100,
            payment_method_id: None,
            payment_intent_id: None,
            payment_generation: 0,
            charge_cents: None,
            payment_attempts: 0,
            payment_error: None,
        }
    }

    #[test]
    fn each_status_a_booking_reaches_is_told_as_its_own_event() {
        let cases = [
            ("pending", "booking_requested"),
            ("confirmed", "booking_confirmed"),
            ("denied", "booking_denied"),
            ("cancelled", "booking_cancelled"),
            ("expired", "booking_expired"),
            ("completed", "booking_completed"),
            ("no_show", "booking_no_show"),
        ];
        for (status, kind) in cases {
            let json = serde_json::to_value(event(&row(status)).unwrap()).unwrap();
            assert_eq!(json["type"], kind, "{status}");
            assert_eq!(json["booking"]["starts_at"], "2026-03-08T14:00:00Z");
            assert_eq!(json["booking"]["time_zone"], "America/Chicago");
            assert_eq!(json["booking"]["start_time"], "09:00");
        }
    }

    #[test]
    fn the_request_written_with_a_new_booking_tells_what_its_row_would() {
        let row = row("pending");
        let new = NewBooking {
            rescheduled_from: None,
            booking_id: crate::domain::BookingId(row.booking_id),
            client_id: crate::domain::ClientId(row.client_id),
            coach_id: crate::domain::CoachId(row.coach_id),
            slot_id: crate::domain::SlotId(row.slot_id),
            booking_date: row.booking_date,
            start_time: row.start_time,
            end_time: row.end_time,
            location_name: &row.location_name,
            time_zone: &row.time_zone,
            starts_at: row.starts_at,
            ends_at: row.ends_at,
            created_at: row.created_at,
            expires_at: row.expires_at,
            cancellation_window_minutes: row.cancellation_window_minutes,
            idempotency_key: None,
            payment: crate::payments::settle::opening(0, (50, 100), None, row.starts_at, row.created_at),
        };
        assert_eq!(requested(&new).event, event(&row).unwrap());
    }

    #[test]
    fn a_cancel_says_who_why_and_whether_it_was_late() {
        let cancelled = BookingRow {
            cancelled_by: Some("coach".into()),
            cancellation_reason: Some("I am ill".into()),
            ..row("cancelled")
        };
        let Event::BookingCancelled { by, reason, late, .. } = event(&cancelled).unwrap() else {
            panic!("a cancel event");
        };
        assert_eq!(
            (by, reason.as_deref(), late),
            (Party::Coach, Some("I am ill"), false)
        );

        let late_client = BookingRow {
            cancelled_by: Some("client".into()),
            late_cancellation: true,
            ..row("cancelled")
        };
        assert!(matches!(
            event(&late_client).unwrap(),
            Event::BookingCancelled {
                by: Party::Client,
                late: true,
                reason: None,
                ..
            }
        ));
    }
}
