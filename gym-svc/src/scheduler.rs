//! The clock's moves on court reservations: a pending request nobody answered expires at the start
//! of its court time. Durable, in PostgreSQL, safe with any number of replicas.
//!
//! - **Due-time index**: `court_reservation.expires_at`, set when the request is made, with a
//!   partial index over pending requests only (`court_reservation_due_idx`): a tick reads what is
//!   due, never the history.
//! - **Claims**: a tick selects due rows `for update skip locked`, so replicas ticking together
//!   share the work without waiting on each other, and a row a gym is answering at that moment is
//!   left for the next tick; the update re-checks `status = 'pending'`, so a row another replica
//!   expired (or the gym answered) in between is not moved again.
//! - **Atomic with the event**: each transition is written with its `ReservationExpired` event in
//!   the outbox in one transaction (a batch of at most [`BATCH`] per transaction).
//! - **Late, once**: nothing is kept in memory; the state is the rows. A replica that was down at
//!   the due time changes nothing, and whichever replica ticks next expires the row, once.
//! - **Within 60 s**: every replica ticks every `SCHEDULER_INTERVAL_MS` (5 s by default, see
//!   `crate::Config`), so a request expires at most that long after its start, plus the tick's
//!   own time.
//!
//! No job-queue crate: the one timed transition is a status change of a row that already carries
//! its due time, and a `skip locked` claim of those rows is the whole queue.
//!
//! Each tick also runs the fill-in of zones and due times (`crate::zones`), so a row an older
//! replica wrote during a rolling deploy gets its due time within one tick.

use std::sync::Arc;

use platform::{clock::SharedClock, stamps::Stamp};
use sqlx::PgPool;
use tokio::sync::Notify;

use crate::{
    domain::ReservationStatus,
    error::Error,
    outbox::{self, Transition},
    store, zones,
};

/// Transitions per transaction.
pub const BATCH: i64 = 100;

/// One replica's scheduler.
#[derive(Clone)]
pub struct Scheduler {
    pub db: PgPool,
    pub clock: SharedClock,
    /// Notified after a commit that wrote events.
    pub outbox_wake: Arc<Notify>,
    /// gym's change stamp, renewed after a tick changed something.
    pub stamp: Option<Stamp>,
}

impl Scheduler {
    /// Expires every request due by now; answers how many this replica expired.
    pub async fn tick(&self) -> Result<u64, Error> {
        let mut expired = 0;
        loop {
            let (count, claimed) = self.expire_batch().await?;
            expired += count;
            if claimed < BATCH as usize {
                break;
            }
        }
        if expired > 0 {
            self.outbox_wake.notify_one();
            if let Some(stamp) = &self.stamp {
                stamp.renew().await;
            }
            tracing::info!(expired, "court requests nobody answered expired at their start");
        }
        Ok(expired)
    }

    /// One transaction: claim due rows, expire them, record their events. Answers (expired,
    /// claimed).
    async fn expire_batch(&self) -> Result<(u64, usize), Error> {
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let claimed = store::claim_due(&mut *tx, now, BATCH).await?;
        if claimed.is_empty() {
            return Ok((0, 0));
        }
        let ids = store::expire(&mut *tx, &claimed, ReservationStatus::Pending.expire()?).await?;
        let rows = store::reservations(&mut *tx, &ids).await?;
        outbox::record(&mut tx, &Transition::Expired, &rows).await?;
        tx.commit().await?;
        Ok((ids.len() as u64, claimed.len()))
    }

    /// One tick of a replica's scheduler (every `SCHEDULER_INTERVAL_MS`, on the host's
    /// [`every`](platform::host::Host::every)): first the fill-in of zones and due times, then
    /// the expiries.
    pub async fn run_due(&self) -> Result<(), Error> {
        if let Err(error) = zones::fill_in(&self.db).await {
            tracing::warn!(%error, "zones and due times not filled in; will retry");
        }
        self.tick().await.map(drop)
    }
}
