//! A small starter for the fault tests: each process is started on its own and kept as a
//! [`Process`], so a test can stop one and start it again on the same port, leave one out, or
//! point the gateway at a peer that never answers. Backed by the real PostgreSQL (a fresh
//! database per test) and, unless a test says otherwise, the real Redis.

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use platform::testing;
pub use platform::testing::{DEAD_REDIS_URL, REDIS_URL, any_port};

use reqwest::{Method, StatusCode, header::HeaderMap};
use serde_json::{Value, json};
use tokio::{sync::oneshot, task::JoinHandle};
use uuid::Uuid;

/// How long a test waits for something that should happen quickly before it fails.
const PATIENCE: Duration = Duration::from_secs(30);

/// What every process of one test shares: a fresh database, a Redis namespace and a key pair.
#[derive(Clone)]
pub struct Backing {
    pub database_url: String,
    pub redis_url: String,
    pub redis_namespace: String,
    pub private_key: String,
    pub public_key: String,
}

impl Backing {
    pub async fn new(redis_url: &str) -> Backing {
        let (private_key, public_key) = platform::auth::generate_keypair();
        Backing {
            database_url: testing::fresh_database("faults").await,
            redis_url: redis_url.to_owned(),
            redis_namespace: testing::namespace("faults"),
            private_key,
            public_key,
        }
    }
}

/// One running process. Dropping it stops it without waiting.
pub struct Process {
    pub port: u16,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl Process {
    fn spawn<F>(port: u16, run: impl FnOnce(oneshot::Receiver<()>) -> F) -> Process
    where
        F: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(run(stopped));
        Process {
            port,
            stop: Some(stop),
            task: Some(task),
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Asks the process to stop and waits until it has drained and let go of its port.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let task = self.task.take().expect("a running process");
        tokio::time::timeout(PATIENCE, task)
            .await
            .expect("the process stops within 30 s of being asked")
            .expect("the process did not panic")
            .expect("the process stopped cleanly");
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn shutdown(rx: oneshot::Receiver<()>) {
    let _ = rx.await;
}

/// Polls `url` until it answers 200.
async fn until_ok(url: &str) {
    let http = reqwest::Client::new();
    let started = Instant::now();
    while started.elapsed() < PATIENCE {
        if let Ok(r) = http.get(url).timeout(Duration::from_secs(2)).send().await
            && r.status() == StatusCode::OK
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{url} did not answer 200 within {PATIENCE:?}");
}

/// Polls until `condition` holds, or fails naming `what`.
pub async fn until(what: &str, within: Duration, mut condition: impl FnMut() -> bool) {
    let started = Instant::now();
    while !condition() {
        assert!(started.elapsed() < within, "{what}: not within {within:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub async fn identity(backing: &Backing) -> Process {
    let server = identity_svc::build(identity_svc::Config {
        database_url: backing.database_url.clone(),
        listen_addr: any_port(),
        ops_addr: any_port(),
        jwt_private_key: backing.private_key.clone(),
        jwt_public_key: backing.public_key.clone(),
        redis_url: backing.redis_url.clone(),
        redis_namespace: backing.redis_namespace.clone(),
        admin: None,
        outreach: identity_svc::Outreach::default(),
    })
    .await
    .expect("identity-svc builds");
    let (port, ops) = (server.port(), server.ops_port());
    let process = Process::spawn(port, |rx| server.run_until(shutdown(rx)));
    until_ok(&format!("http://127.0.0.1:{ops}/readyz")).await;
    process
}

pub async fn coaching(backing: &Backing) -> Process {
    let server = coaching_svc::build(coaching_svc::Config {
        database_url: backing.database_url.clone(),
        listen_addr: any_port(),
        ops_addr: any_port(),
        jwt_public_key: backing.public_key.clone(),
        redis_url: backing.redis_url.clone(),
        redis_namespace: backing.redis_namespace.clone(),
    })
    .await
    .expect("coaching-svc builds");
    let (port, ops) = (server.port(), server.ops_port());
    let process = Process::spawn(port, |rx| server.run_until(shutdown(rx)));
    until_ok(&format!("http://127.0.0.1:{ops}/readyz")).await;
    process
}

/// booking-svc on `listen` (port 0 for any; the same port again to restart it in place).
pub async fn booking(backing: &Backing, listen: SocketAddr, coaching_url: &str) -> Process {
    let server = booking_svc::build(booking_svc::Config {
        database_url: backing.database_url.clone(),
        listen_addr: listen,
        ops_addr: any_port(),
        jwt_public_key: backing.public_key.clone(),
        redis_url: backing.redis_url.clone(),
        redis_namespace: backing.redis_namespace.clone(),
        coaching_url: coaching_url.to_owned(),
        coaching_timeout: Duration::from_secs(2),
        grpc_resolve_interval: platform::balance::DEFAULT_RESOLVE_INTERVAL,
        scheduler_interval: Duration::from_secs(1),
        max_pending_bookings_per_coach: 1000,
        // The coaches here coach for free (`coach_with_slot`): nothing reaches a provider.
        stripe_api_base: "http://127.0.0.1:1".into(),
        stripe_secret_key: "sk_test_faults".into(),
        stripe_webhook_secret: "whsec_faults".into(),
        platform_fee_bps: 1000,
        payment_interval: Duration::from_secs(1),
        reconcile_interval: Duration::from_secs(3600),
    })
    .await
    .expect("booking-svc builds");
    let (port, ops) = (server.port(), server.ops_port());
    let process = Process::spawn(port, |rx| server.run_until(shutdown(rx)));
    until_ok(&format!("http://127.0.0.1:{ops}/readyz")).await;
    process
}

/// Where the gateway finds each service; a closed port stands for one a test does not start.
pub struct Upstreams {
    pub identity: String,
    pub coaching: String,
    pub booking: String,
    pub gym: String,
}

impl Upstreams {
    /// Every service on a port nobody listens on.
    pub fn none() -> Upstreams {
        let nowhere = "http://127.0.0.1:1".to_owned();
        Upstreams {
            identity: nowhere.clone(),
            coaching: nowhere.clone(),
            booking: nowhere.clone(),
            gym: nowhere,
        }
    }
}

/// identity-, coaching- and booking-svc on one backing, running while this is held: what a
/// gateway needs for sign-up, coaches and bookings.
pub struct Services {
    identity: Process,
    coaching: Process,
    booking: Process,
}

impl Services {
    pub async fn start(backing: &Backing) -> Services {
        let identity = identity(backing).await;
        let coaching = coaching(backing).await;
        let booking = booking(backing, any_port(), &coaching.url()).await;
        Services {
            identity,
            coaching,
            booking,
        }
    }

    /// Where a gateway reaches them (gym-svc nowhere).
    pub fn upstreams(&self) -> Upstreams {
        Upstreams {
            identity: self.identity.url(),
            coaching: self.coaching.url(),
            booking: self.booking.url(),
            ..Upstreams::none()
        }
    }
}

/// The gateway's configuration for `backing` and `upstreams`, with limits high enough not to
/// matter and the default deadline; tests change what they exercise.
pub fn gateway_config(backing: &Backing, upstreams: Upstreams) -> gateway::Config {
    gateway::Config {
        listen_addr: any_port(),
        ops_addr: any_port(),
        identity_url: upstreams.identity,
        coaching_url: upstreams.coaching,
        booking_url: upstreams.booking,
        gym_url: upstreams.gym,
        jwt_public_key: backing.public_key.clone(),
        redis_url: backing.redis_url.clone(),
        redis_namespace: backing.redis_namespace.clone(),
        upload_dir: std::env::temp_dir().join(format!("courtside-faults-{}", Uuid::new_v4().simple())),
        auth_rate_limit_per_minute: 100_000,
        auth_rate_limit_per_email_per_minute: 100_000,
        trusted_proxies: gateway::TrustedProxies::loopback(),
        public_url: "http://courtside.test".into(),
        calendar_rate_limit_per_minute: 100_000,
        calendar_rate_limit_per_address_per_minute: 100_000,
        live_streams_per_user: 5,
        uploads_per_user_per_day: 20,
        api_token_rate_limit_per_minute: 100_000,
        stripe_publishable_key: platform::testing::Localstripe::PUBLISHABLE_KEY.into(),
        stripe_js_url: gateway::DEFAULT_STRIPE_JS_URL.into(),
        grpc_deadline: Duration::from_secs(3),
        grpc_resolve_interval: platform::balance::DEFAULT_RESOLVE_INTERVAL,
        resolver: None,
    }
}

/// A running gateway and an HTTP client for it.
pub struct Gateway {
    /// Stops the gateway when the test lets go of it.
    process: Process,
    base: String,
    http: reqwest::Client,
}

/// What one request answered, and how long it took.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    pub took: Duration,
}

impl Reply {
    pub fn detail(&self) -> &str {
        self.body["detail"].as_str().unwrap_or_default()
    }
}

/// A signed-in user.
#[derive(Clone, Debug)]
pub struct User {
    pub token: String,
    pub id: String,
}

pub async fn gateway(config: gateway::Config) -> Gateway {
    let server = gateway::build(config).await.expect("gateway builds");
    let port = server.port();
    let process = Process::spawn(port, |rx| server.run_until(shutdown(rx)));
    let base = format!("http://127.0.0.1:{port}");
    until_ok(&format!("{base}/healthz")).await;
    Gateway {
        process,
        base,
        // Nothing in these tests may wait forever, the client included.
        http: reqwest::Client::builder()
            .timeout(PATIENCE)
            .build()
            .expect("an HTTP client"),
    }
}

impl Gateway {
    /// Stops the gateway and waits until it has drained.
    pub async fn stop(self) {
        self.process.stop().await;
    }

    /// Sends `method /api{path}` with an optional bearer token and JSON body.
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Reply {
        self.call_with_key(method, path, token, body, None).await
    }

    /// As [`Gateway::call`], with an `Idempotency-Key` when `key` is given.
    pub async fn call_with_key(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        key: Option<&str>,
    ) -> Reply {
        let mut request = self.http.request(method, format!("{}/api{path}", self.base));
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let started = Instant::now();
        let response = request.send().await.expect("the gateway answers");
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        Reply {
            status,
            headers,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
            took: started.elapsed(),
        }
    }

    /// Opens `GET /api{path}` as `token` and hands back the response unread (a stream).
    pub async fn open(&self, path: &str, token: &str) -> reqwest::Response {
        self.http
            .get(format!("{}/api{path}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("the gateway answers")
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        self.call(Method::POST, path, token, Some(body)).await
    }

    /// Registers a new user with `role`.
    pub async fn register(&self, role: &str) -> User {
        let email = format!("{role}-{}@faults.test", Uuid::new_v4().simple());
        let reply = self
            .post(
                "/auth/register",
                None,
                json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": format!("Faulty {role}"), "role": role}),
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::CREATED,
            "register {role}: {}",
            reply.body
        );
        User {
            token: reply.body["token"].as_str().expect("a token").to_owned(),
            id: reply.body["user"]["user_id"]
                .as_str()
                .expect("a user id")
                .to_owned(),
        }
    }

    /// A coach with a profile (free sessions: these tests are about faults, not money), a
    /// location, a 17:00–18:00 slot on every day of the week and a booking policy that takes
    /// bookings two years ahead; returns the coach and the slots.
    pub async fn coach_with_slot(&self) -> (User, Week) {
        let coach = self.register("coach").await;
        let profile = self
            .post(
                "/coach/profile",
                Some(&coach.token),
                json!({"bio": "Coaches through faults.", "specialties": ["Shooting"],
                       "hourly_rate": 0.0, "years_experience": 8}),
            )
            .await;
        assert_eq!(profile.status, StatusCode::CREATED, "{}", profile.body);
        let policy = self
            .call(
                Method::PUT,
                "/coach/policy",
                Some(&coach.token),
                Some(json!({"min_notice_minutes": 0, "max_advance_days": 730,
                            "response_window_minutes": 20160, "cancellation_window_minutes": 1440})),
            )
            .await;
        assert_eq!(policy.status, StatusCode::OK, "{}", policy.body);
        let location = self
            .post(
                "/locations",
                Some(&coach.token),
                json!({"name": "Austin Rec Center", "address": "1 Main St", "court_number": "2",
                       "city": "Austin", "state": "TX", "latitude": 30.2672, "longitude": -97.7431}),
            )
            .await;
        assert_eq!(location.status, StatusCode::CREATED, "{}", location.body);
        let mut slots = Vec::new();
        for day in DAYS {
            let slot = self
                .post(
                    "/availability",
                    Some(&coach.token),
                    json!({"slot_type": "recurring", "day_of_week": day, "start_time": "17:00",
                           "end_time": "18:00", "location_id": location.body["location_id"]}),
                )
                .await;
            assert_eq!(slot.status, StatusCode::CREATED, "{}", slot.body);
            slots.push(slot.body["slot_id"].as_str().expect("a slot id").to_owned());
        }
        (coach, Week(slots))
    }

    /// Books `coach`'s slot of that day on `date` as `client`.
    pub async fn book(&self, client: &User, coach: &User, week: &Week, date: &str) -> Reply {
        self.book_with_key(client, coach, week, date, None).await
    }

    /// Books as [`Gateway::book`] does, with an `Idempotency-Key` when `key` is given.
    pub async fn book_with_key(
        &self,
        client: &User,
        coach: &User,
        week: &Week,
        date: &str,
        key: Option<&str>,
    ) -> Reply {
        self.call_with_key(
            Method::POST,
            "/bookings",
            Some(&client.token),
            Some(json!({"coach_id": coach.id, "slot_id": week.on(date), "booking_date": date})),
            key,
        )
        .await
    }
}

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// A coach's recurring slots, Monday to Sunday.
#[derive(Clone, Debug)]
pub struct Week(Vec<String>);

impl Week {
    /// The slot on `date`'s day of the week.
    pub fn on(&self, date: &str) -> &str {
        use chrono::Datelike;
        let date: chrono::NaiveDate = date.parse().expect("a date");
        &self.0[date.weekday().num_days_from_monday() as usize]
    }
}

/// The `n`th day from two weeks ahead: no two are the same day, and the first 340 are within a
/// year (the default booking policy's reach).
pub fn session_date(n: usize) -> String {
    use chrono::{Days, Utc};
    (Utc::now().date_naive() + Days::new(14 + n as u64)).to_string()
}

/// Registers a user with `role` through a gateway of its own with the usual deadline, for a test
/// whose gateway has a short one: hashing a password on a busy machine may outlast it.
pub async fn registered(backing: &Backing, identity: String, role: &str) -> User {
    let registrar = gateway(gateway_config(
        backing,
        Upstreams {
            identity,
            ..Upstreams::none()
        },
    ))
    .await;
    registrar.register(role).await
}
