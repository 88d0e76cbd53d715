//! coaching-svc's configuration, read once from the environment.

use std::net::SocketAddr;

use platform::config::{ConfigError, Env};

/// Everything coaching-svc reads from the environment.
#[derive(Clone, Debug)]
pub struct Config {
    pub database_url: String,
    /// gRPC (`LISTEN_ADDR`, default 127.0.0.1:50052).
    pub listen_addr: SocketAddr,
    /// `/metrics`, `/livez`, `/readyz` (`OPS_ADDR`, default 127.0.0.1:9102).
    pub ops_addr: SocketAddr,
    /// Ed25519 SPKI PEM (the contents of `JWT_PUBLIC_KEY_FILE`).
    pub jwt_public_key: String,
    pub redis_url: String,
    /// The Redis key prefix the event stream lives under.
    pub redis_namespace: String,
}

impl Config {
    /// Reads the configuration, reporting every missing or malformed variable at once.
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut env = Env::new();
        let config = Config {
            database_url: env.required("DATABASE_URL"),
            listen_addr: env.parsed("LISTEN_ADDR", ([127, 0, 0, 1], 50052).into()),
            ops_addr: env.parsed("OPS_ADDR", ([127, 0, 0, 1], 9102).into()),
            jwt_public_key: env.file("JWT_PUBLIC_KEY_FILE"),
            redis_url: env.or("REDIS_URL", "redis://127.0.0.1:6379"),
            redis_namespace: env.or("REDIS_NAMESPACE", "courtside"),
        };
        env.finish()?;
        Ok(config)
    }
}
