//! gym-svc's configuration, read once from the environment.

use std::net::SocketAddr;

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
}

impl Config {
    /// Reads `DATABASE_URL`, `LISTEN_ADDR`, `OPS_ADDR`, `JWT_PUBLIC_KEY_FILE`, `REDIS_URL` and
    /// `REDIS_NAMESPACE`, reporting every missing or malformed one together.
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut env = Env::new();
        let config = Config {
            database_url: env.required("DATABASE_URL"),
            listen_addr: env.parsed("LISTEN_ADDR", ([127, 0, 0, 1], 50054).into()),
            ops_addr: env.parsed("OPS_ADDR", ([127, 0, 0, 1], 9104).into()),
            jwt_public_key: env.file("JWT_PUBLIC_KEY_FILE"),
            redis_url: env.or("REDIS_URL", "redis://127.0.0.1:6379"),
            redis_namespace: env.or("REDIS_NAMESPACE", "courtside"),
        };
        env.finish()?;
        Ok(config)
    }
}
