//! Per-person limits the gateway keeps in Redis, so every replica counts the same person once:
//!
//! - **live streams** (`LIVE_STREAMS_PER_USER`): each open `GET /notifications/stream` holds a
//!   lease in the person's sorted set `{namespace}:live:{user_id}` (member: the stream, score:
//!   when its lease ends, by Redis's clock). The stream renews it every [`LEASE_RENEW`] and
//!   removes it when it closes; a replica that dies stops renewing, and its streams' places free
//!   themselves after [`LEASE`].
//! - **uploads** (`UPLOADS_PER_USER_PER_DAY`): a counter per person and UTC day.
//!
//! Like the rate limits, these fail open when Redis is down (said in the log): a limit is a
//! guard against abuse, not a reason to refuse everyone while Redis is away.

use std::{sync::LazyLock, time::Duration};

use platform::redis_link::{RedisDown, RedisLink};
use redis::Script;
use uuid::Uuid;

use crate::error::ApiError;

/// How long a stream's place is held without a renewal.
pub const LEASE: Duration = Duration::from_secs(30);
/// How often an open stream renews its lease.
pub const LEASE_RENEW: Duration = Duration::from_secs(10);
/// How long any Redis operation of these limits may take.
const OP_TIMEOUT: Duration = Duration::from_millis(150);

/// Drops the expired leases of KEYS[1], then adds ARGV[3] with a lease of ARGV[1] ms unless
/// ARGV[2] leases are live: answers 1 when added, 0 when full.
static OPEN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
        if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
            return 0
        end
        redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
        redis.call('PEXPIRE', KEYS[1], ARGV[1])
        return 1
        ",
    )
});

/// Extends the lease ARGV[2] of KEYS[1] to ARGV[1] ms from now.
static RENEW: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
        redis.call('PEXPIRE', KEYS[1], ARGV[1])
        return 1
        ",
    )
});

/// Counts one in KEYS[1], kept ARGV[2] s: answers the count.
static COUNT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local count = redis.call('INCR', KEYS[1])
        if count == 1 then
            redis.call('EXPIRE', KEYS[1], ARGV[1])
        end
        return count
        ",
    )
});

/// The per-person limits and their Redis link. Cheap to clone.
#[derive(Clone)]
pub struct PersonLimits {
    link: RedisLink,
    namespace: String,
    streams_per_user: u32,
    uploads_per_day: u32,
}

/// An open stream's place: renewed by [`StreamLease::renew`], given back when dropped.
pub struct StreamLease {
    limits: PersonLimits,
    key: String,
    member: String,
}

impl PersonLimits {
    pub fn new(
        url: &str,
        namespace: &str,
        streams_per_user: u32,
        uploads_per_day: u32,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            link: RedisLink::new(url, OP_TIMEOUT)?,
            namespace: namespace.to_owned(),
            streams_per_user,
            uploads_per_day,
        })
    }

    /// A place for one more live stream of `user_id`, or a 429 when they have every place
    /// taken. `None` when Redis is down: the stream opens uncounted.
    pub async fn open_stream(&self, user_id: Uuid) -> Result<Option<StreamLease>, ApiError> {
        let key = format!("{}:live:{user_id}", self.namespace);
        let member = Uuid::new_v4().simple().to_string();
        let mut invocation = OPEN.prepare_invoke();
        invocation
            .key(&key)
            .arg(LEASE.as_millis() as u64)
            .arg(self.streams_per_user)
            .arg(&member);
        let opened: Result<u32, RedisDown> = self
            .link
            .run(|mut c| async move { invocation.invoke_async(&mut c).await })
            .await;
        match opened {
            Ok(1) => Ok(Some(StreamLease {
                limits: self.clone(),
                key,
                member,
            })),
            Ok(_) => {
                let max = self.streams_per_user;
                let mut error = ApiError::new(
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "You already have {max} live notification streams open (other tabs or \
                         devices); close one and try again."
                    ),
                );
                error.retry_after = Some(LEASE.as_secs());
                Err(error)
            }
            Err(error) => {
                tracing::warn!(%error, "live stream limit not checked: Redis is unavailable");
                Ok(None)
            }
        }
    }

    /// Counts one upload of `user_id` today (UTC), or a 429 until tomorrow when it is one too
    /// many. Fails open when Redis is down.
    pub async fn count_upload(&self, user_id: Uuid) -> Result<(), ApiError> {
        let now = platform::auth::now_secs().max(0) as u64;
        let (day, left) = (now / 86_400, 86_400 - now % 86_400);
        let mut invocation = COUNT.prepare_invoke();
        invocation
            .key(format!("{}:uploads:{user_id}:{day}", self.namespace))
            .arg(86_400 + 60);
        let counted: Result<u64, RedisDown> = self
            .link
            .run(|mut c| async move { invocation.invoke_async(&mut c).await })
            .await;
        match counted {
            Ok(count) if count > u64::from(self.uploads_per_day) => {
                let max = self.uploads_per_day;
                let mut error = ApiError::new(
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "You have uploaded {max} pictures today, the most a day allows; try again \
                         tomorrow (UTC)."
                    ),
                );
                error.retry_after = Some(left);
                Err(error)
            }
            Ok(_) => Ok(()),
            Err(error) => {
                tracing::warn!(%error, "upload limit not checked: Redis is unavailable");
                Ok(())
            }
        }
    }
}

impl StreamLease {
    /// Holds the place for another [`LEASE`]; at best effort (a failed renewal is tried again at
    /// the next one, and the place frees itself only if every renewal fails).
    pub async fn renew(&self) {
        let mut invocation = RENEW.prepare_invoke();
        invocation
            .key(&self.key)
            .arg(LEASE.as_millis() as u64)
            .arg(&self.member);
        let renewed: Result<u32, RedisDown> = self
            .limits
            .link
            .run(|mut c| async move { invocation.invoke_async(&mut c).await })
            .await;
        if let Err(error) = renewed {
            tracing::warn!(%error, "a live stream's lease was not renewed");
        }
    }
}

impl Drop for StreamLease {
    /// A closed stream gives its place back at once.
    fn drop(&mut self) {
        let (link, key, member) = (self.limits.link.clone(), self.key.clone(), self.member.clone());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let removed: Result<(), RedisDown> = link
                    .run(|mut c| async move {
                        redis::cmd("ZREM")
                            .arg(&key)
                            .arg(&member)
                            .query_async::<()>(&mut c)
                            .await
                    })
                    .await;
                if let Err(error) = removed {
                    tracing::warn!(%error, "a closed live stream's place is freed when its lease ends");
                }
            });
        }
    }
}
