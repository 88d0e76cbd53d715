//! The transactional outbox every context publishes its events through: a service writes each
//! [`Envelope`] to `<schema>.outbox` ([`Outbox::record`]) in the same transaction as the change it
//! describes, and its [`Relay`] appends the rows to the Redis stream the other contexts consume, at
//! least once and in order.
//!
//! The relay wakes when a transaction that wrote an event commits ([`Relay::waker`]), gathers the
//! commits of the next few milliseconds into the same drain, and polls every second in case
//! another replica wrote it. One replica relays at a time (a
//! transaction-scoped advisory lock named after the table), and rows are claimed with
//! `for update skip locked`, so replicas do not deliver the same row twice in practice; a crash
//! between the stream append and the commit re-delivers, which consumers absorb by `event_id`.
//! While Redis is down the rows wait. Rows delivered more than a day ago are deleted now and then.
//!
//! Each service's migrations create its table in this shape:
//!
//! ```sql
//! create table <schema>.outbox (
//!     event_id uuid primary key,
//!     payload jsonb not null,
//!     created_at timestamptz not null default now(),
//!     published_at timestamptz,
//!     seq bigint generated always as identity
//! );
//! create index outbox_unpublished_idx on <schema>.outbox (seq) where published_at is null;
//! create index outbox_published_at_idx on <schema>.outbox (published_at) where published_at is not null;
//! ```

use std::{
    future::Future,
    sync::Arc,
    time::{Duration, Instant},
};

use sqlx::{AssertSqlSafe, PgConnection, PgPool};
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{
    events::{Envelope, Event, publish},
    redis_link::{RedisDown, RedisLink},
};

/// How often the outbox is looked at without being woken.
const POLL: Duration = Duration::from_secs(1);
/// The longest wait between attempts while Redis is down.
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// Events delivered per transaction.
const BATCH: i64 = 100;
/// How often delivered rows are cleared away.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(600);
/// How long a woken relay waits for more commits before it drains: under load one drain then
/// carries the events of many transactions instead of one each (a few milliseconds more before
/// an event reaches the stream).
const GATHER: Duration = Duration::from_millis(5);

/// A new envelope for `event`, stamped now.
pub fn envelope(event: Event) -> Envelope {
    Envelope {
        event_id: Uuid::new_v4(),
        occurred_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        event,
    }
}

/// One context's outbox table, `<schema>.outbox`.
#[derive(Clone, Copy, Debug)]
pub struct Outbox {
    schema: &'static str,
}

impl Outbox {
    /// The outbox of the service that owns `schema` (a fixed identifier such as `"booking"`).
    pub const fn of(schema: &'static str) -> Self {
        Self { schema }
    }

    /// Records `envelope`; call it in the transaction that makes the change it describes, and
    /// wake the relay after the commit.
    pub async fn record(&self, tx: &mut PgConnection, envelope: &Envelope) -> Result<(), sqlx::Error> {
        let payload = serde_json::to_string(envelope).expect("an envelope serializes");
        let sql = format!(
            "insert into {}.outbox (event_id, payload) values ($1, $2::jsonb)",
            self.schema
        );
        sqlx::query(AssertSqlSafe(sql))
            .bind(envelope.event_id)
            .bind(payload)
            .execute(tx)
            .await?;
        Ok(())
    }

    /// Takes the relay's turn for this transaction, if no other replica holds it: one relay at a
    /// time keeps delivery in outbox order.
    async fn try_take_relay_turn(&self, tx: &mut PgConnection) -> Result<bool, sqlx::Error> {
        sqlx::query_scalar::<_, bool>("select pg_try_advisory_xact_lock(hashtext($1))")
            .bind(format!("{}.outbox relay", self.schema))
            .fetch_one(tx)
            .await
    }

    /// Up to `limit` undelivered events in outbox order, locked for this transaction (rows
    /// another transaction holds are skipped, never waited for): (event_id, JSON envelope).
    async fn claim(&self, tx: &mut PgConnection, limit: i64) -> Result<Vec<(Uuid, String)>, sqlx::Error> {
        let sql = format!(
            "select event_id, payload::text from {}.outbox
             where published_at is null
             order by seq
             limit $1
             for update skip locked",
            self.schema
        );
        sqlx::query_as::<_, (Uuid, String)>(AssertSqlSafe(sql))
            .bind(limit)
            .fetch_all(tx)
            .await
    }

    async fn mark_published(&self, tx: &mut PgConnection, event_ids: &[Uuid]) -> Result<(), sqlx::Error> {
        let sql = format!(
            "update {}.outbox set published_at = now() where event_id = any($1)",
            self.schema
        );
        sqlx::query(AssertSqlSafe(sql))
            .bind(event_ids)
            .execute(tx)
            .await?;
        Ok(())
    }

    /// Forgets events delivered more than a day ago.
    async fn delete_old_published(&self, db: &PgPool) -> Result<u64, sqlx::Error> {
        let sql = format!(
            "delete from {}.outbox where published_at < now() - interval '1 day'",
            self.schema
        );
        Ok(sqlx::query(AssertSqlSafe(sql)).execute(db).await?.rows_affected())
    }
}

#[derive(Debug, thiserror::Error)]
enum RelayError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("redis: {0}")]
    Redis(#[from] RedisDown),
}

/// The relay of one replica.
pub struct Relay {
    db: PgPool,
    redis: RedisLink,
    stream: String,
    outbox: Outbox,
    wake: Arc<Notify>,
}

impl Relay {
    /// Relays `outbox` of `db` to the event stream `stream` (see [`crate::events::stream_key`]).
    pub fn new(db: PgPool, redis: RedisLink, stream: String, outbox: Outbox) -> Self {
        Self {
            db,
            redis,
            stream,
            outbox,
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
                    tracing::warn!(%error, outbox = self.outbox.schema, "outbox not delivered; will retry");
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    false
                }
            };
            if Instant::now() >= housekeeping_due {
                if let Err(error) = self.outbox.delete_old_published(&self.db).await {
                    tracing::warn!(%error, outbox = self.outbox.schema, "outbox housekeeping failed");
                }
                housekeeping_due = Instant::now() + HOUSEKEEPING_EVERY;
            }
            // After a failure, new commits do not hurry the next attempt: Redis needs time.
            let wait = if healthy { POLL } else { backoff };
            tokio::select! {
                () = &mut shutdown => return,
                () = self.wake.notified(), if healthy => tokio::time::sleep(GATHER).await,
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
        if !self.outbox.try_take_relay_turn(&mut tx).await? {
            return Ok(0);
        }
        let rows = self.outbox.claim(&mut tx, BATCH).await?;
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
            self.outbox.mark_published(&mut tx, &done).await?;
            tx.commit().await?;
        }
        match failure {
            Some(e) => Err(e.into()),
            None => Ok(claimed),
        }
    }
}
