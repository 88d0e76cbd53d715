//! The gateway's use of Redis: token revocation lookups, the change stamps that say whether what
//! the gateway remembers is current ([`platform::stamps`]), and the shared rate-limit counters, and
//! the idempotency keys ([`crate::idempotency`]).
//!
//! Redis is a cache and a counter here, never the truth: every operation has a short timeout,
//! and when Redis is down the caller falls back (revocation asks identity-svc, and refuses when
//! that cannot answer either; rate limits fail open and say so in the log).

use std::{sync::LazyLock, time::Duration};

use platform::{
    redis_link::{RedisDown, RedisLink},
    stamps::{self, Context},
};
use redis::{AsyncCommands, Script};

use crate::memo::Stamps;

/// How long any Redis operation may take before it counts as Redis being down.
const OP_TIMEOUT: Duration = Duration::from_millis(150);

/// Counts a hit in each counter of KEYS in turn (each kept 61 s, a minute window and a second of
/// slack) and stops at the first over its limit in ARGV: answers that counter's position from 1,
/// or 0 when none is over. A counter after the first one over is not counted.
static COUNT_HITS: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        for i, key in ipairs(KEYS) do
            local count = redis.call('INCR', key)
            redis.call('EXPIRE', key, 61)
            if count > tonumber(ARGV[i]) then
                return i
            end
        end
        return 0
        ",
    )
});

/// Sets the token version KEYS[1] to ARGV[1] for ARGV[2] seconds unless it holds a newer one or
/// a deletion (`-1`), as identity-svc's own write does.
static RAISE_VERSION: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local current = tonumber(redis.call('GET', KEYS[1]))
        local new = tonumber(ARGV[1])
        if current ~= nil and (current < 0 or (new >= 0 and current > new)) then
            return 0
        end
        redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
        return 1
        ",
    )
});

/// Takes one from the counter KEYS[1] while it is above zero.
static FORGIVE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local count = tonumber(redis.call('GET', KEYS[1]))
        if count and count > 0 then
            redis.call('DECR', KEYS[1])
        end
        return 0
        ",
    )
});

/// Deletes KEYS[1] only while it holds ARGV[1].
static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            redis.call('DEL', KEYS[1])
        end
        return 0
        ",
    )
});

#[derive(Clone)]
pub struct RedisStore {
    link: RedisLink,
    pub namespace: String,
    /// The tokens identity-svc confirmed lately, held by this replica for a few seconds beside
    /// what Redis says ([`crate::auth`]).
    pub recent: crate::auth::RecentChecks,
}

/// What [`RedisStore::count`] counted: the seconds to wait when a bucket is over its limit, and
/// the minute window the hits went into.
pub struct Counted {
    pub retry_after: Option<u64>,
    pub window: u64,
}

/// What Redis says about a signed-in request: the user's cached token version (`-1` once
/// deleted) and whether the token was logged out.
pub struct TokenState {
    pub version: Option<i64>,
    pub revoked: bool,
}

impl RedisStore {
    pub fn new(url: &str, namespace: String) -> anyhow::Result<Self> {
        Ok(Self {
            link: RedisLink::new(url, OP_TIMEOUT)?,
            namespace,
            recent: crate::auth::RecentChecks::default(),
        })
    }

    async fn run<T, F, Fut>(&self, op: F) -> Result<T, RedisDown>
    where
        F: FnOnce(redis::aio::ConnectionManager) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        self.link.run(op).await
    }

    fn key(&self, parts: &str) -> String {
        format!("{}:{parts}", self.namespace)
    }

    /// The token's state, in one round trip.
    pub async fn token_state(&self, user_id: &str, jti: &str) -> Result<TokenState, RedisDown> {
        let keys = [self.key(&format!("tv:{user_id}")), self.key(&format!("rv:{jti}"))];
        let (version, revoked): (Option<String>, Option<String>) =
            self.run(|mut c| async move { c.mget(&keys).await }).await?;
        let version = version
            .map(|v| v.parse::<i64>())
            .transpose()
            .map_err(|e| RedisDown::Unexpected(format!("a token version that is not a number: {e}")))?;
        Ok(TokenState {
            version,
            revoked: revoked.is_some(),
        })
    }

    /// The change stamps, in one round trip.
    pub async fn stamps(&self) -> Result<Stamps, RedisDown> {
        let keys = Context::ALL.map(|c| stamps::key(&self.namespace, c));
        let values: [Option<String>; 3] = self
            .run(|mut c| async move {
                let (coaching, gym, names) = c.mget(&keys).await?;
                Ok([coaching, gym, names])
            })
            .await?;
        let stamps = Stamps::new(values);
        self.restore_missing(&stamps).await;
        Ok(stamps)
    }

    /// Replaces the stamps of `data` with fresh values, in one round trip: what the gateway
    /// remembers of them is no longer served, by any replica. At best effort, like a service's
    /// own renewal ([`platform::stamps::Stamp::renew`]): what is remembered ages out anyway.
    pub async fn renew(&self, data: &[Context]) {
        if data.is_empty() {
            return;
        }
        let pairs: Vec<(String, String)> = data
            .iter()
            .map(|context| (stamps::key(&self.namespace, *context), stamps::fresh()))
            .collect();
        let result = self
            .run(|mut c| async move { c.mset::<_, _, ()>(&pairs).await })
            .await;
        if let Err(error) = result {
            tracing::warn!(%error, ?data,
                "change stamps not renewed; gateways may serve what they remember until it ages out");
        }
    }

    /// Sets a fresh value where a stamp is missing (Redis restarted empty), only if still
    /// missing: safe whenever it happens, since what is rendered after it reflects every change
    /// committed before it. The request at hand goes without memory; the next ones have it.
    async fn restore_missing(&self, stamps: &Stamps) {
        for context in stamps.missing() {
            let key = stamps::key(&self.namespace, context);
            let _ = self
                .run(|mut c| async move { c.set_nx::<_, _, ()>(key, stamps::fresh()).await })
                .await;
        }
    }

    /// Writes a user's token version that identity-svc answered, for a day, unless Redis holds a
    /// newer one or the user's deletion: versions only grow, and a version read before a change
    /// must not overwrite the change. Redis is believed only against a token ([`crate::auth`]),
    /// so this only ever hastens a refusal.
    pub async fn cache_token_version(&self, user_id: &str, version: i64) -> Result<(), RedisDown> {
        let mut invocation = RAISE_VERSION.prepare_invoke();
        invocation
            .key(self.key(&format!("tv:{user_id}")))
            .arg(version)
            .arg(86_400);
        self.run(|mut c| async move { invocation.invoke_async::<()>(&mut c).await })
            .await
    }

    /// Marks one token revoked until it would have expired anyway.
    pub async fn revoke(&self, jti: &str, ttl_secs: u64) -> Result<(), RedisDown> {
        let key = self.key(&format!("rv:{jti}"));
        self.run(|mut c| async move { c.set_ex::<_, _, ()>(key, 1, ttl_secs.max(1)).await })
            .await
    }

    /// Counts one hit against each of `buckets` (name, hits allowed per minute) in the current
    /// minute window, in order, stopping at the first that is over its limit; returns the seconds
    /// left in the window when one is, `None` when every bucket still has room. One round trip:
    /// a sign-in counts against its address and its email at once.
    pub async fn hit(&self, buckets: &[(String, u32)]) -> Result<Option<u64>, RedisDown> {
        Ok(self.count(buckets).await?.retry_after)
    }

    /// [`Self::hit`], answering also which window was counted, for [`Self::forgive`].
    pub async fn count(&self, buckets: &[(String, u32)]) -> Result<Counted, RedisDown> {
        let now = platform::auth::now_secs().max(0) as u64;
        let window = now / 60;
        let mut invocation = COUNT_HITS.prepare_invoke();
        for (bucket, _) in buckets {
            invocation.key(self.key(&format!("rl:{bucket}:{window}")));
        }
        for (_, limit) in buckets {
            invocation.arg(*limit);
        }
        let over: u32 = self
            .run(|mut c| async move { invocation.invoke_async(&mut c).await })
            .await?;
        Ok(Counted {
            retry_after: (over > 0).then_some(60 - now % 60),
            window,
        })
    }

    /// Takes back one hit counted against `bucket` in `window` (a sign-in that succeeded does not
    /// count as a failure). Never below zero.
    pub async fn forgive(&self, bucket: &str, window: u64) -> Result<(), RedisDown> {
        let mut invocation = FORGIVE.prepare_invoke();
        invocation.key(self.key(&format!("rl:{bucket}:{window}")));
        self.run(|mut c| async move { invocation.invoke_async::<()>(&mut c).await })
            .await
    }

    /// Claims an idempotency key (`parts` under the namespace) with `claim` for `lease_secs`
    /// unless something holds it; answers what holds it, or `None` when the claim is ours.
    pub async fn claim_idempotency(
        &self,
        parts: &str,
        claim: &str,
        lease_secs: u64,
    ) -> Result<Option<String>, RedisDown> {
        let mut invocation = crate::idempotency::claim_script().prepare_invoke();
        invocation.key(self.key(parts)).arg(claim).arg(lease_secs);
        self.run(|mut c| async move { invocation.invoke_async(&mut c).await })
            .await
    }

    /// Lets go of an idempotency key, only while it still holds `claim` (ours).
    pub async fn release_idempotency(&self, parts: &str, claim: &str) -> Result<(), RedisDown> {
        let mut invocation = RELEASE.prepare_invoke();
        invocation.key(self.key(parts)).arg(claim);
        self.run(|mut c| async move { invocation.invoke_async::<()>(&mut c).await })
            .await
    }

    /// Keeps the first answer under an idempotency key for `keep_secs`.
    pub async fn keep_idempotency(&self, parts: &str, record: &str, keep_secs: u64) -> Result<(), RedisDown> {
        let key = self.key(parts);
        self.run(|mut c| async move { c.set_ex::<_, _, ()>(key, record, keep_secs).await })
            .await
    }

    /// Whether Redis answers, for readiness reporting.
    pub async fn ping(&self) -> Result<(), RedisDown> {
        self.run(|mut c| async move { redis::cmd("PING").query_async::<String>(&mut c).await.map(|_| ()) })
            .await
    }
}
