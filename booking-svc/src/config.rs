//! booking-svc's configuration, read once from the environment.

use std::{net::SocketAddr, time::Duration};

use platform::config::{ConfigError, Env};

#[derive(Clone, Debug)]
pub struct Config {
    pub database_url: String,
    /// gRPC (default 127.0.0.1:50053).
    pub listen_addr: SocketAddr,
    /// `/metrics`, `/livez`, `/readyz` (default 127.0.0.1:9103).
    pub ops_addr: SocketAddr,
    /// Ed25519 SPKI PEM (the contents, not the path).
    pub jwt_public_key: String,
    pub redis_url: String,
    /// Redis key prefix; the event stream lives under it.
    pub redis_namespace: String,
    /// coaching-svc's gRPC URL (default http://127.0.0.1:50052): one URL, a comma-separated list,
    /// or a host name with several addresses.
    pub coaching_url: String,
    /// The deadline of each call to coaching-svc (`COACHING_TIMEOUT_MS`, default 2000).
    pub coaching_timeout: Duration,
    /// How often a host name in `COACHING_URL` is resolved again (`GRPC_RESOLVE_INTERVAL_MS`).
    pub grpc_resolve_interval: Duration,
    /// How often the scheduler looks for bookings due to expire or complete
    /// (`SCHEDULER_INTERVAL_MS`, default 5000): a timed transition is applied this long after its
    /// due time at the latest, plus the tick's own work.
    pub scheduler_interval: Duration,
    /// How many pending requests one client may hold with one coach at a time
    /// (`MAX_PENDING_BOOKINGS_PER_COACH`, default 3): one more is refused until the coach answers
    /// one or the client cancels one, so no client holds a coach's week with open requests.
    pub max_pending_bookings_per_coach: u32,
    /// Stripe's API (`STRIPE_API_BASE`, default https://api.stripe.com; localstripe in development
    /// and CI) and the secret key it is called with (`STRIPE_SECRET_KEY`).
    pub stripe_api_base: String,
    pub stripe_secret_key: String,
    /// Signs the provider's webhook events (`STRIPE_WEBHOOK_SECRET`).
    pub stripe_webhook_secret: String,
    /// The platform's fee on each capture, in basis points (`PLATFORM_FEE_BPS`, default 1000 = 10 %).
    pub platform_fee_bps: i64,
    /// How often the payment worker looks for payment work due (`PAYMENT_INTERVAL_MS`, default 2000).
    pub payment_interval: Duration,
    /// How often open and recent payments are compared with the provider
    /// (`RECONCILE_INTERVAL_MS`, default 3600000: hourly).
    pub reconcile_interval: Duration,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut env = Env::new();
        let config = Config {
            database_url: env.required("DATABASE_URL"),
            listen_addr: env.parsed("LISTEN_ADDR", ([127, 0, 0, 1], 50053).into()),
            ops_addr: env.parsed("OPS_ADDR", ([127, 0, 0, 1], 9103).into()),
            jwt_public_key: env.file("JWT_PUBLIC_KEY_FILE"),
            redis_url: env.or("REDIS_URL", "redis://127.0.0.1:6379"),
            redis_namespace: env.or("REDIS_NAMESPACE", "courtside"),
            coaching_url: env.or("COACHING_URL", "http://127.0.0.1:50052"),
            coaching_timeout: Duration::from_millis(env.parsed("COACHING_TIMEOUT_MS", 2000)),
            grpc_resolve_interval: Duration::from_millis(env.parsed("GRPC_RESOLVE_INTERVAL_MS", 5000)),
            scheduler_interval: Duration::from_millis(env.parsed("SCHEDULER_INTERVAL_MS", 5000)),
            max_pending_bookings_per_coach: env.parsed("MAX_PENDING_BOOKINGS_PER_COACH", 3),
            stripe_api_base: env.or("STRIPE_API_BASE", "https://api.stripe.com"),
            stripe_secret_key: env.required("STRIPE_SECRET_KEY"),
            stripe_webhook_secret: env.required("STRIPE_WEBHOOK_SECRET"),
            platform_fee_bps: env.parsed("PLATFORM_FEE_BPS", 1000),
            payment_interval: Duration::from_millis(env.parsed("PAYMENT_INTERVAL_MS", 2000)),
            reconcile_interval: Duration::from_millis(env.parsed("RECONCILE_INTERVAL_MS", 3_600_000)),
        };
        env.finish()?;
        Ok(config)
    }
}
