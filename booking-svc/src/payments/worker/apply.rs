//! The worker's writes: what the provider did, applied to a booking (locked again) only when the
//! booking still stands where the step found it, with its payment lines, ledger transaction,
//! event and next due time, in one transaction; the refunds likewise.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{Payments, backoff_after, wanted_at};
use crate::{
    domain::BookingId,
    error::Error,
    facts,
    payments::{
        ledger,
        money::{platform_fee, refund_fee},
        settle::{self, FAILED_GRACE},
    },
    store::{self, BookingRow, booking_columns},
};

/// Why the worker cancels a booking whose hold stayed declined.
pub const DECLINED_REASON: &str = "the card on file was declined and not replaced";

/// What a step came to at the provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing happened (or nothing was due): only the next due time is written.
    Nothing,
    /// The price is held on `intent`.
    Authorized { intent: String },
    /// The hold was declined (`intent`: the intent it was tried on, if one was made).
    Declined { intent: Option<String>, reason: String },
    /// `amount` was captured, the rest released.
    Captured { amount: i64 },
    /// The hold was let go (or nothing was ever held).
    Released { intent: Option<String> },
    /// The hold stayed declined until [`FAILED_GRACE`] before the start.
    CancelBooking,
}

/// The client's customer at the provider, if they have one.
pub async fn customer_of(db: &PgPool, client_id: Uuid) -> Result<Option<String>, Error> {
    Ok(sqlx::query_scalar::<_, String>(
        "select customer_id from booking.payment_customer where client_id = $1",
    )
    .bind(client_id)
    .fetch_optional(db)
    .await?)
}

/// Keeps the id of the intent created for `row`'s hold (not yet confirmed), when the row still
/// wants that hold: same generation, no intent yet.
pub async fn intent_created(
    db: &PgPool,
    row: &BookingRow,
    intent: &str,
    now: DateTime<Utc>,
) -> Result<bool, Error> {
    let kept = sqlx::query(
        "update booking.booking set payment_intent_id = $2, updated_at = $4
         where booking_id = $1 and payment_generation = $3 and payment_intent_id is null
           and payment_status in ('pending', 'failed')",
    )
    .bind(row.booking_id)
    .bind(intent)
    .bind(row.payment_generation)
    .bind(now)
    .execute(db)
    .await?
    .rows_affected();
    Ok(kept == 1)
}

/// The step is tried again after the backoff; `why` is kept (a failed booking keeps its
/// provider's message).
pub async fn postpone(
    db: &PgPool,
    booking_id: Uuid,
    attempts: i32,
    why: &str,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query(
        "update booking.booking
         set payment_attempts = payment_attempts + 1, payment_due_at = $2,
             payment_error = case when payment_status = 'failed' then payment_error else $3 end,
             payment_lease_until = null
         where booking_id = $1",
    )
    .bind(booking_id)
    .bind(now + backoff_after(attempts))
    .bind(why)
    .execute(db)
    .await?;
    Ok(())
}

/// One movement of a booking's money, as its receipt lists it.
async fn line(
    tx: &mut PgConnection,
    booking_id: Uuid,
    kind: &str,
    amount: i64,
    reason: Option<&str>,
    provider_ref: Option<&str>,
    at: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query(
        "insert into booking.payment_line (line_id, booking_id, kind, amount_cents, reason,
                                           provider_ref, at)
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(Uuid::now_v7())
    .bind(booking_id)
    .bind(kind)
    .bind(amount)
    .bind(reason)
    .bind(provider_ref)
    .bind(at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Sets a (locked) booking's payment status, clearing the error and the attempts.
async fn set_payment(
    tx: &mut PgConnection,
    booking_id: Uuid,
    status: &str,
    now: DateTime<Utc>,
) -> Result<BookingRow, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking
         set payment_status = $2, payment_error = null, payment_attempts = 0, updated_at = $3
         where booking_id = $1 returning ",
        booking_columns!()
    ))
    .bind(booking_id)
    .bind(status)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?)
}

/// Applies `outcome` of the step the worker ran on `claimed`; true when it changed the booking.
/// Writes the next due time (and clears the lease) in any case.
pub async fn outcome(
    p: &Payments,
    claimed: &BookingRow,
    outcome: Outcome,
    now: DateTime<Utc>,
) -> Result<bool, Error> {
    let mut tx = p.db.begin().await?;
    let id = claimed.booking_id;
    let Some(row) = store::lock_booking(&mut tx, BookingId(id)).await? else {
        return Ok(false);
    };
    let mut events = Vec::new();
    let status = row.payment_status.as_str();
    let open = matches!(status, "pending" | "failed");
    let after = match outcome {
        Outcome::Nothing => None,
        Outcome::Authorized { intent } if open && row.payment_intent_id.as_deref() == Some(&intent) => {
            line(&mut tx, id, "hold", row.price_cents, None, Some(&intent), now).await?;
            Some(set_payment(&mut tx, id, "authorized", now).await?)
        }
        Outcome::Declined { intent, reason }
            if open
                && row.payment_intent_id == intent
                && row.payment_generation == claimed.payment_generation =>
        {
            let failed = sqlx::query_as::<_, BookingRow>(concat!(
                "update booking.booking
                 set payment_status = 'failed', payment_error = $2, payment_intent_id = null,
                     payment_attempts = 0, updated_at = $3
                 where booking_id = $1 returning ",
                booking_columns!()
            ))
            .bind(id)
            .bind(&reason)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            events.push(facts::payment_failed(&failed, &reason));
            tracing::info!(booking_id = %id, reason, "hold declined");
            Some(failed)
        }
        Outcome::Captured { amount } if status == "authorized" && row.amount_paid_cents == 0 => {
            let fee = platform_fee(amount, p.fee_bps);
            ledger::book_capture(&mut tx, id, row.coach_id, amount, fee, now).await?;
            let intent = row.payment_intent_id.as_deref();
            line(&mut tx, id, "capture", amount, None, intent, now).await?;
            if amount < row.price_cents {
                line(
                    &mut tx,
                    id,
                    "release",
                    row.price_cents - amount,
                    None,
                    intent,
                    now,
                )
                .await?;
            }
            let paid = if amount >= row.price_cents {
                "paid"
            } else {
                "partially_paid"
            };
            let captured = sqlx::query_as::<_, BookingRow>(concat!(
                "update booking.booking
                 set payment_status = $2, amount_paid_cents = $3, payment_error = null,
                     payment_attempts = 0, updated_at = $4
                 where booking_id = $1 returning ",
                booking_columns!()
            ))
            .bind(id)
            .bind(paid)
            .bind(amount)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            // A no-show below the price marked while the price was being captured.
            if let Some(charge) = captured.charge_cents.filter(|c| *c < amount) {
                settle::refund_excess(&mut tx, id, row.coach_id, charge, now).await?;
            }
            events.push(facts::payment_captured(&captured, amount));
            tracing::info!(booking_id = %id, amount, fee, "payment captured");
            Some(captured)
        }
        Outcome::Released { intent } if (open || status == "authorized") && row.amount_paid_cents == 0 => {
            if status == "authorized" {
                line(
                    &mut tx,
                    id,
                    "release",
                    row.price_cents,
                    None,
                    intent.as_deref(),
                    now,
                )
                .await?;
            }
            Some(set_payment(&mut tx, id, "released", now).await?)
        }
        Outcome::CancelBooking
            if status == "failed"
                && row.payment_error.is_some()
                && matches!(row.status.as_str(), "pending" | "confirmed")
                && now >= row.starts_at - FAILED_GRACE =>
        {
            let cancelled = sqlx::query_as::<_, BookingRow>(concat!(
                "update booking.booking
                 set status = 'cancelled', cancelled_by = null, cancellation_reason = $2,
                     late_cancellation = false, charge_cents = 0, payment_status = 'released',
                     updated_at = $3
                 where booking_id = $1 returning ",
                booking_columns!()
            ))
            .bind(id)
            .bind(DECLINED_REASON)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            events.push(facts::envelope_of(&cancelled)?);
            tracing::info!(booking_id = %id, "booking cancelled: its hold stayed declined");
            Some(cancelled)
        }
        stale => {
            tracing::info!(booking_id = %id, ?stale, payment_status = status, "payment step outdated by a change; not applied");
            None
        }
    };
    let applied = after.is_some();
    let now_row = after.unwrap_or(row);
    sqlx::query(
        "update booking.booking set payment_due_at = $2, payment_lease_until = null
         where booking_id = $1",
    )
    .bind(id)
    .bind(wanted_at(&now_row, now))
    .execute(&mut *tx)
    .await?;
    store::record_events(&mut tx, &events).await?;
    tx.commit().await?;
    Ok(applied)
}

/// A refund the worker claimed, with its booking's captured intent.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RefundRow {
    pub refund_id: Uuid,
    pub booking_id: Uuid,
    pub amount_cents: i64,
    pub reason: String,
    pub attempts: i32,
    pub payment_intent_id: Option<String>,
}

/// Claims (leases and commits) up to `limit` refunds due at `now`.
pub async fn claim_refunds(db: &PgPool, now: DateTime<Utc>, limit: i64) -> Result<Vec<RefundRow>, Error> {
    Ok(sqlx::query_as::<_, RefundRow>(
        "update booking.refund r set lease_until = $2
         from (select refund_id as due_id from booking.refund
               where done_at is null and due_at <= $1
                 and (lease_until is null or lease_until <= $1)
               order by due_at
               limit $3
               for update skip locked) due
         where r.refund_id = due.due_id
         returning r.refund_id, r.booking_id, r.amount_cents, r.reason, r.attempts,
                   (select b.payment_intent_id from booking.booking b
                    where b.booking_id = r.booking_id) as payment_intent_id",
    )
    .bind(now)
    .bind(now + super::LEASE)
    .bind(limit)
    .fetch_all(db)
    .await?)
}

/// The refund is tried again after the backoff; `why` is kept on it.
pub async fn postpone_refund(
    db: &PgPool,
    refund: &RefundRow,
    why: &str,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    tracing::warn!(refund_id = %refund.refund_id, why, "refund postponed");
    sqlx::query(
        "update booking.refund
         set attempts = attempts + 1, due_at = $2, error = $3, lease_until = null
         where refund_id = $1",
    )
    .bind(refund.refund_id)
    .bind(now + backoff_after(refund.attempts))
    .bind(why)
    .execute(db)
    .await?;
    Ok(())
}

/// Books a refund the provider made (`provider_id`): the refund done, the ledger, the booking's
/// amount refunded and status, its line and its event; false when it was already booked.
pub async fn refunded(
    p: &Payments,
    refund: &RefundRow,
    provider_id: &str,
    now: DateTime<Utc>,
) -> Result<bool, Error> {
    let mut tx = p.db.begin().await?;
    let id = refund.booking_id;
    let row = store::lock_booking(&mut tx, BookingId(id))
        .await?
        .ok_or_else(|| Error::NotFound("the refund's booking is gone".into()))?;
    let done = sqlx::query(
        "update booking.refund
         set done_at = $2, provider_refund_id = $3, lease_until = null, due_at = null, error = null
         where refund_id = $1 and done_at is null",
    )
    .bind(refund.refund_id)
    .bind(now)
    .bind(provider_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if done == 0 {
        return Ok(false);
    }
    let amount = refund.amount_cents;
    let captured = ledger::captured_of(&mut *tx, id).await?;
    let fee_back = refund_fee(captured, amount);
    ledger::book_refund(&mut tx, id, row.coach_id, refund.refund_id, amount, fee_back, now).await?;
    let total = row.amount_refunded_cents + amount;
    let status = if total >= row.amount_paid_cents {
        "refunded"
    } else {
        "partially_refunded"
    };
    let after = sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking
         set amount_refunded_cents = $2, payment_status = $3, updated_at = $4
         where booking_id = $1 returning ",
        booking_columns!()
    ))
    .bind(id)
    .bind(total)
    .bind(status)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    line(
        &mut tx,
        id,
        "refund",
        amount,
        Some(&refund.reason),
        Some(provider_id),
        now,
    )
    .await?;
    store::record_events(
        &mut tx,
        &[facts::payment_refunded(&after, amount, &refund.reason)],
    )
    .await?;
    tx.commit().await?;
    tracing::info!(booking_id = %id, refund_id = %refund.refund_id, amount, fee_back, "refund booked");
    Ok(true)
}
