//! What each booking transition decides about its money, written in that transition's own
//! transaction; the payment worker ([`super::worker`]) carries it out later, at the provider.
//!
//! A booking's payment columns say where it stands and what is wanted of it:
//! - `payment_status` is the truth so far (payments.proto's vocabulary);
//! - `charge_cents` is the outcome: null while the booking is open (hold the price), a number
//!   once its transition decided it (capture that much, release the rest);
//! - `payment_due_at` is when the worker acts next (null: nothing to do).
//!
//! A paid booking starts `pending` with its hold due at once, or [`HOLD_AHEAD`] before it starts
//! when it is further out (a hold lapses after 7 days). A declined hold leaves it `failed`, with
//! the provider's message in `payment_error`, due again [`FAILED_GRACE`] before the start, when
//! the worker cancels it if it is still failed. A client who fixes their card (a new default)
//! gets their failed open bookings back: `payment_generation` + 1, the new card, `payment_error`
//! null, due now; a `failed` booking whose `payment_error` is null is one to hold again.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::money::{dollars, percent_of};
use crate::{
    domain::Status,
    error::Error,
    store::{BookingRow, booking_columns},
};

/// A hold is made this long before the session starts (a hold lapses after 7 days).
pub const HOLD_AHEAD: Duration = Duration::days(6);

/// A booking whose hold is still declined this long before its start is cancelled.
pub const FAILED_GRACE: Duration = Duration::hours(24);

/// How a new booking's payment starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub price_cents: i64,
    pub late_cancellation_fee_percent: i32,
    pub no_show_fee_percent: i32,
    /// `none` (free) or `pending`.
    pub payment_status: &'static str,
    /// The card to hold the price on (None when free).
    pub payment_method_id: Option<String>,
    /// When the worker makes the hold (None when free).
    pub payment_due_at: Option<DateTime<Utc>>,
}

/// The payment of a booking of `price_cents` starting at `starts_at`, made at `now` with `card`:
/// free needs nothing; a price is held at once, or [`HOLD_AHEAD`] before the start (a price needs
/// a card: [`Opening::require_card`]).
pub fn opening(
    price_cents: i64,
    fees: (i32, i32),
    card: Option<String>,
    starts_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Opening {
    let (late_cancellation_fee_percent, no_show_fee_percent) = fees;
    if price_cents <= 0 {
        return Opening {
            price_cents: 0,
            late_cancellation_fee_percent,
            no_show_fee_percent,
            payment_status: "none",
            payment_method_id: None,
            payment_due_at: None,
        };
    }
    Opening {
        price_cents,
        late_cancellation_fee_percent,
        no_show_fee_percent,
        payment_status: "pending",
        payment_method_id: card,
        payment_due_at: Some(now.max(starts_at - HOLD_AHEAD)),
    }
}

impl Opening {
    /// Ok when it is free or has a card; a price and no card is [`Error::PaymentRequired`].
    pub fn require_card(self) -> Result<Self, Error> {
        if self.price_cents > 0 && self.payment_method_id.is_none() {
            return Err(payment_required(self.price_cents));
        }
        Ok(self)
    }
}

/// A paid session and no card: what the client reads (after "payment_required: ").
pub fn payment_required(price_cents: i64) -> Error {
    Error::PaymentRequired(format!(
        "This session costs {}. Add a card under Payment methods on your dashboard, then book again.",
        dollars(price_cents)
    ))
}

/// The charge the transition that left `row` as it is decides: None while it is open. Denied,
/// expired, cancelled by the coach, by the system or by the client in time: nothing; a late
/// cancel: the late fee; completed: the price; no-show: the no-show fee.
pub fn charge_of(row: &BookingRow) -> Result<Option<i64>, Error> {
    let price = row.price_cents;
    Ok(match row.status.parse::<Status>()? {
        Status::Pending | Status::Confirmed => None,
        Status::Denied | Status::Expired => Some(0),
        Status::Cancelled if row.cancelled_by.as_deref() == Some("client") && row.late_cancellation => {
            Some(percent_of(price, row.late_cancellation_fee_percent))
        }
        Status::Cancelled => Some(0),
        Status::Completed => Some(price),
        Status::NoShow => Some(percent_of(price, row.no_show_fee_percent)),
    })
}

/// Writes the outcome of the transitions that have just left `rows` as they are (locked by the
/// caller, in the transaction that moved them): `charge_cents`, and the worker due now. Free
/// bookings cost no statement; the paid ones of a batch one, and one more for each that was
/// already captured beyond its new charge (a no-show marked after the capture of a completed
/// session: the difference is refunded).
pub async fn settle(tx: &mut PgConnection, rows: &[BookingRow], now: DateTime<Utc>) -> Result<(), Error> {
    let mut decided: Vec<(&BookingRow, i64)> = Vec::new();
    for row in rows {
        if row.payment_status == "none" || row.price_cents == 0 {
            continue;
        }
        if let Some(charge) = charge_of(row)?
            && row.charge_cents != Some(charge)
        {
            decided.push((row, charge));
        }
    }
    if decided.is_empty() {
        return Ok(());
    }
    let ids: Vec<Uuid> = decided.iter().map(|(row, _)| row.booking_id).collect();
    let charges: Vec<i64> = decided.iter().map(|(_, charge)| *charge).collect();
    sqlx::query(
        "update booking.booking b set charge_cents = u.charge, payment_due_at = $3
         from unnest($1::uuid[], $2::int8[]) as u(booking_id, charge)
         where b.booking_id = u.booking_id",
    )
    .bind(&ids)
    .bind(&charges)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    for (row, charge) in decided {
        if row.amount_paid_cents > 0 {
            refund_excess(tx, row.booking_id, row.coach_id, charge, now).await?;
        }
    }
    Ok(())
}

/// When a booking (locked) was captured beyond `charge` (a no-show fee below the price marked
/// after the capture): a refund of the difference, not yet asked for, less what is already
/// refunded or being refunded, due now. Its reason says why; `by` is the coach.
pub async fn refund_excess(
    tx: &mut PgConnection,
    booking_id: Uuid,
    by: Uuid,
    charge: i64,
    now: DateTime<Utc>,
) -> Result<Option<i64>, Error> {
    let excess = sqlx::query_scalar::<_, i64>(
        "select b.amount_paid_cents - b.amount_refunded_cents
                - coalesce((select sum(r.amount_cents) from booking.refund r
                            where r.booking_id = b.booking_id and r.done_at is null), 0)::int8
                - $2
         from booking.booking b where b.booking_id = $1",
    )
    .bind(booking_id)
    .bind(charge)
    .fetch_one(&mut *tx)
    .await?;
    if excess <= 0 {
        return Ok(None);
    }
    sqlx::query(
        "insert into booking.refund (refund_id, booking_id, amount_cents, reason, requested_by,
                                     requested_at, due_at)
         values ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(Uuid::now_v7())
    .bind(booking_id)
    .bind(excess)
    .bind(format!(
        "the outcome costs {} of what was captured; the rest is returned",
        dollars(charge)
    ))
    .bind(by)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(Some(excess))
}

/// A reschedule (in its transaction): `old` was cancelled by the move, `new` made. When the price
/// is the same, `old`'s price is held and `new` starts within [`HOLD_AHEAD`], the hold follows: `new` takes the intent and the card
/// and reads `authorized`, `old` reads `released` (no provider call). Otherwise `old` is released
/// (a move is never charged a fee) and `new` is held afresh, on its own card or `old`'s. Returns
/// `new` as it now stands.
pub async fn rescheduled(
    tx: &mut PgConnection,
    old: &BookingRow,
    new: &BookingRow,
    now: DateTime<Utc>,
) -> Result<BookingRow, Error> {
    // A hold lapses 7 days after it was made: it follows only to a session that would be held
    // now anyway (within HOLD_AHEAD), never to one further out.
    let follows = old.payment_status == "authorized"
        && old.charge_cents.is_none()
        && old.price_cents == new.price_cents
        && old.payment_intent_id.is_some()
        && new.starts_at <= now + HOLD_AHEAD;
    if follows {
        sqlx::query(
            "update booking.booking
             set payment_intent_id = null, payment_status = 'released', charge_cents = 0,
                 payment_due_at = null
             where booking_id = $1",
        )
        .bind(old.booking_id)
        .execute(&mut *tx)
        .await?;
        return Ok(sqlx::query_as::<_, BookingRow>(concat!(
            "update booking.booking
             set payment_intent_id = $2, payment_method_id = $3, payment_status = 'authorized',
                 payment_due_at = null
             where booking_id = $1
             returning ",
            booking_columns!()
        ))
        .bind(new.booking_id)
        .bind(old.payment_intent_id.as_deref())
        .bind(old.payment_method_id.as_deref())
        .fetch_one(&mut *tx)
        .await?);
    }
    if old.payment_status != "none" && old.price_cents > 0 {
        sqlx::query("update booking.booking set charge_cents = 0, payment_due_at = $2 where booking_id = $1")
            .bind(old.booking_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
    }
    if new.price_cents > 0 && new.payment_method_id.is_none() {
        let Some(card) = old.payment_method_id.as_deref() else {
            return Err(payment_required(new.price_cents));
        };
        return Ok(sqlx::query_as::<_, BookingRow>(concat!(
            "update booking.booking set payment_method_id = $2 where booking_id = $1 returning ",
            booking_columns!()
        ))
        .bind(new.booking_id)
        .bind(card)
        .fetch_one(&mut *tx)
        .await?);
    }
    Ok(new.clone())
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, NaiveTime};

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
            location_name: String::new(),
            status: status.into(),
            payment_status: "authorized".into(),
            created_at: at("2026-03-01T10:00:00Z"),
            time_zone: "UTC".into(),
            starts_at: at("2026-03-08T09:00:00Z"),
            ends_at: at("2026-03-08T10:00:00Z"),
            expires_at: at("2026-03-03T10:00:00Z"),
            cancellation_window_minutes: 1440,
            late_cancellation: false,
            cancelled_by: None,
            cancellation_reason: None,
            rescheduled_from: None,
            rescheduled_to: None,
            price_cents: 7501,
            currency: "usd".into(),
            amount_paid_cents: 0,
            amount_refunded_cents: 0,
            late_cancellation_fee_percent: 50,
            no_show_fee_percent: 40,
            payment_method_id: Some("pm_1".into()),
            payment_intent_id: Some("pi_1".into()),
            payment_generation: 0,
            charge_cents: None,
            payment_attempts: 0,
            payment_error: None,
        }
    }

    fn cancelled(by: Option<&str>, late: bool) -> BookingRow {
        BookingRow {
            cancelled_by: by.map(Into::into),
            late_cancellation: late,
            ..row("cancelled")
        }
    }

    #[test]
    fn an_open_booking_decides_nothing_yet() {
        assert_eq!(charge_of(&row("pending")).unwrap(), None);
        assert_eq!(charge_of(&row("confirmed")).unwrap(), None);
    }

    #[test]
    fn denied_expired_and_free_or_coach_or_system_cancels_charge_nothing() {
        assert_eq!(charge_of(&row("denied")).unwrap(), Some(0));
        assert_eq!(charge_of(&row("expired")).unwrap(), Some(0));
        assert_eq!(charge_of(&cancelled(Some("client"), false)).unwrap(), Some(0));
        assert_eq!(charge_of(&cancelled(Some("coach"), false)).unwrap(), Some(0));
        assert_eq!(charge_of(&cancelled(None, false)).unwrap(), Some(0));
    }

    #[test]
    fn a_late_client_cancel_charges_the_late_fee_rounded_half_away_from_zero() {
        // 50 % of $75.01 is $37.505: $37.51.
        assert_eq!(charge_of(&cancelled(Some("client"), true)).unwrap(), Some(3751));
        let free = BookingRow {
            late_cancellation_fee_percent: 0,
            ..cancelled(Some("client"), true)
        };
        assert_eq!(charge_of(&free).unwrap(), Some(0));
    }

    #[test]
    fn completion_charges_the_price_and_a_no_show_its_fee() {
        assert_eq!(charge_of(&row("completed")).unwrap(), Some(7501));
        // 40 % of $75.01 is $30.004: $30.00.
        assert_eq!(charge_of(&row("no_show")).unwrap(), Some(3000));
        let all = BookingRow {
            no_show_fee_percent: 100,
            ..row("no_show")
        };
        assert_eq!(charge_of(&all).unwrap(), Some(7501));
    }

    #[test]
    fn a_free_booking_needs_no_card_and_holds_nothing() {
        let now = at("2026-03-01T10:00:00Z");
        let open = opening(0, (50, 100), None, at("2026-03-02T10:00:00Z"), now)
            .require_card()
            .unwrap();
        assert_eq!(open.payment_status, "none");
        assert_eq!(open.payment_due_at, None);
        assert_eq!(open.payment_method_id, None);
    }

    #[test]
    fn a_paid_booking_without_a_card_is_refused_with_how_to_add_one() {
        let now = at("2026-03-01T10:00:00Z");
        let refused = opening(7500, (50, 100), None, at("2026-03-02T10:00:00Z"), now)
            .require_card()
            .unwrap_err();
        let Error::PaymentRequired(detail) = &refused else {
            panic!("payment required, got {refused:?}");
        };
        assert_eq!(
            detail,
            "This session costs $75.00. Add a card under Payment methods on your dashboard, then \
             book again."
        );
        let status: tonic::Status = refused.into();
        assert_eq!(status.code(), tonic::Code::FailedPrecondition);
        assert!(
            status
                .message()
                .starts_with("payment_required: This session costs $75.00.")
        );
    }

    #[test]
    fn a_hold_is_due_now_within_six_days_of_the_start_and_six_days_before_it_otherwise() {
        let now = at("2026-03-01T10:00:00Z");
        let card = Some("pm_1".to_owned());
        let soon = opening(7500, (50, 100), card.clone(), at("2026-03-05T10:00:00Z"), now);
        assert_eq!((soon.payment_status, soon.payment_due_at), ("pending", Some(now)));
        let far = opening(7500, (50, 100), card, at("2026-03-20T10:00:00Z"), now)
            .require_card()
            .unwrap();
        assert_eq!(far.payment_due_at, Some(at("2026-03-14T10:00:00Z")));
        assert_eq!(far.payment_method_id.as_deref(), Some("pm_1"));
    }
}
