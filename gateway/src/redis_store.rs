//! The gateway's use of Redis: token revocation lookups and the shared rate-limit counters.
//!
//! Redis is a cache and a counter here, never the truth: every operation has a short timeout,
//! and when Redis is down the caller falls back (revocation asks identity-svc; rate limits fail
//! open and say so in the log).

use std::{sync::Arc, time::Duration};

use redis::{AsyncCommands, aio::ConnectionManager};
use tokio::sync::OnceCell;

/// How long any Redis operation may take before it counts as Redis being down.
const OP_TIMEOUT: Duration = Duration::from_millis(150);

#[derive(Clone)]
pub struct RedisStore {
    client: redis::Client,
    manager: Arc<OnceCell<ConnectionManager>>,
    pub namespace: String,
}

#[derive(Debug, thiserror::Error)]
#[error("redis unavailable: {0}")]
pub struct RedisDown(String);

impl RedisStore {
    pub fn new(url: &str, namespace: String) -> anyhow::Result<Self> {
        Ok(Self {
            client: redis::Client::open(url)?,
            manager: Arc::new(OnceCell::new()),
            namespace,
        })
    }

    async fn conn(&self) -> Result<ConnectionManager, RedisDown> {
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(OP_TIMEOUT)
            .set_response_timeout(OP_TIMEOUT)
            .set_number_of_retries(1);
        let manager = tokio::time::timeout(
            OP_TIMEOUT * 2,
            self.manager
                .get_or_try_init(|| ConnectionManager::new_with_config(self.client.clone(), config)),
        )
        .await
        .map_err(|_| RedisDown("connect timed out".into()))?
        .map_err(|e| RedisDown(e.to_string()))?;
        Ok(manager.clone())
    }

    async fn run<T, F, Fut>(&self, op: F) -> Result<T, RedisDown>
    where
        F: FnOnce(ConnectionManager) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        let conn = self.conn().await?;
        tokio::time::timeout(OP_TIMEOUT, op(conn))
            .await
            .map_err(|_| RedisDown("timed out".into()))?
            .map_err(|e| RedisDown(e.to_string()))
    }

    fn key(&self, parts: &str) -> String {
        format!("{}:{parts}", self.namespace)
    }

    /// The cached token version of a user (`-1` once deleted) and whether `jti` was revoked.
    pub async fn token_state(&self, user_id: &str, jti: &str) -> Result<(Option<i64>, bool), RedisDown> {
        let keys = [self.key(&format!("tv:{user_id}")), self.key(&format!("rv:{jti}"))];
        let (version, revoked): (Option<i64>, Option<String>) =
            self.run(|mut c| async move { c.mget(&keys).await }).await?;
        Ok((version, revoked.is_some()))
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

    /// Counts one hit against `bucket` in the current minute window; returns the count and the
    /// seconds left in the window.
    pub async fn hit(&self, bucket: &str) -> Result<(u64, u64), RedisDown> {
        let now = proto::auth::now_secs().max(0) as u64;
        let window = now / 60;
        let key = self.key(&format!("rl:{bucket}:{window}"));
        let count: u64 = self
            .run(|mut c| async move {
                let (count,): (u64,) = redis::pipe()
                    .atomic()
                    .incr(&key, 1)
                    .expire(&key, 61)
                    .ignore()
                    .query_async(&mut c)
                    .await?;
                Ok(count)
            })
            .await?;
        Ok((count, 60 - now % 60))
    }

    /// Whether Redis answers, for readiness reporting.
    pub async fn ping(&self) -> Result<(), RedisDown> {
        self.run(|mut c| async move { redis::cmd("PING").query_async::<String>(&mut c).await.map(|_| ()) })
            .await
    }
}
