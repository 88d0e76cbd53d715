//! identity-svc's configuration, read once from the environment.

use std::net::SocketAddr;

use proto::config::{ConfigError, Env};

/// The first admin, created at start when no admin exists.
#[derive(Clone, Debug)]
pub struct AdminSeed {
    pub email: String,
    pub password: String,
    pub full_name: String,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub database_url: String,
    pub listen_addr: SocketAddr,
    pub ops_addr: SocketAddr,
    /// Ed25519 PKCS#8 PEM: only identity-svc signs tokens.
    pub jwt_private_key: String,
    /// Ed25519 SPKI PEM.
    pub jwt_public_key: String,
    pub redis_url: String,
    pub redis_namespace: String,
    pub admin: Option<AdminSeed>,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut env = Env::new();
        let admin = match (env.optional("ADMIN_EMAIL"), env.optional("ADMIN_PASSWORD")) {
            (Some(email), Some(password)) => Some(AdminSeed {
                email,
                password,
                full_name: env.or("ADMIN_NAME", "Platform Admin"),
            }),
            _ => None,
        };
        let config = Config {
            database_url: env.required("DATABASE_URL"),
            listen_addr: env.parsed("LISTEN_ADDR", ([127, 0, 0, 1], 50051).into()),
            ops_addr: env.parsed("OPS_ADDR", ([127, 0, 0, 1], 9101).into()),
            jwt_private_key: env.file("JWT_PRIVATE_KEY_FILE"),
            jwt_public_key: env.file("JWT_PUBLIC_KEY_FILE"),
            redis_url: env.or("REDIS_URL", "redis://127.0.0.1:6379"),
            redis_namespace: env.or("REDIS_NAMESPACE", "courtside"),
            admin,
        };
        env.finish()?;
        Ok(config)
    }
}
