//! A lazily made, shared Redis connection whose every use is bounded in time: Redis speeds
//! things up and carries events, but it is never the truth, so no call waits on it for long and
//! Redis being down never fails an RPC.

use std::{sync::Arc, time::Duration};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::OnceCell;

/// Why a Redis operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum RedisDown {
    #[error("redis did not answer within {0:?}")]
    TimedOut(Duration),
    #[error("redis: {0}")]
    Failed(#[from] redis::RedisError),
    #[error("redis answered something unexpected: {0}")]
    Unexpected(String),
}

/// One Redis connection (made on first use, re-made by the manager after an outage) with a time
/// limit on every operation, connecting included.
#[derive(Clone)]
pub struct RedisLink {
    client: redis::Client,
    manager: Arc<OnceCell<ConnectionManager>>,
    limit: Duration,
}

impl RedisLink {
    /// A link to `url`; nothing connects until the first operation.
    pub fn new(url: &str, limit: Duration) -> redis::RedisResult<Self> {
        Ok(Self {
            client: redis::Client::open(url)?,
            manager: Arc::new(OnceCell::new()),
            limit,
        })
    }

    async fn connection(&self) -> Result<ConnectionManager, RedisDown> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(self.limit)
            .set_response_timeout(self.limit)
            .set_number_of_retries(1);
        let manager = self
            .manager
            .get_or_try_init(|| ConnectionManager::new_with_config(self.client.clone(), config))
            .await?;
        Ok(manager.clone())
    }

    /// Runs `op` on the connection; connecting and the operation together take at most the
    /// link's limit.
    pub async fn run<T, F, Fut>(&self, op: F) -> Result<T, RedisDown>
    where
        F: FnOnce(ConnectionManager) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        tokio::time::timeout(self.limit, async {
            let conn = self.connection().await?;
            Ok(op(conn).await?)
        })
        .await
        .map_err(|_| RedisDown::TimedOut(self.limit))?
    }
}
