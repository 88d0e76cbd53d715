//! The outbox relay: delivers the events written to `identity.outbox` (in the same transaction as
//! the change they describe) to the Redis stream the other contexts consume, at least once and in
//! order.
//!
//! It wakes when a transaction that wrote an event commits ([`Relay::waker`]) and polls every
//! second in case another replica wrote it. One replica relays at a time (a transaction-scoped
//! advisory lock), and rows are claimed with `for update skip locked`, so replicas do not deliver
//! the same row twice in practice; a crash between the stream append and the commit re-delivers,
//! which consumers absorb by `event_id`. While Redis is down the rows wait. Rows delivered more
//! than a day ago, and revocations of tokens that have expired anyway, are deleted now and then.

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, Instant},
};

use platform::{
    events::{Envelope, publish},
    redis_link::RedisLink,
};
use sqlx::PgPool;
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{error::Error, store};

/// How often the outbox is looked at without being woken.
const POLL: Duration = Duration::from_secs(1);
/// The longest wait between attempts while Redis is down.
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// Events delivered per transaction.
const BATCH: i64 = 100;
/// How often old rows are cleared away.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(600);

/// The relay of one replica.
pub struct Relay {
    db: PgPool,
    redis: RedisLink,
    stream: String,
    wake: Arc<Notify>,
}

#[derive(Debug, thiserror::Error)]
enum RelayError {
    #[error(transparent)]
    Store(#[from] Error),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("redis: {0}")]
    Redis(#[from] platform::redis_link::RedisDown),
}

impl Relay {
    pub fn new(db: PgPool, redis: RedisLink, stream: String) -> Self {
        Self {
            db,
            redis,
            stream,
            wake: Arc::new(Notify::new()),
        }
    }

    /// What a committed transaction that wrote an event notifies.
    pub fn waker(&self) -> Arc<Notify> {
        self.wake.clone()
    }

    /// Delivers until `shutdown` resolves.
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        tokio::pin!(shutdown);
        let mut backoff = POLL;
        let mut housekeeping_due = Instant::now();
        loop {
            let healthy = match self.drain().await {
                Ok(()) => {
                    backoff = POLL;
                    true
                }
                Err(error) => {
                    tracing::warn!(%error, "outbox not delivered; will retry");
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    false
                }
            };
            if Instant::now() >= housekeeping_due {
                self.housekeeping().await;
                housekeeping_due = Instant::now() + HOUSEKEEPING_EVERY;
            }
            // After a failure, new commits do not hurry the next attempt: Redis needs time.
            let wait = if healthy { POLL } else { backoff };
            tokio::select! {
                () = &mut shutdown => return,
                () = self.wake.notified(), if healthy => {}
                () = tokio::time::sleep(wait) => {}
            }
        }
    }

    /// Delivers batches until the outbox is empty (or another replica has the turn).
    async fn drain(&self) -> Result<(), RelayError> {
        while self.deliver_batch().await? == BATCH as usize {}
        Ok(())
    }

    /// Delivers one batch in outbox order and marks what reached the stream; returns how many
    /// rows were claimed.
    async fn deliver_batch(&self) -> Result<usize, RelayError> {
        let mut tx = self.db.begin().await?;
        if !store::try_take_relay_turn(&mut tx).await? {
            return Ok(0);
        }
        let rows = store::claim_outbox(&mut tx, BATCH).await?;
        let claimed = rows.len();
        let mut done: Vec<Uuid> = Vec::with_capacity(claimed);
        let mut failure = None;
        for (event_id, json) in rows {
            let Ok(envelope) = serde_json::from_str::<Envelope>(&json) else {
                // Written by this service, so a bug; skipping beats blocking every later event.
                tracing::error!(%event_id, "unreadable outbox event skipped");
                done.push(event_id);
                continue;
            };
            let stream = self.stream.as_str();
            let sent = self
                .redis
                .run(|mut conn| async move { publish(&mut conn, stream, &envelope).await })
                .await;
            match sent {
                Ok(()) => done.push(event_id),
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if !done.is_empty() {
            store::mark_published(&mut tx, &done).await?;
            tx.commit().await?;
        }
        match failure {
            Some(e) => Err(e.into()),
            None => Ok(claimed),
        }
    }

    async fn housekeeping(&self) {
        let outbox = store::delete_old_published(&self.db).await;
        let revoked = store::delete_expired_revocations(&self.db).await;
        if let Err(error) = outbox.and(revoked) {
            tracing::warn!(%error, "outbox housekeeping failed");
        }
    }
}
