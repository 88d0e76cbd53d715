//! Starts identity-svc in-process against a fresh database and offers typed helpers; the tests
//! keep their assertions in view.

use std::time::Duration;

use identity_svc::{AdminSeed, Config};
use platform::{
    auth::{Role, TokenSigner},
    testing::{self, POSTGRES, StatementCounter, any_port},
};
use proto::identity::v1::{self as pb, identity_client::IdentityClient};
use sqlx::PgPool;
use tokio::{sync::oneshot, task::JoinHandle};
use tonic::{Code, Request, Status, transport::Channel};
use uuid::Uuid;

pub const ADMIN_EMAIL: &str = "admin@identity.test";
pub const ADMIN_PASSWORD: &str = "Courtside-admin-2026";
pub const PASSWORD: &str = platform::testing::FIXTURE_PASSWORD;
pub use platform::testing::{DEAD_REDIS_URL, REDIS_URL};

/// A running identity-svc. Dropping it stops the service.
pub struct TestApp {
    pub client: IdentityClient<Channel>,
    pub db: PgPool,
    pub signer: TokenSigner,
    /// (private PEM, public PEM)
    pub keys: (String, String),
    pub namespace: String,
    pub ops_port: u16,
    /// Counts the statements the service sends PostgreSQL (`start_counted` only).
    statements: Option<StatementCounter>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A fresh, empty database for one test.
pub async fn fresh_database() -> String {
    testing::fresh_database("identity").await
}

/// A configuration on free ports, a new key pair and namespace, with the seeded admin.
pub fn config(database_url: &str, redis_url: &str) -> Config {
    let (private, public) = platform::auth::generate_keypair();
    Config {
        database_url: database_url.to_owned(),
        listen_addr: any_port(),
        ops_addr: any_port(),
        jwt_private_key: private,
        jwt_public_key: public,
        redis_url: redis_url.to_owned(),
        redis_namespace: testing::namespace("identity-test"),
        admin: Some(AdminSeed {
            email: ADMIN_EMAIL.into(),
            password: ADMIN_PASSWORD.into(),
            full_name: "Test Admin".into(),
        }),
        outreach: identity_svc::Outreach {
            public_url: "http://courtside.test".into(),
            reminder_interval: Duration::from_millis(100),
            // The webhook tests' receivers listen on 127.0.0.1 over http.
            webhooks: identity_svc::WebhookSettings {
                allow_loopback: true,
                interval: Duration::from_millis(100),
                ..Default::default()
            },
            ..identity_svc::Outreach::default()
        },
    }
}

impl TestApp {
    /// identity-svc on a fresh database with a working Redis.
    pub async fn start() -> TestApp {
        let database_url = fresh_database().await;
        Self::start_with(config(&database_url, REDIS_URL)).await
    }

    /// identity-svc on a fresh database, connected through a relay that counts its statements.
    pub async fn start_counted() -> TestApp {
        let database_url = fresh_database().await;
        let statements = StatementCounter::start(POSTGRES)
            .await
            .expect("the statement counter");
        let mut app = Self::start_with(config(&statements.url(&database_url), REDIS_URL)).await;
        app.db = PgPool::connect(&database_url).await.expect("the test database");
        app.statements = Some(statements);
        app
    }

    /// How many statements the service has sent PostgreSQL so far (`start_counted` only).
    pub fn statements_run(&self) -> usize {
        self.statements
            .as_ref()
            .expect("an app started with start_counted")
            .count()
    }

    /// identity-svc with `config`, serving once this returns.
    pub async fn start_with(config: Config) -> TestApp {
        Self::launch(config, platform::clock::system()).await
    }

    /// identity-svc on a fresh database whose reminder scheduler reads "now" from `clock` (and
    /// ticks every 100 ms).
    pub async fn start_with_clock(clock: platform::clock::ManualClock) -> TestApp {
        let database_url = fresh_database().await;
        Self::launch(config(&database_url, REDIS_URL), std::sync::Arc::new(clock)).await
    }

    async fn launch(config: Config, clock: platform::clock::SharedClock) -> TestApp {
        let keys = (config.jwt_private_key.clone(), config.jwt_public_key.clone());
        let namespace = config.redis_namespace.clone();
        let database_url = config.database_url.clone();
        let server = identity_svc::build_with_clock(config, clock)
            .await
            .expect("identity-svc builds");
        let port = server.port();
        let ops_port = server.ops_port();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run_until(async move {
            let _ = stopped.await;
        }));
        let channel = testing::serving(port, "identity.v1.Identity").await;
        TestApp {
            client: IdentityClient::new(channel),
            db: PgPool::connect(&database_url).await.expect("the test database"),
            signer: TokenSigner::from_pem(keys.0.as_bytes()).expect("the test key"),
            keys,
            namespace,
            ops_port,
            statements: None,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Stops the service and waits until it has drained.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await
                .expect("the service task")
                .expect("the service stops cleanly");
        }
    }

    /// A client of this service (calls take `&mut`).
    pub fn client(&self) -> IdentityClient<Channel> {
        self.client.clone()
    }

    /// Registers a new user with `role` and returns (token, user).
    pub async fn register(&self, role: &str) -> (String, pb::User) {
        let email = format!("{role}-{}@identity.test", Uuid::new_v4().simple());
        let reply = self
            .client()
            .register(register_request(&email, PASSWORD, role))
            .await
            .unwrap_or_else(|s| panic!("register {role}: {s:?}"))
            .into_inner();
        (reply.token, reply.user.expect("a user"))
    }

    /// Signs in and returns (token, user).
    pub async fn login(&self, email: &str, password: &str) -> Result<(String, pb::User), Status> {
        let reply = self
            .client()
            .login(pb::LoginRequest {
                email: email.into(),
                password: password.into(),
                user_agent: "identity tests".into(),
            })
            .await?
            .into_inner();
        Ok((reply.token, reply.user.expect("a user")))
    }

    /// Signs in as the seeded admin and returns (token, user).
    pub async fn admin(&self) -> (String, pb::User) {
        self.login(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await
            .expect("the seeded admin signs in")
    }

    /// A valid token for any user id and role, as if identity-svc had issued it at version 0.
    pub fn token_for(&self, user_id: Uuid, role: Role) -> String {
        self.signer.issue(user_id, role, 0).expect("a token").0
    }

    /// The claims of a token this service issued.
    pub fn claims(&self, token: &str) -> platform::auth::Claims {
        platform::auth::TokenVerifier::from_pem(self.keys.1.as_bytes())
            .expect("the test public key")
            .verify(token)
            .expect("a valid token")
    }

    /// The user's token state as CheckToken reports it: (token_version, jti_revoked).
    pub async fn check_token(&self, user_id: &str, jti: Uuid) -> (Option<i64>, bool) {
        let reply = self
            .client()
            .check_token(pb::CheckTokenRequest {
                user_id: user_id.into(),
                jti: jti.to_string(),
            })
            .await
            .expect("CheckToken answers")
            .into_inner();
        (reply.token_version, reply.jti_revoked)
    }

    /// The undelivered outbox rows as (event_id, JSON payload), oldest first.
    pub async fn unpublished_events(&self) -> Vec<(Uuid, serde_json::Value)> {
        outbox_rows(
            &self.db,
            "select event_id, payload::text from identity.outbox where published_at is null order by seq",
        )
        .await
    }

    /// Every outbox row as (event_id, JSON payload), oldest first.
    pub async fn outbox(&self) -> Vec<(Uuid, serde_json::Value)> {
        outbox_rows(
            &self.db,
            "select event_id, payload::text from identity.outbox order by seq",
        )
        .await
    }

    /// The entries of this test's event stream, oldest first, as JSON envelopes.
    pub async fn stream_events(&self) -> Vec<serde_json::Value> {
        let mut redis = redis_connection().await;
        let stream = platform::events::stream_key(&self.namespace);
        let reply: redis::streams::StreamRangeReply = redis::cmd("XRANGE")
            .arg(&stream)
            .arg("-")
            .arg("+")
            .query_async(&mut redis)
            .await
            .expect("XRANGE");
        reply
            .ids
            .iter()
            .map(|entry| {
                let json: String = entry.get(platform::events::FIELD).expect("an event field");
                serde_json::from_str(&json).expect("a JSON envelope")
            })
            .collect()
    }

    /// Appends `envelope` to this test's event stream, as booking-svc's or gym-svc's relay would.
    pub async fn publish(&self, envelope: &platform::events::Envelope) {
        let mut redis = redis_connection().await;
        platform::events::publish(
            &mut redis,
            &platform::events::stream_key(&self.namespace),
            envelope,
        )
        .await
        .expect("XADD");
    }

    /// The user's whole inbox, newest first.
    pub async fn inbox(&self, token: &str) -> Vec<pb::Notification> {
        self.client()
            .list_notifications(authed(pb::ListNotificationsRequest::default(), token))
            .await
            .expect("ListNotifications")
            .into_inner()
            .notifications
    }

    /// The value Redis holds at `{namespace}:{key}`, and its time to live in seconds.
    pub async fn redis_value(&self, key: &str) -> (Option<String>, i64) {
        let mut redis = redis_connection().await;
        let key = format!("{}:{key}", self.namespace);
        let value: Option<String> = redis::cmd("GET")
            .arg(&key)
            .query_async(&mut redis)
            .await
            .expect("GET");
        let ttl: i64 = redis::cmd("TTL")
            .arg(&key)
            .query_async(&mut redis)
            .await
            .expect("TTL");
        (value, ttl)
    }
}

async fn outbox_rows(db: &PgPool, sql: &'static str) -> Vec<(Uuid, serde_json::Value)> {
    sqlx::query_as::<_, (Uuid, String)>(sql)
        .fetch_all(db)
        .await
        .expect("the outbox")
        .into_iter()
        .map(|(id, json)| (id, serde_json::from_str(&json).expect("JSON")))
        .collect()
}

pub async fn redis_connection() -> redis::aio::MultiplexedConnection {
    redis::Client::open(REDIS_URL)
        .expect("a Redis URL")
        .get_multiplexed_async_connection()
        .await
        .expect("Redis is up")
}

pub use platform::testing::eventually;

pub fn register_request(email: &str, password: &str, role: &str) -> pb::RegisterRequest {
    pb::RegisterRequest {
        email: email.into(),
        password: password.into(),
        full_name: "Test Person".into(),
        phone: None,
        role: role.into(),
        user_agent: String::new(),
    }
}

/// `message` with `authorization: Bearer <token>`.
pub fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ASCII metadata"),
    );
    request
}

/// Asserts `result` failed with `code` and returns the message.
#[track_caller]
pub fn refused<T: std::fmt::Debug>(result: Result<T, Status>, code: Code) -> String {
    match result {
        Err(status) if status.code() == code => status.message().to_owned(),
        other => panic!("expected {code:?}, got {other:?}"),
    }
}
