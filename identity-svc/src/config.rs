//! identity-svc's configuration, read once from the environment.

use std::{fmt, net::SocketAddr, time::Duration};

use platform::config::{ConfigError, Env};

/// The first admin, created at start when no admin exists.
#[derive(Clone)]
pub struct AdminSeed {
    pub email: String,
    pub password: String,
    pub full_name: String,
}

/// Everything identity-svc reads from the environment.
#[derive(Clone)]
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
    /// How identity reaches people (issue 18): notifications, reminders, email.
    pub outreach: Outreach,
}

/// How identity reaches people: the app's public address for links, and how often the reminder
/// scheduler ticks.
#[derive(Clone, Debug)]
pub struct Outreach {
    /// The app's address as people open it (`PUBLIC_URL`), without a trailing slash.
    pub public_url: String,
    /// How often due reminders are looked for (`REMINDER_INTERVAL_MS`).
    pub reminder_interval: Duration,
    /// The SMTP server emails go to (`SMTP_URL`: `smtp://127.0.0.1:1025`, STARTTLS with
    /// `smtp://…:587?tls=required`, TLS with `smtps://…:465`); unset, emails wait in the outbox.
    pub smtp_url: Option<String>,
    /// Who emails come from (`MAIL_FROM`).
    pub mail_from: String,
    /// The longest pause between two attempts at one email while the server is away.
    pub mail_retry_max: Duration,
    /// The most password-reset letters one account gets in an hour
    /// (`RESET_LETTERS_PER_EMAIL_PER_HOUR`); further requests still answer 202 and mail nothing.
    pub reset_letters_per_hour: u32,
    /// How webhooks reach integrators (issue 37).
    pub webhooks: WebhookSettings,
    /// The conversations' limits (issue 36).
    pub messages: MessageSettings,
}

/// The conversations' limits (`crate::conversations`).
#[derive(Clone, Debug)]
pub struct MessageSettings {
    /// The most messages one person sends in a minute (`MESSAGES_PER_MINUTE`, 20); more is a 429.
    pub per_minute: u32,
    /// The most new threads a client starts in a day (`NEW_CONVERSATIONS_PER_DAY`, 10).
    pub new_conversations_per_day: u32,
}

impl Default for MessageSettings {
    fn default() -> Self {
        Self {
            per_minute: 20,
            new_conversations_per_day: 10,
        }
    }
}

/// How webhooks are delivered (`crate::webhooks`).
#[derive(Clone, Debug)]
pub struct WebhookSettings {
    /// Development and tests only (`WEBHOOK_ALLOW_LOOPBACK`, default false): also allows http://
    /// URLs and loopback addresses (never private or link-local ones).
    pub allow_loopback: bool,
    /// The longest one delivery attempt may take, connecting included (`WEBHOOK_TIMEOUT_MS`).
    pub timeout: Duration,
    /// How often due deliveries are looked for when nothing wakes the worker
    /// (`WEBHOOK_INTERVAL_MS`); a new event wakes it at once.
    pub interval: Duration,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            allow_loopback: false,
            timeout: Duration::from_secs(5),
            interval: Duration::from_secs(1),
        }
    }
}

impl Default for Outreach {
    fn default() -> Self {
        Self {
            public_url: "http://127.0.0.1:8080".into(),
            reminder_interval: Duration::from_secs(5),
            smtp_url: None,
            mail_from: "Courtside <no-reply@courtside.local>".into(),
            mail_retry_max: Duration::from_secs(60),
            reset_letters_per_hour: 3,
            webhooks: WebhookSettings::default(),
            messages: MessageSettings::default(),
        }
    }
}

// Secrets never reach a log through `{:?}`.
impl fmt::Debug for AdminSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AdminSeed")
            .field("email", &self.email)
            .field("password", &"<redacted>")
            .field("full_name", &self.full_name)
            .finish()
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("database_url", &"<redacted: may hold a password>")
            .field("listen_addr", &self.listen_addr)
            .field("ops_addr", &self.ops_addr)
            .field("jwt_private_key", &"<redacted>")
            .field("jwt_public_key", &self.jwt_public_key)
            .field("redis_url", &"<redacted: may hold a password>")
            .field("redis_namespace", &self.redis_namespace)
            .field("admin", &self.admin)
            .field("outreach", &self.outreach)
            .finish()
    }
}

impl Config {
    /// Reads the environment, naming every missing or malformed variable at once.
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut env = Env::new();
        let defaults = Outreach::default();
        let hooks = WebhookSettings::default();
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
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
            outreach: Outreach {
                public_url: env
                    .or("PUBLIC_URL", &defaults.public_url)
                    .trim_end_matches('/')
                    .to_owned(),
                reminder_interval: Duration::from_millis(env.parsed(
                    "REMINDER_INTERVAL_MS",
                    u64::try_from(defaults.reminder_interval.as_millis()).unwrap_or(5000),
                )),
                smtp_url: env.optional("SMTP_URL"),
                mail_from: env.or("MAIL_FROM", &defaults.mail_from),
                mail_retry_max: defaults.mail_retry_max,
                reset_letters_per_hour: env.parsed(
                    "RESET_LETTERS_PER_EMAIL_PER_HOUR",
                    defaults.reset_letters_per_hour,
                ),
                webhooks: WebhookSettings {
                    allow_loopback: env.parsed("WEBHOOK_ALLOW_LOOPBACK", hooks.allow_loopback),
                    timeout: Duration::from_millis(env.parsed("WEBHOOK_TIMEOUT_MS", millis(hooks.timeout))),
                    interval: Duration::from_millis(
                        env.parsed("WEBHOOK_INTERVAL_MS", millis(hooks.interval)),
                    ),
                },
                messages: MessageSettings {
                    per_minute: env.parsed("MESSAGES_PER_MINUTE", MessageSettings::default().per_minute),
                    new_conversations_per_day: env.parsed(
                        "NEW_CONVERSATIONS_PER_DAY",
                        MessageSettings::default().new_conversations_per_day,
                    ),
                },
            },
        };
        env.finish()?;
        Ok(config)
    }
}
