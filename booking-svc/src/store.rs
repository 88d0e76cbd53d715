//! booking's queries: one function per statement, schema-qualified, taking any executor (or the
//! pool, where a statement is retried).
//!
//! Double booking is refused here, by the database: the partial unique index
//! `booking_active_slot_key` and the exclusion constraint `booking_no_overlap_excl` (see the
//! migrations), mapped to [`Error::Conflict`] by constraint name. Every change of a booking is
//! written with its event ([`record_events`]) in one transaction.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use platform::{
    database::{Violation, violated},
    events::Envelope,
    outbox::Outbox,
};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

mod lists;

pub use lists::*;

use crate::{
    domain::{Booking, BookingId, ClientId, CoachId, SlotId, Status},
    error::Error,
    payments::settle::Opening,
};

/// A booking row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct BookingRow {
    pub booking_id: Uuid,
    pub client_id: Uuid,
    pub coach_id: Uuid,
    pub slot_id: Uuid,
    pub booking_date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub location_name: String,
    pub status: String,
    pub payment_status: String,
    pub created_at: DateTime<Utc>,
    pub time_zone: String,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub cancellation_window_minutes: i32,
    pub late_cancellation: bool,
    pub cancelled_by: Option<String>,
    pub cancellation_reason: Option<String>,
    /// The booking this one was moved from (a reschedule).
    pub rescheduled_from: Option<Uuid>,
    /// The booking this one was moved to (it was cancelled by the move).
    pub rescheduled_to: Option<Uuid>,
    /// Kept when it was made, whole cents ([`crate::payments`]).
    pub price_cents: i64,
    pub currency: String,
    pub amount_paid_cents: i64,
    pub amount_refunded_cents: i64,
    /// The coach's fees, kept when it was made (percent of the price).
    pub late_cancellation_fee_percent: i32,
    pub no_show_fee_percent: i32,
    /// The card its price is held on, and the hold (see [`crate::payments::settle`]).
    pub payment_method_id: Option<String>,
    pub payment_intent_id: Option<String>,
    pub payment_generation: i32,
    /// The outcome its transition decided: None while it is open (hold the price).
    pub charge_cents: Option<i64>,
    pub payment_attempts: i32,
    pub payment_error: Option<String>,
}

impl BookingRow {
    /// The row as the lifecycle rules see it.
    pub fn booking(&self) -> Result<Booking, Error> {
        Ok(Booking {
            client_id: ClientId(self.client_id),
            coach_id: CoachId(self.coach_id),
            status: self.status.parse()?,
            starts_at: self.starts_at,
            ends_at: self.ends_at,
            expires_at: self.expires_at,
            cancellation_window: Duration::minutes(i64::from(self.cancellation_window_minutes)),
        })
    }
}

/// The columns of [`BookingRow`], as a literal so statements stay `&'static str` (sqlx refuses
/// dynamically built SQL).
macro_rules! booking_columns {
    () => {
        "booking_id, client_id, coach_id, slot_id, booking_date, start_time, end_time, \
         location_name, status, payment_status, created_at, time_zone, starts_at, ends_at, \
         expires_at, cancellation_window_minutes, late_cancellation, cancelled_by, \
         cancellation_reason, rescheduled_from, rescheduled_to, price_cents, currency, \
         amount_paid_cents, amount_refunded_cents, late_cancellation_fee_percent, \
         no_show_fee_percent, payment_method_id, payment_intent_id, payment_generation, \
         charge_cents, payment_attempts, payment_error"
    };
}
pub(crate) use booking_columns;

/// What a new booking holds: who, which slot on which date, the slot's snapshot in its place's
/// zone, and what of the coach's policy it keeps.
pub struct NewBooking<'a> {
    pub booking_id: BookingId,
    pub client_id: ClientId,
    pub coach_id: CoachId,
    pub slot_id: SlotId,
    pub booking_date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub location_name: &'a str,
    pub time_zone: &'a str,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub cancellation_window_minutes: i32,
    /// The booking it replaces, when it is a reschedule.
    pub rescheduled_from: Option<BookingId>,
    /// The client's idempotency key for the request that makes it, when it had one.
    pub idempotency_key: Option<&'a str>,
    /// What it costs and how its payment starts ([`crate::payments::settle::opening`]).
    pub payment: Opening,
}

const SLOT_TAKEN: &str = "booking_active_slot_key";
const OVERLAP: &str = "booking_no_overlap_excl";
const KEY_USED: &str = "booking_client_idempotency_key";

/// Two inserts that conflict on the exclusion constraint at the same instant can each wait for
/// the other; PostgreSQL then aborts one of them with a deadlock, and retrying it meets the
/// winner's committed row, which is an ordinary violation.
pub fn is_deadlock(error: &Error) -> bool {
    matches!(error, Error::Database(e) if e
        .as_database_error()
        .is_some_and(|e| e.code().as_deref() == Some("40P01")))
}

/// Inserts a pending booking with its `booking_requested` event (`requested`, in booking's outbox)
/// in one statement, or says the slot (or an overlapping time of that coach) is taken. One
/// statement, committed at once: a competing insert waits on this row's constraint check for as
/// short a time as possible.
pub async fn insert_booking(
    db: impl PgExecutor<'_>,
    booking: &NewBooking<'_>,
    requested: &Envelope,
) -> Result<BookingRow, Error> {
    let payload = serde_json::to_string(requested).map_err(anyhow::Error::from)?;
    let result = sqlx::query_as::<_, BookingRow>(concat!(
        "with made as (
             insert into booking.booking (booking_id, client_id, coach_id, slot_id, booking_date,
                 start_time, end_time, location_name, status, payment_status, time_zone, starts_at,
                 ends_at, created_at, updated_at, expires_at, cancellation_window_minutes,
                 rescheduled_from, idempotency_key, price_cents, late_cancellation_fee_percent,
                 no_show_fee_percent, payment_method_id, payment_due_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $19, $9, $10, $11, $12, $12,
                     $13, $14, $17, $18, $20, $21, $22, $23, $24)
             returning ",
        booking_columns!(),
        "
         ), told as (
             insert into booking.outbox (event_id, payload)
             select $15, $16::jsonb from made
         )
         select ",
        booking_columns!(),
        " from made"
    ))
    .bind(booking.booking_id.0)
    .bind(booking.client_id.0)
    .bind(booking.coach_id.0)
    .bind(booking.slot_id.0)
    .bind(booking.booking_date)
    .bind(booking.start_time)
    .bind(booking.end_time)
    .bind(booking.location_name)
    .bind(booking.time_zone)
    .bind(booking.starts_at)
    .bind(booking.ends_at)
    .bind(booking.created_at)
    .bind(booking.expires_at)
    .bind(booking.cancellation_window_minutes)
    .bind(requested.event_id)
    .bind(payload)
    .bind(booking.rescheduled_from.map(|id| id.0))
    .bind(booking.idempotency_key)
    .bind(booking.payment.payment_status)
    .bind(booking.payment.price_cents)
    .bind(booking.payment.late_cancellation_fee_percent)
    .bind(booking.payment.no_show_fee_percent)
    .bind(booking.payment.payment_method_id.as_deref())
    .bind(booking.payment.payment_due_at)
    .fetch_one(db)
    .await;
    match result {
        Ok(row) => Ok(row),
        Err(e) if violated(&e, Violation::Unique, KEY_USED) => Err(Error::KeyUsed),
        Err(e) if violated(&e, Violation::Unique, SLOT_TAKEN) => Err(Error::Conflict(
            "This slot is already booked for that date. Please choose another date or slot.".into(),
        )),
        Err(e) if violated(&e, Violation::Exclusion, OVERLAP) => Err(Error::Conflict(
            "The coach already has a booking that overlaps this time on that date. \
             Please choose another date or slot."
                .into(),
        )),
        Err(e) => Err(e.into()),
    }
}

/// The booking a client made with an idempotency key, if any.
pub async fn booking_by_key(
    db: impl PgExecutor<'_>,
    client_id: ClientId,
    key: &str,
) -> Result<Option<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking where client_id = $1 and idempotency_key = $2"
    ))
    .bind(client_id.0)
    .bind(key)
    .fetch_optional(db)
    .await?)
}

/// One booking, locked until the transaction ends: a person's move and the scheduler's wait for
/// each other, so each sees what the other did.
pub async fn lock_booking(tx: &mut PgConnection, booking_id: BookingId) -> Result<Option<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking where booking_id = $1 for update"
    ))
    .bind(booking_id.0)
    .fetch_optional(tx)
    .await?)
}

/// How a booking was cancelled, when it was.
#[derive(Clone, Debug, Default)]
pub struct Cancellation {
    pub by: Option<&'static str>,
    pub reason: Option<String>,
    pub late: bool,
}

/// Moves one (locked) booking to `status`, recording how it was cancelled when it was.
pub async fn set_status(
    tx: &mut PgConnection,
    booking_id: BookingId,
    status: Status,
    cancellation: &Cancellation,
    now: DateTime<Utc>,
) -> Result<BookingRow, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking
         set status = $2, cancelled_by = $3, cancellation_reason = $4, late_cancellation = $5,
             updated_at = $6
         where booking_id = $1
         returning ",
        booking_columns!()
    ))
    .bind(booking_id.0)
    .bind(status.as_str())
    .bind(cancellation.by)
    .bind(cancellation.reason.as_deref())
    .bind(cancellation.late)
    .bind(now)
    .fetch_one(tx)
    .await?)
}

/// Records on a (locked, cancelled) booking the booking it was moved to.
pub async fn set_rescheduled_to(
    tx: &mut PgConnection,
    booking_id: BookingId,
    to: BookingId,
) -> Result<BookingRow, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking set rescheduled_to = $2 where booking_id = $1 returning ",
        booking_columns!()
    ))
    .bind(booking_id.0)
    .bind(to.0)
    .fetch_one(tx)
    .await?)
}

/// Up to `limit` bookings whose next timed transition is due at `now`, earliest first, locked for
/// this transaction; rows another transaction holds (another replica's claim, a person's move)
/// are skipped, never waited for. Reads the partial index `booking_due_idx`.
pub async fn claim_due(
    tx: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking where due_at <= $1
          order by due_at
          limit $2
          for update skip locked"
    ))
    .bind(now)
    .bind(limit)
    .fetch_all(tx)
    .await?)
}

/// The bookings of one coach on one date whose timed transition is due at `now`, locked: what a
/// new booking of that date may be waiting for.
pub async fn lock_due_of_coach_on(
    tx: &mut PgConnection,
    coach_id: CoachId,
    date: NaiveDate,
    now: DateTime<Utc>,
) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking
          where coach_id = $1 and booking_date = $2 and due_at <= $3
          for update"
    ))
    .bind(coach_id.0)
    .bind(date)
    .bind(now)
    .fetch_all(tx)
    .await?)
}

/// Takes the (client, coach) pair's lock for the rest of the transaction and counts the client's
/// pending requests with that coach (one whose expiry is due at `now` no longer counts). Two
/// statements, so the count is read after the lock: two concurrent requests of one client with
/// one coach are counted one after the other, never both against the same total.
pub async fn lock_pending_with_coach(
    tx: &mut PgConnection,
    client_id: ClientId,
    coach_id: CoachId,
    now: DateTime<Utc>,
) -> Result<i64, Error> {
    sqlx::query("select pg_advisory_xact_lock(hashtextextended('booking.pending:' || $1::text || ':' || $2::text, 0))")
        .bind(client_id.0)
        .bind(coach_id.0)
        .execute(&mut *tx)
        .await?;
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(*) from booking.booking
          where client_id = $1 and coach_id = $2 and status = 'pending' and expires_at > $3",
    )
    .bind(client_id.0)
    .bind(coach_id.0)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?)
}

/// Whether a client has ever booked a coach (any status).
pub async fn has_booked(
    db: impl PgExecutor<'_>,
    client_id: ClientId,
    coach_id: CoachId,
) -> Result<bool, Error> {
    Ok(sqlx::query_scalar::<_, bool>(
        "select exists (select 1 from booking.booking where client_id = $1 and coach_id = $2)",
    )
    .bind(client_id.0)
    .bind(coach_id.0)
    .fetch_one(db)
    .await?)
}

/// Whether any booking of one coach on one date has a timed transition due at `now`.
pub async fn any_due_of_coach_on(
    db: impl PgExecutor<'_>,
    coach_id: CoachId,
    date: NaiveDate,
    now: DateTime<Utc>,
) -> Result<bool, Error> {
    Ok(sqlx::query_scalar::<_, bool>(
        "select exists (select 1 from booking.booking
                        where coach_id = $1 and booking_date = $2 and due_at <= $3)",
    )
    .bind(coach_id.0)
    .bind(date)
    .bind(now)
    .fetch_one(db)
    .await?)
}

/// Moves the (locked) bookings still in `from` to `to`, in one statement.
pub async fn set_statuses(
    tx: &mut PgConnection,
    booking_ids: &[Uuid],
    from: Status,
    to: Status,
    now: DateTime<Utc>,
) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking set status = $3, updated_at = $4
         where booking_id = any($1) and status = $2
         returning ",
        booking_columns!()
    ))
    .bind(booking_ids)
    .bind(from.as_str())
    .bind(to.as_str())
    .bind(now)
    .fetch_all(tx)
    .await?)
}

/// booking's outbox table, relayed to the event stream by [`platform::outbox::Relay`].
pub const OUTBOX: Outbox = Outbox::of("booking");

/// Records events in the outbox, in order; call it in the transaction that makes the changes they
/// describe.
pub async fn record_events(tx: &mut PgConnection, envelopes: &[Envelope]) -> Result<(), Error> {
    for envelope in envelopes {
        OUTBOX.record(tx, envelope).await?;
    }
    Ok(())
}

/// Records that an event was applied; false when it already was (then its effect must not be
/// applied again).
pub async fn mark_event_processed(db: impl PgExecutor<'_>, event_id: Uuid) -> Result<bool, Error> {
    let inserted =
        sqlx::query("insert into booking.processed_event (event_id) values ($1) on conflict do nothing")
            .bind(event_id)
            .execute(db)
            .await?
            .rows_affected();
    Ok(inserted == 1)
}

/// Cancels a client's pending and confirmed bookings as `by` with `reason`; returns them.
pub async fn cancel_open_bookings_of_client(
    tx: &mut PgConnection,
    client_id: ClientId,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking
         set status = 'cancelled', cancelled_by = 'client', cancellation_reason = $2, updated_at = $3
         where client_id = $1 and status in ('pending', 'confirmed')
         returning ",
        booking_columns!()
    ))
    .bind(client_id.0)
    .bind(reason)
    .bind(now)
    .fetch_all(tx)
    .await?)
}

/// Cancels the pending and confirmed bookings with a coach, with `reason`; returns them.
pub async fn cancel_open_bookings_with_coach(
    tx: &mut PgConnection,
    coach_id: CoachId,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking
         set status = 'cancelled', cancelled_by = 'coach', cancellation_reason = $2, updated_at = $3
         where coach_id = $1 and status in ('pending', 'confirmed')
         returning ",
        booking_columns!()
    ))
    .bind(coach_id.0)
    .bind(reason)
    .bind(now)
    .fetch_all(tx)
    .await?)
}
