//! gym-svc's configuration, read once from the environment.

use std::{net::SocketAddr, time::Duration};

use platform::config::{ConfigError, Env};

/// Everything gym-svc needs to start.
#[derive(Clone, Debug)]
pub struct Config {
    pub database_url: String,
    /// The gRPC port (default 127.0.0.1:50054).
    pub listen_addr: SocketAddr,
    /// The ops port: `/metrics`, `/livez`, `/readyz` (default 127.0.0.1:9104).
    pub ops_addr: SocketAddr,
    /// Ed25519 SPKI PEM (the contents, not the path) that verifies callers' tokens.
    pub jwt_public_key: String,
    pub redis_url: String,
    /// Prefix of the Redis keys, including the event stream this service consumes.
    pub redis_namespace: String,
    /// How often the scheduler expires the court requests due (`SCHEDULER_INTERVAL_MS`, default
    /// 5000): a request expires this long after its start at the latest, plus the tick's own work.
    pub scheduler_interval: Duration,
}

impl Config {
    /// Reads `DATABASE_URL`, `LISTEN_ADDR`, `OPS_ADDR`, `JWT_PUBLIC_KEY_FILE`, `REDIS_URL`,
    /// `REDIS_NAMESPACE` and `SCHEDULER_INTERVAL_MS`, reporting every missing or malformed one
    /// together.
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut env = Env::new();
        let config = Config {
            database_url: env.required("DATABASE_URL"),
            listen_addr: env.parsed("LISTEN_ADDR", ([127, 0, 0, 1], 50054).into()),
            ops_addr: env.parsed("OPS_ADDR", ([127, 0, 0, 1], 9104).into()),
            jwt_public_key: env.file("JWT_PUBLIC_KEY_FILE"),
            redis_url: env.or("REDIS_URL", "redis://127.0.0.1:6379"),
            redis_namespace: env.or("REDIS_NAMESPACE", "courtside"),
            scheduler_interval: Duration::from_millis(env.parsed("SCHEDULER_INTERVAL_MS", 5000)),
        };
        env.finish()?;
        Ok(config)
    }
}
