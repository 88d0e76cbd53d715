//! The gateway's use of Redis: token revocation lookups, the change stamps that say whether what
//! the gateway remembers is current ([`platform::stamps`]), and the shared rate-limit counters, and
//! the idempotency keys ([`crate::idempotency`]).
//!
//! Redis is a cache and a counter here, never the truth: every operation has a short timeout,
//! and when Redis is down the caller falls back (revocation asks identity-svc; rate limits fail
//! open and say so in the log).

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

    /// Caches a user's token version for a day, only if nothing is cached: identity-svc writes
    /// the key on every change, and a version read before that change must not overwrite it.
    pub async fn cache_token_version(&self, user_id: &str, version: i64) -> Result<(), RedisDown> {
        let key = self.key(&format!("tv:{user_id}"));
        self.run(|mut c| async move {
            redis::cmd("SET")
                .arg(key)
                .arg(version)
                .arg("EX")
                .arg(86_400)
                .arg("NX")
                .query_async::<()>(&mut c)
                .await
        })
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
        Ok((over > 0).then_some(60 - now % 60))
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
