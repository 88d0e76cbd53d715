//! The event kinds a webhook subscribes to, and what each event of the stream is to a webhook:
//! its kind, the record it is about (deliveries of one record go in order), who may see it, and
//! the `data` of its body.

use platform::events::{BookingFact, Event, Party, ReservationFact};
use serde_json::{Map, Value, json};
use uuid::Uuid;

/// Every kind a webhook may subscribe to.
pub const KINDS: &[&str] = &[
    "booking.created",
    "booking.confirmed",
    "booking.denied",
    "booking.cancelled",
    "booking.rescheduled",
    "booking.expired",
    "booking.completed",
    "booking.no_show",
    "court_request.created",
    "court_request.approved",
    "court_request.denied",
    "court_request.cancelled",
    "court_request.expired",
    "review.posted",
    "payment.captured",
    "payment.refunded",
    "payment.failed",
];

/// The kind of the test button's event, sent to one webhook whatever it subscribes to.
pub const TEST: &str = "webhook.test";

/// What one event is to the webhooks.
#[derive(Clone, Debug, PartialEq)]
pub struct Occurrence {
    pub kind: &'static str,
    /// `booking:<id>`, `court_request:<id>` or `review:<id>`.
    pub record_key: String,
    /// The users whose own records these are (admins see every event besides).
    pub owners: Vec<Uuid>,
    pub data: Value,
}

fn party(p: Party) -> &'static str {
    match p {
        Party::Client => "client",
        Party::Coach => "coach",
        Party::Gym => "gym",
    }
}

fn booking(b: &BookingFact, kind: &'static str, status: Option<&str>, extra: Value) -> Occurrence {
    let mut data = match serde_json::to_value(b) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    if let Some(status) = status {
        data.insert("status".into(), json!(status));
    }
    if let Value::Object(extra) = extra {
        data.extend(extra);
    }
    Occurrence {
        kind,
        record_key: format!("booking:{}", b.booking_id),
        // A coach's own sessions; a client cannot subscribe.
        owners: vec![b.coach_id],
        data: Value::Object(data),
    }
}

fn reservation(r: &ReservationFact, kind: &'static str, status: &str, extra: Value) -> Occurrence {
    let mut data = match serde_json::to_value(r) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    data.insert("status".into(), json!(status));
    if let Value::Object(extra) = extra {
        data.extend(extra);
    }
    Occurrence {
        kind,
        record_key: format!("court_request:{}", r.reservation_id),
        // The coach who asked, and the gym asked.
        owners: vec![r.coach_id, r.gym_id],
        data: Value::Object(data),
    }
}

/// What `event` is to the webhooks; `None` for the events no kind stands for (identity's own, a
/// coach's figures).
pub fn occurrence(event: &Event) -> Option<Occurrence> {
    let none = Value::Null;
    Some(match event {
        Event::BookingRequested { booking: b } => booking(b, "booking.created", Some("pending"), none),
        Event::BookingConfirmed { booking: b } => booking(b, "booking.confirmed", Some("confirmed"), none),
        Event::BookingDenied { booking: b } => booking(b, "booking.denied", Some("denied"), none),
        Event::BookingCancelled {
            booking: b,
            by,
            reason,
            late,
        } => booking(
            b,
            if b.rescheduled_to.is_some() {
                "booking.rescheduled"
            } else {
                "booking.cancelled"
            },
            Some("cancelled"),
            json!({ "by": party(*by), "reason": reason, "late": late }),
        ),
        Event::BookingExpired { booking: b } => booking(b, "booking.expired", Some("expired"), none),
        Event::BookingCompleted { booking: b } => booking(b, "booking.completed", Some("completed"), none),
        Event::BookingNoShow { booking: b } => booking(b, "booking.no_show", Some("no_show"), none),
        Event::PaymentCaptured {
            booking: b,
            amount_cents,
            currency,
        } => booking(
            b,
            "payment.captured",
            None,
            json!({ "amount_cents": amount_cents, "currency": currency }),
        ),
        Event::PaymentRefunded {
            booking: b,
            amount_cents,
            currency,
            reason,
        } => booking(
            b,
            "payment.refunded",
            None,
            json!({ "amount_cents": amount_cents, "currency": currency, "reason": reason }),
        ),
        Event::PaymentFailed { booking: b, reason } => {
            booking(b, "payment.failed", None, json!({ "reason": reason }))
        }
        Event::ReservationRequested { reservation: r } => {
            reservation(r, "court_request.created", "pending", none)
        }
        Event::ReservationApproved { reservation: r } => {
            reservation(r, "court_request.approved", "approved", none)
        }
        Event::ReservationDenied {
            reservation: r,
            reason,
        } => reservation(r, "court_request.denied", "denied", json!({ "reason": reason })),
        Event::ReservationCancelled {
            reservation: r,
            by,
            reason,
        } => reservation(
            r,
            "court_request.cancelled",
            "cancelled",
            json!({ "by": party(*by), "reason": reason }),
        ),
        Event::ReservationExpired { reservation: r } => {
            reservation(r, "court_request.expired", "expired", none)
        }
        Event::ReviewPosted { review } => Occurrence {
            kind: "review.posted",
            record_key: format!("review:{}", review.review_id),
            // The coach reviewed.
            owners: vec![review.coach_id],
            data: serde_json::to_value(review).unwrap_or(Value::Null),
        },
        Event::UserDeleted { .. }
        | Event::UserRenamed { .. }
        | Event::RoleChanged { .. }
        | Event::CoachRatingChanged { .. } => return None,
    })
}

/// The kinds of `asked` that are not kinds, for the person who asked.
pub fn unknown(asked: &[String]) -> Vec<&str> {
    asked
        .iter()
        .map(String::as_str)
        .filter(|k| !KINDS.contains(k))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact() -> BookingFact {
        BookingFact {
            booking_id: Uuid::from_u128(1),
            coach_id: Uuid::from_u128(2),
            client_id: Uuid::from_u128(3),
            booking_date: "2026-03-08".into(),
            start_time: "10:00".into(),
            end_time: "11:00".into(),
            time_zone: "Europe/Paris".into(),
            starts_at: "2026-03-08T09:00:00Z".into(),
            ends_at: "2026-03-08T10:00:00Z".into(),
            location_name: "Court 1".into(),
            rescheduled_from: None,
            rescheduled_to: None,
        }
    }

    #[test]
    fn a_reschedule_is_a_creation_with_its_origin_and_a_rescheduled_cancellation() {
        let mut new = fact();
        new.rescheduled_from = Some(Uuid::from_u128(9));
        let created = occurrence(&Event::BookingRequested { booking: new }).unwrap();
        assert_eq!(created.kind, "booking.created");
        assert_eq!(created.data["rescheduled_from"], json!(Uuid::from_u128(9)));
        assert_eq!(created.data["status"], "pending");

        let mut old = fact();
        old.rescheduled_to = Some(Uuid::from_u128(10));
        let moved = occurrence(&Event::BookingCancelled {
            booking: old,
            by: Party::Client,
            reason: None,
            late: false,
        })
        .unwrap();
        assert_eq!(moved.kind, "booking.rescheduled");
        assert_eq!(moved.data["by"], "client");
        assert_eq!(moved.record_key, format!("booking:{}", Uuid::from_u128(1)));
        assert_eq!(moved.owners, vec![Uuid::from_u128(2)]);
    }

    #[test]
    fn every_kind_but_the_test_is_subscribable_and_others_are_named() {
        let asked = vec!["booking.created".to_owned(), "booking.exploded".to_owned()];
        assert_eq!(unknown(&asked), vec!["booking.exploded"]);
        assert!(!KINDS.contains(&TEST));
    }
}
