//! Every change of a booking, each in one transaction with its event in booking's outbox: a new
//! booking, a person's move, and the clock's transitions ([`Lifecycle::run_due`], which the
//! scheduler calls). The rules are the domain's ([`Booking::apply`], [`Booking::due`]); this module
//! only locks, writes and commits, and wakes the outbox relay after each commit.
//!
//! A person's move locks its booking (`for update`) and first writes any timed transition already
//! due, with its own event: the booking is judged as the clock has left it, even in the seconds
//! before the scheduler comes by. The scheduler claims due bookings with `for update skip
//! locked`, so replicas share the work and never apply one transition twice.
//!
//! Every transition decides its booking's payment outcome in its own transaction
//! ([`settle::settle`], [`settle::rescheduled`]), and wakes the payment worker after the commit.

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{PgConnection, PgPool};
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{
    domain::{Action, BookingId, ClientId, CoachId, Party, Status, Timed},
    error::Error,
    facts::{self, envelope_of},
    payments::settle,
    store::{self, BookingRow, Cancellation, NewBooking},
};

/// Bookings claimed per transaction by the scheduler.
const BATCH: i64 = 100;

/// booking's writes. Cheap to clone.
#[derive(Clone)]
pub struct Lifecycle {
    db: PgPool,
    /// Notified after each commit that wrote an event ([`platform::outbox::Relay::waker`]).
    relay: Arc<Notify>,
    /// Pending requests one client may hold with one coach (`MAX_PENDING_BOOKINGS_PER_COACH`).
    max_pending: u32,
    /// Notified after each commit that decided payment work ([`crate::payments::worker`]).
    payments: Arc<Notify>,
}

impl Lifecycle {
    pub fn new(db: PgPool, relay: Arc<Notify>, max_pending: u32, payments: Arc<Notify>) -> Self {
        Self {
            db,
            relay,
            max_pending,
            payments,
        }
    }

    /// Wakes the relay, and the payment worker when `paid` (the commit decided payment work).
    fn committed(&self, paid: bool) {
        self.relay.notify_one();
        if paid {
            self.payments.notify_one();
        }
    }

    /// Refuses a new pending request when the client already holds `max_pending` with the coach;
    /// holds the pair's lock until `tx` ends, so concurrent requests cannot pass it together.
    async fn check_pending(
        &self,
        tx: &mut PgConnection,
        client_id: ClientId,
        coach_id: CoachId,
        now: DateTime<Utc>,
    ) -> Result<(), Error> {
        let pending = store::lock_pending_with_coach(tx, client_id, coach_id, now).await?;
        if pending >= i64::from(self.max_pending) {
            let max = self.max_pending;
            let requests = if max == 1 { "request" } else { "requests" };
            return Err(Error::Refused(format!(
                "You already have {max} pending {requests} with this coach; wait for an answer or \
                 cancel one."
            )));
        }
        Ok(())
    }

    /// One insert of a pending booking, in a transaction with the pending check.
    async fn try_create(
        &self,
        booking: &NewBooking<'_>,
        requested: &platform::events::Envelope,
        now: DateTime<Utc>,
    ) -> Result<BookingRow, Error> {
        let mut tx = self.db.begin().await?;
        self.check_pending(&mut tx, booking.client_id, booking.coach_id, now)
            .await?;
        let row = store::insert_booking(&mut *tx, booking, requested).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Inserts a pending booking with its `booking_requested` event. When the slot (or an
    /// overlapping time) is held by a booking whose expiry is due at `now` but not yet written,
    /// that expiry is written first and the booking made: an expired booking's slot is free at
    /// once, not when the scheduler next comes by.
    pub async fn create(&self, booking: &NewBooking<'_>, now: DateTime<Utc>) -> Result<BookingRow, Error> {
        let requested = facts::requested(booking);
        let mut attempts = 0;
        let mut caught_up = false;
        loop {
            attempts += 1;
            match self.try_create(booking, &requested, now).await {
                Ok(row) => {
                    self.committed(row.price_cents > 0);
                    return Ok(row);
                }
                Err(e) if store::is_deadlock(&e) && attempts < 5 => continue,
                // Tried again even when nothing is due now: a scheduler may have written the
                // expiry between the refused insert and this look.
                Err(Error::Conflict(_)) if !caught_up => {
                    caught_up = true;
                    if store::any_due_of_coach_on(&self.db, booking.coach_id, booking.booking_date, now)
                        .await?
                    {
                        self.catch_up_coach_on(booking.coach_id, booking.booking_date, now)
                            .await?;
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Moves the client's booking `old` to `new` (another slot of the same coach, or another date)
    /// in one transaction: `old` is cancelled by the client (late when a cancel now would be), `new`
    /// is made pending naming `old`, and `old` names `new`, each with its event. When `new` cannot
    /// be made (taken meanwhile: the database refuses it) nothing is changed, `old` included.
    pub async fn reschedule(
        &self,
        old: BookingId,
        client_id: ClientId,
        new: &NewBooking<'_>,
        now: DateTime<Utc>,
    ) -> Result<BookingRow, Error> {
        let mut attempts = 0;
        let mut caught_up = false;
        loop {
            attempts += 1;
            match self.try_reschedule(old, client_id, new, now).await {
                Ok(row) => {
                    self.committed(true);
                    tracing::info!(%old, new = %row.booking_id, "booking rescheduled");
                    return Ok(row);
                }
                Err(e) if store::is_deadlock(&e) && attempts < 5 => continue,
                // As for a new booking: a hold whose expiry is due is written first, then tried again.
                Err(Error::Conflict(m)) if !caught_up => {
                    caught_up = true;
                    if !store::any_due_of_coach_on(&self.db, new.coach_id, new.booking_date, now).await? {
                        return Err(Error::Conflict(m));
                    }
                    self.catch_up_coach_on(new.coach_id, new.booking_date, now)
                        .await?;
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn try_reschedule(
        &self,
        old: BookingId,
        client_id: ClientId,
        new: &NewBooking<'_>,
        now: DateTime<Utc>,
    ) -> Result<BookingRow, Error> {
        let mut tx = self.db.begin().await?;
        let row = store::lock_booking(&mut tx, old)
            .await?
            .ok_or_else(|| Error::NotFound("this booking does not exist".into()))?;
        let booking = row.booking()?;
        if booking.client_id != client_id {
            // Another client's booking is as absent as one that never was.
            return Err(Error::NotFound("this booking does not exist".into()));
        }
        if booking.coach_id != new.coach_id {
            return Err(Error::Invalid(
                "a booking can be moved only to another slot of the same coach; book the other \
                 coach instead"
                    .into(),
            ));
        }
        if row.slot_id == new.slot_id.0 && row.booking_date == new.booking_date {
            return Err(Error::Transition(
                "this booking is already for that slot and date; choose another date or slot".into(),
            ));
        }
        let caught_up = apply_timed(&mut tx, std::slice::from_ref(&row), now).await? > 0;
        let done = match booking.apply(Action::Cancel, Party::Client(client_id), now) {
            Ok(done) => done,
            Err(refused) => {
                if caught_up {
                    tx.commit().await?;
                    self.committed(true);
                }
                return Err(refused);
            }
        };
        let cancellation = Cancellation {
            by: Some(Party::Client(client_id).as_str()),
            reason: None,
            late: done.late,
        };
        // Cancelled first, so that a move to an overlapping time of the same coach is not refused
        // by the booking it replaces.
        store::set_status(&mut tx, old, Status::Cancelled, &cancellation, now).await?;
        self.check_pending(&mut tx, client_id, new.coach_id, now).await?;
        let made = store::insert_booking(&mut *tx, new, &facts::requested(new)).await?;
        let cancelled = store::set_rescheduled_to(&mut tx, old, new.booking_id).await?;
        store::record_events(&mut tx, &[envelope_of(&cancelled)?]).await?;
        let made = settle::rescheduled(&mut tx, &cancelled, &made, now).await?;
        tx.commit().await?;
        Ok(made)
    }

    /// Writes the timed transitions due at `now` of one coach's bookings on one date.
    async fn catch_up_coach_on(
        &self,
        coach_id: CoachId,
        date: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<usize, Error> {
        let mut tx = self.db.begin().await?;
        let rows = store::lock_due_of_coach_on(&mut tx, coach_id, date, now).await?;
        let applied = apply_timed(&mut tx, &rows, now).await?;
        tx.commit().await?;
        if applied > 0 {
            self.committed(true);
        }
        Ok(applied)
    }

    /// `action` by `by` on a booking at `now`, with `reason` recorded when it is a cancel.
    pub async fn act(
        &self,
        booking_id: BookingId,
        by: Party,
        action: Action,
        reason: Option<String>,
        now: DateTime<Utc>,
    ) -> Result<BookingRow, Error> {
        let mut tx = self.db.begin().await?;
        let row = store::lock_booking(&mut tx, booking_id)
            .await?
            .ok_or_else(|| Error::NotFound("this booking does not exist".into()))?;
        let booking = row.booking()?;
        let caught_up = apply_timed(&mut tx, std::slice::from_ref(&row), now).await? > 0;
        let done = match booking.apply(action, by, now) {
            Ok(done) => done,
            Err(refused) => {
                // What the clock had already done stays done.
                if caught_up {
                    tx.commit().await?;
                    self.committed(true);
                }
                return Err(refused);
            }
        };
        let cancellation = match done.to {
            Status::Cancelled => Cancellation {
                by: Some(by.as_str()),
                reason,
                late: done.late,
            },
            _ => Cancellation::default(),
        };
        let row = store::set_status(&mut tx, booking_id, done.to, &cancellation, now).await?;
        store::record_events(&mut tx, &[envelope_of(&row)?]).await?;
        settle::settle(&mut tx, std::slice::from_ref(&row), now).await?;
        tx.commit().await?;
        self.committed(row.price_cents > 0);
        tracing::info!(%booking_id, ?action, status = %done.to, late = done.late, "booking moved");
        Ok(row)
    }

    /// Writes every timed transition due at `now`, a batch per transaction, each with its event;
    /// returns how many. Rows another replica (or a person's move) holds are left to it.
    pub async fn run_due(&self, now: DateTime<Utc>) -> Result<usize, Error> {
        let mut total = 0;
        loop {
            let mut tx = self.db.begin().await?;
            let rows = store::claim_due(&mut tx, now, BATCH).await?;
            if rows.is_empty() {
                return Ok(total);
            }
            let applied = apply_timed(&mut tx, &rows, now).await?;
            tx.commit().await?;
            if applied > 0 {
                self.committed(true);
            }
            total += applied;
            if rows.len() < BATCH as usize {
                return Ok(total);
            }
        }
    }

    /// The pool, for the writes of events consumed from other contexts.
    pub fn db(&self) -> &PgPool {
        &self.db
    }

    /// Wakes the relay after a commit that wrote events outside this module.
    pub fn wake_relay(&self) {
        self.relay.notify_one();
    }

    /// Wakes the relay and the payment worker after a commit outside this module that decided
    /// payment work.
    pub fn wake_payments(&self) {
        self.committed(true);
    }
}

/// Writes the timed transitions of `rows` (locked by the caller) due at `now`, one statement per
/// kind, and their events; returns how many bookings moved.
async fn apply_timed(tx: &mut PgConnection, rows: &[BookingRow], now: DateTime<Utc>) -> Result<usize, Error> {
    let mut applied = 0;
    for timed in [Timed::Expire, Timed::Complete] {
        let mut due: Vec<Uuid> = Vec::new();
        for row in rows {
            if row.booking()?.due(now) == Some(timed) {
                due.push(row.booking_id);
            }
        }
        if due.is_empty() {
            continue;
        }
        let moved = store::set_statuses(tx, &due, timed.from(), timed.to(), now).await?;
        let events = moved.iter().map(envelope_of).collect::<Result<Vec<_>, _>>()?;
        store::record_events(tx, &events).await?;
        settle::settle(tx, &moved, now).await?;
        applied += moved.len();
        tracing::info!(count = moved.len(), to = %timed.to(), "timed transitions applied");
    }
    Ok(applied)
}
