//! The gateway's configuration, read once from the environment.

use std::{fmt, net::SocketAddr, path::PathBuf, sync::Arc, time::Duration};

use platform::{
    balance::Resolve,
    config::{ConfigError, Env},
};

/// Stripe.js, as Stripe serves it.
pub const DEFAULT_STRIPE_JS_URL: &str = "https://js.stripe.com/v3/";

#[derive(Clone)]
pub struct Config {
    pub listen_addr: SocketAddr,
    pub ops_addr: SocketAddr,
    /// Each `*_URL` is one URL, a comma-separated list, or a host name with several addresses.
    pub identity_url: String,
    pub coaching_url: String,
    pub booking_url: String,
    pub gym_url: String,
    /// Ed25519 SPKI PEM.
    pub jwt_public_key: String,
    pub redis_url: String,
    pub redis_namespace: String,
    /// Where profile pictures are written; nginx serves them under `/uploads/`.
    pub upload_dir: PathBuf,
    /// Login and registration attempts per client address per minute.
    pub auth_rate_limit_per_minute: u32,
    /// Failed sign-ins per email from one client address per minute (a correct password from
    /// another address is never held back), and registration and reset requests per email.
    pub auth_rate_limit_per_email_per_minute: u32,
    /// The proxies whose `X-Forwarded-For` names the client (nginx, an Ingress): from any other
    /// peer the header is ignored. `TRUSTED_PROXIES`, comma-separated ranges; loopback by default.
    pub trusted_proxies: crate::extract::TrustedProxies,
    /// Where people reach Courtside (nginx's origin, no trailing slash): the base of the links the
    /// gateway hands out, such as a calendar feed's address.
    pub public_url: String,
    /// Fetches of one calendar feed per minute.
    pub calendar_rate_limit_per_minute: u32,
    /// Fetches of calendar feeds (any, known or not) per client address per minute.
    pub calendar_rate_limit_per_address_per_minute: u32,
    /// Live notification streams one person may hold open at a time, over every replica.
    pub live_streams_per_user: u32,
    /// Profile pictures one person may upload per UTC day.
    pub uploads_per_user_per_day: u32,
    /// Requests one API token may make per minute, over every replica
    /// (`API_TOKEN_RATE_LIMIT_PER_MINUTE`, default 600).
    pub api_token_rate_limit_per_minute: u32,
    /// Stripe's publishable key (`pk_...`), for the browser's Stripe.js (`STRIPE_PUBLISHABLE_KEY`,
    /// served by `GET /api/payments/config`; empty when unset). Not a secret.
    pub stripe_publishable_key: String,
    /// Where the browser loads Stripe.js from (`STRIPE_JS_URL`, default
    /// `https://js.stripe.com/v3/`; with localstripe, its mock behind nginx's `/stripe/`).
    pub stripe_js_url: String,
    /// The deadline of every gRPC call.
    pub grpc_deadline: Duration,
    /// How often the host names in the `*_URL`s are resolved again.
    pub grpc_resolve_interval: Duration,
    /// Resolves those host names instead of DNS (tests feed it address sets); `None` in a process.
    pub resolver: Option<Arc<dyn Resolve>>,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("listen_addr", &self.listen_addr)
            .field("ops_addr", &self.ops_addr)
            .field("identity_url", &self.identity_url)
            .field("coaching_url", &self.coaching_url)
            .field("booking_url", &self.booking_url)
            .field("gym_url", &self.gym_url)
            .field("redis_url", &self.redis_url)
            .field("redis_namespace", &self.redis_namespace)
            .field("upload_dir", &self.upload_dir)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("public_url", &self.public_url)
            .field("stripe_publishable_key", &self.stripe_publishable_key)
            .field("stripe_js_url", &self.stripe_js_url)
            .field("grpc_deadline", &self.grpc_deadline)
            .field("grpc_resolve_interval", &self.grpc_resolve_interval)
            .finish_non_exhaustive()
    }
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut env = Env::new();
        let config = Config {
            listen_addr: env.parsed("LISTEN_ADDR", ([127, 0, 0, 1], 8000).into()),
            ops_addr: env.parsed("OPS_ADDR", ([127, 0, 0, 1], 9100).into()),
            identity_url: env.or("IDENTITY_URL", "http://127.0.0.1:50051"),
            coaching_url: env.or("COACHING_URL", "http://127.0.0.1:50052"),
            booking_url: env.or("BOOKING_URL", "http://127.0.0.1:50053"),
            gym_url: env.or("GYM_URL", "http://127.0.0.1:50054"),
            jwt_public_key: env.file("JWT_PUBLIC_KEY_FILE"),
            redis_url: env.or("REDIS_URL", "redis://127.0.0.1:6379"),
            redis_namespace: env.or("REDIS_NAMESPACE", "courtside"),
            upload_dir: env.or("UPLOAD_DIR", "./uploads").into(),
            auth_rate_limit_per_minute: env.parsed("AUTH_RATE_LIMIT_PER_MINUTE", 20),
            auth_rate_limit_per_email_per_minute: env.parsed("AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE", 10),
            trusted_proxies: env.parsed("TRUSTED_PROXIES", crate::extract::TrustedProxies::loopback()),
            public_url: env
                .or("PUBLIC_URL", "http://127.0.0.1:8080")
                .trim_end_matches('/')
                .to_owned(),
            calendar_rate_limit_per_minute: env.parsed("CALENDAR_RATE_LIMIT_PER_MINUTE", 30),
            calendar_rate_limit_per_address_per_minute: env
                .parsed("CALENDAR_RATE_LIMIT_PER_ADDRESS_PER_MINUTE", 600),
            live_streams_per_user: env.parsed("LIVE_STREAMS_PER_USER", 5),
            uploads_per_user_per_day: env.parsed("UPLOADS_PER_USER_PER_DAY", 20),
            api_token_rate_limit_per_minute: env.parsed("API_TOKEN_RATE_LIMIT_PER_MINUTE", 600),
            stripe_publishable_key: env.or("STRIPE_PUBLISHABLE_KEY", ""),
            stripe_js_url: env.or("STRIPE_JS_URL", DEFAULT_STRIPE_JS_URL),
            grpc_deadline: Duration::from_millis(env.parsed("GRPC_DEADLINE_MS", 3000)),
            grpc_resolve_interval: Duration::from_millis(env.parsed("GRPC_RESOLVE_INTERVAL_MS", 5000)),
            resolver: None,
        };
        env.finish()?;
        Ok(config)
    }
}
