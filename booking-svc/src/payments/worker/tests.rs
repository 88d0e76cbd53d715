use chrono::{NaiveDate, NaiveTime};
use uuid::Uuid;

use super::*;

fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

const NOW: &str = "2026-03-01T10:00:00Z";

/// A $75.00 booking starting 2026-03-10 15:00Z, its payment `payment_status`, its outcome
/// `charge`.
fn row(payment_status: &str, charge: Option<i64>) -> BookingRow {
    BookingRow {
        booking_id: Uuid::new_v4(),
        client_id: Uuid::new_v4(),
        coach_id: Uuid::new_v4(),
        slot_id: Uuid::new_v4(),
        booking_date: NaiveDate::from_ymd_opt(2026, 3, 10).unwrap(),
        start_time: NaiveTime::from_hms_opt(15, 0, 0).unwrap(),
        end_time: NaiveTime::from_hms_opt(16, 0, 0).unwrap(),
        location_name: String::new(),
        status: "confirmed".into(),
        payment_status: payment_status.into(),
        created_at: at("2026-02-28T10:00:00Z"),
        time_zone: "UTC".into(),
        starts_at: at("2026-03-10T15:00:00Z"),
        ends_at: at("2026-03-10T16:00:00Z"),
        expires_at: at("2026-03-02T10:00:00Z"),
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
        payment_method_id: Some("pm_1".into()),
        payment_intent_id: Some("pi_1".into()).filter(|_| payment_status == "authorized"),
        payment_generation: 0,
        charge_cents: charge,
        payment_attempts: 0,
        payment_error: None,
    }
}

#[test]
fn an_open_booking_is_held_six_days_before_its_start_and_then_waits_for_its_outcome() {
    let pending = row("pending", None);
    assert_eq!(step_of(&pending), Step::Hold);
    assert_eq!(wanted_at(&pending, at(NOW)), Some(at("2026-03-04T15:00:00Z")));
    assert_eq!(
        wanted_at(&pending, at("2026-03-05T00:00:00Z")),
        Some(at("2026-03-05T00:00:00Z"))
    );
    let held = row("authorized", None);
    assert_eq!((step_of(&held), wanted_at(&held, at(NOW))), (Step::Nothing, None));
}

#[test]
fn an_outcome_on_a_hold_captures_the_charge_or_releases_it_at_once() {
    let completed = row("authorized", Some(7500));
    assert_eq!(
        step_of(&completed),
        Step::Capture {
            intent: "pi_1".into(),
            amount: 7500
        }
    );
    assert_eq!(wanted_at(&completed, at(NOW)), Some(at(NOW)));
    let late = row("authorized", Some(3750));
    assert!(matches!(step_of(&late), Step::Capture { amount: 3750, .. }));
    let denied = row("authorized", Some(0));
    assert_eq!(
        step_of(&denied),
        Step::Release {
            intent: Some("pi_1".into())
        }
    );
}

#[test]
fn an_outcome_before_any_hold_releases_without_a_call_or_holds_then_charges_a_fee() {
    assert_eq!(step_of(&row("pending", Some(0))), Step::Release { intent: None });
    let fee = row("pending", Some(3750));
    assert_eq!(
        (step_of(&fee), wanted_at(&fee, at(NOW))),
        (Step::Hold, Some(at(NOW)))
    );
}

#[test]
fn a_declined_hold_waits_for_a_new_card_and_is_cancelled_a_day_before_the_start() {
    let failed = BookingRow {
        payment_error: Some("Your card was declined.".into()),
        ..row("failed", None)
    };
    assert_eq!(step_of(&failed), Step::CancelBooking);
    assert_eq!(wanted_at(&failed, at(NOW)), Some(at("2026-03-09T15:00:00Z")));
    // A new default card: the error cleared, held again when a hold is due (at once within
    // six days of the start).
    let retried = row("failed", None);
    assert_eq!(step_of(&retried), Step::Hold);
    assert_eq!(wanted_at(&retried, at(NOW)), Some(at("2026-03-04T15:00:00Z")));
    let soon = at("2026-03-08T10:00:00Z");
    assert_eq!(wanted_at(&retried, soon), Some(soon));
    // Cancelled meanwhile: nothing was held, nothing to charge.
    let cancelled = BookingRow {
        payment_error: Some("Your card was declined.".into()),
        ..row("failed", Some(0))
    };
    assert_eq!(step_of(&cancelled), Step::Release { intent: None });
    let late_fee = BookingRow {
        payment_error: Some("Your card was declined.".into()),
        ..row("failed", Some(3750))
    };
    assert_eq!(
        (step_of(&late_fee), wanted_at(&late_fee, at(NOW))),
        (Step::Nothing, None)
    );
}

#[test]
fn a_settled_payment_wants_nothing_more() {
    for status in [
        "none",
        "paid",
        "partially_paid",
        "released",
        "refunded",
        "partially_refunded",
    ] {
        assert_eq!(wanted_at(&row(status, Some(7500)), at(NOW)), None, "{status}");
    }
}

#[test]
fn the_backoff_doubles_from_five_seconds_to_at_most_ten_minutes() {
    let waits: Vec<i64> = (0..9).map(|n| backoff_after(n).num_seconds()).collect();
    assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 600, 600]);
    assert_eq!(backoff_after(1000).num_seconds(), 600);
}
