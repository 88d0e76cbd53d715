//! The reminder scheduler: 24 hours before a confirmed session or an approved court reservation,
//! its reminder goes to the people concerned. The reminders wait in `identity.reminder` (written
//! by [`crate::inbox::apply`] from the confirmation, voided by a cancellation); there is no queue
//! to lose. Every replica ticks; a tick claims what is due with `for update skip locked`, so
//! replicas share the rows and a reminder is sent once, late if every replica was down at its
//! time. "Now" comes from an injected clock, which tests move instead of sleeping, as booking-svc's
//! scheduler does. The same tick purges what password reset no longer needs
//! ([`crate::reset::purge_expired`]).

use platform::clock::SharedClock;
use sqlx::PgPool;

use crate::inbox::{self, Reach};

/// One replica's reminder scheduler.
#[derive(Clone)]
pub struct Reminders {
    pub db: PgPool,
    pub clock: SharedClock,
    pub reach: Reach,
}

impl Reminders {
    /// Sends what is due now and purges expired reset tokens, requests and letters; returns how
    /// many notifications were written.
    pub async fn run_due(&self) -> anyhow::Result<usize> {
        let now = self.clock.now();
        if let Err(error) = crate::reset::purge_expired(&self.db, now).await {
            tracing::warn!(%error, "expired reset tokens not purged; retrying next tick");
        }
        let rows = inbox::send_due_reminders(&self.db, now, &self.reach.public_url).await?;
        self.reach.announce(&rows).await;
        Ok(rows.len())
    }
}
