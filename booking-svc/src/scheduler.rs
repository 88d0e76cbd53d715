//! The durable scheduler: what the clock does to bookings (a pending booking expires, a confirmed
//! one is completed), kept in PostgreSQL and nowhere else.
//!
//! There is no queue of jobs to lose: each active booking's next due instant is a generated column
//! (`due_at`) with a partial index over the active bookings only, so a tick is one index range
//! scan. Every replica runs a scheduler; each tick claims what is due with `for update skip
//! locked`, so replicas share the rows and never apply a transition twice, and writes each batch
//! with its events in one transaction ([`Lifecycle::run_due`]). A replica that was down at a due
//! time has nothing to catch up on its own: whichever replica ticks next applies it, late, once.
//! With a tick every [`Config::scheduler_interval`](crate::Config) (5 s by default), each
//! transition is applied within that interval (plus a tick's work) of its due time.
//!
//! Plain SQL rather than a job-queue crate: the due time is already a column of the row that
//! changes, so a separate jobs table would only be a second copy of it to keep in step.

use std::sync::Arc;

use platform::clock::SharedClock;
use sqlx::PgPool;
use tokio::sync::Notify;

use crate::lifecycle::Lifecycle;

/// One replica's scheduler. Cheap to clone.
#[derive(Clone)]
pub struct Scheduler {
    lifecycle: Lifecycle,
    clock: SharedClock,
}

impl Scheduler {
    /// A scheduler of the bookings in `db`, reading "now" from `clock`.
    pub fn new(db: PgPool, clock: SharedClock) -> Self {
        // It only applies timed transitions: the limit of new requests is never asked.
        Self::with(
            Lifecycle::new(db, Arc::new(Notify::new()), u32::MAX, Arc::new(Notify::new())),
            clock,
        )
    }

    pub(crate) fn with(lifecycle: Lifecycle, clock: SharedClock) -> Self {
        Self { lifecycle, clock }
    }

    /// Applies every transition due now; returns how many bookings moved. Each replica's host runs
    /// it every [`Config::scheduler_interval`](crate::Config) ([`platform::host::Host::every`]),
    /// the first tick at once (what fell due while this replica was down, if no other replica ran).
    pub async fn run_due(&self) -> anyhow::Result<usize> {
        Ok(self.lifecycle.run_due(self.clock.now()).await?)
    }
}
