//! Starts the mesh and offers typed helpers; tests keep their assertions in view.

use std::{sync::Arc, time::Duration};

use platform::{
    clock::{ManualClock, SharedClock},
    testing::{self, Localstripe, Processes, any_port},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::stripe::WEBHOOK_SECRET;

pub const ADMIN_EMAIL: &str = "admin@mesh.test";
pub const ADMIN_PASSWORD: &str = "Courtside-admin-2026";

/// A running mesh. Dropping it stops every process.
pub struct Mesh {
    pub base: String,
    pub http: reqwest::Client,
    /// The test's own database, for tests that look behind the services.
    pub database_url: String,
    pub redis_namespace: String,
    pub keys: (String, String),
    /// Where the gateway writes profile pictures.
    pub upload_dir: std::path::PathBuf,
    /// The mesh's own provider: booking-svc's `STRIPE_API_BASE`.
    pub stripe: Localstripe,
    /// The gateway's configuration, for a second replica ([`Mesh::second_gateway`]).
    pub gateway_config: gateway::Config,
    processes: Processes,
}

impl Drop for Mesh {
    fn drop(&mut self) {
        drop(std::mem::take(&mut self.processes));
        let _ = std::fs::remove_dir_all(&self.upload_dir);
    }
}

impl Mesh {
    /// Starts identity, coaching, booking and gym services and the gateway.
    pub async fn start() -> Mesh {
        Self::start_with(|_| {}).await
    }

    /// Starts the mesh with booking-svc reading "now" from `clock` (a test moves it instead of
    /// sleeping); its scheduler ticks every 200 ms.
    pub async fn start_with_booking_clock(clock: ManualClock) -> Mesh {
        Self::launch(|_| {}, Arc::new(clock)).await
    }

    /// Starts the mesh with the gateway's configuration adjusted by `customise` (for example a
    /// low rate limit).
    pub async fn start_with(customise: impl FnOnce(&mut gateway::Config)) -> Mesh {
        Self::launch(customise, platform::clock::system()).await
    }

    async fn launch(customise: impl FnOnce(&mut gateway::Config), booking_clock: SharedClock) -> Mesh {
        let (database_url, stripe) = tokio::join!(testing::fresh_database("mesh"), Localstripe::start());
        let redis_namespace = testing::namespace("mesh");
        let redis_url = testing::REDIS_URL.to_owned();
        let (private, public) = platform::auth::generate_keypair();
        let mut processes = Processes::default();

        let identity = identity_svc::build(identity_svc::Config {
            database_url: database_url.clone(),
            listen_addr: any_port(),
            ops_addr: any_port(),
            jwt_private_key: private.clone(),
            jwt_public_key: public.clone(),
            redis_url: redis_url.clone(),
            redis_namespace: redis_namespace.clone(),
            admin: Some(identity_svc::AdminSeed {
                email: ADMIN_EMAIL.into(),
                password: ADMIN_PASSWORD.into(),
                full_name: "Mesh Admin".into(),
            }),
            outreach: identity_svc::Outreach {
                public_url: "http://courtside.test".into(),
                reminder_interval: Duration::from_millis(200),
                // The webhook tests' receivers listen on 127.0.0.1 over http.
                webhooks: identity_svc::WebhookSettings {
                    allow_loopback: true,
                    interval: Duration::from_millis(200),
                    ..Default::default()
                },
                ..identity_svc::Outreach::default()
            },
        })
        .await
        .expect("identity-svc builds");
        let identity_url = format!("http://127.0.0.1:{}", identity.port());
        processes.spawn(|stopped| identity.run_until(stopped));

        let coaching = coaching_svc::build(coaching_svc::Config {
            database_url: database_url.clone(),
            listen_addr: any_port(),
            ops_addr: any_port(),
            jwt_public_key: public.clone(),
            redis_url: redis_url.clone(),
            redis_namespace: redis_namespace.clone(),
        })
        .await
        .expect("coaching-svc builds");
        let coaching_url = format!("http://127.0.0.1:{}", coaching.port());
        processes.spawn(|stopped| coaching.run_until(stopped));

        let booking = booking_svc::build_with_clock(
            booking_svc::Config {
                database_url: database_url.clone(),
                listen_addr: any_port(),
                ops_addr: any_port(),
                jwt_public_key: public.clone(),
                redis_url: redis_url.clone(),
                redis_namespace: redis_namespace.clone(),
                coaching_url: coaching_url.clone(),
                coaching_timeout: Duration::from_secs(2),
                grpc_resolve_interval: platform::balance::DEFAULT_RESOLVE_INTERVAL,
                scheduler_interval: Duration::from_millis(200),
                // Flows book many slots of one coach with one client; the limit has its own tests.
                max_pending_bookings_per_coach: 1000,
                stripe_api_base: stripe.url(),
                stripe_secret_key: Localstripe::SECRET_KEY.into(),
                stripe_webhook_secret: WEBHOOK_SECRET.into(),
                platform_fee_bps: 1000,
                payment_interval: Duration::from_millis(200),
                reconcile_interval: Duration::from_secs(3600),
            },
            booking_clock,
        )
        .await
        .expect("booking-svc builds");
        let booking_url = format!("http://127.0.0.1:{}", booking.port());
        processes.spawn(|stopped| booking.run_until(stopped));

        let gym = gym_svc::build(gym_svc::Config {
            database_url: database_url.clone(),
            listen_addr: any_port(),
            ops_addr: any_port(),
            jwt_public_key: public.clone(),
            redis_url: redis_url.clone(),
            redis_namespace: redis_namespace.clone(),
            // Court requests expire within a second of their start (the real-clock tests wait).
            scheduler_interval: Duration::from_secs(1),
        })
        .await
        .expect("gym-svc builds");
        let gym_url = format!("http://127.0.0.1:{}", gym.port());
        processes.spawn(|stopped| gym.run_until(stopped));

        let upload_dir = std::env::temp_dir().join(format!("courtside-uploads-{}", Uuid::new_v4().simple()));
        let mut config = gateway::Config {
            listen_addr: any_port(),
            ops_addr: any_port(),
            identity_url,
            coaching_url,
            booking_url,
            gym_url,
            jwt_public_key: public.clone(),
            redis_url,
            redis_namespace: redis_namespace.clone(),
            upload_dir: upload_dir.clone(),
            auth_rate_limit_per_minute: 100_000,
            auth_rate_limit_per_email_per_minute: 100_000,
            trusted_proxies: gateway::TrustedProxies::loopback(),
            public_url: "http://courtside.test".into(),
            calendar_rate_limit_per_minute: 100_000,
            calendar_rate_limit_per_address_per_minute: 100_000,
            live_streams_per_user: 5,
            uploads_per_user_per_day: 20,
            api_token_rate_limit_per_minute: 100_000,
            stripe_publishable_key: Localstripe::PUBLISHABLE_KEY.into(),
            stripe_js_url: gateway::DEFAULT_STRIPE_JS_URL.into(),
            grpc_deadline: Duration::from_secs(3),
            grpc_resolve_interval: platform::balance::DEFAULT_RESOLVE_INTERVAL,
            resolver: None,
        };
        customise(&mut config);
        let gateway_config = config.clone();
        let gateway = gateway::build(config).await.expect("gateway builds");
        let base = format!("http://127.0.0.1:{}/api", gateway.port());
        processes.spawn(|stopped| gateway.run_until(stopped));

        let mesh = Mesh {
            upload_dir,
            stripe,
            base,
            http: reqwest::Client::new(),
            database_url,
            redis_namespace,
            keys: (private, public),
            gateway_config,
            processes,
        };
        mesh.wait_until_ready().await;
        mesh
    }

    async fn wait_until_ready(&self) {
        for _ in 0..200 {
            if let Ok(r) = self
                .http
                .post(self.url("/auth/login"))
                .json(&json!({"email": "x@y.z", "password": "nope"}))
                .send()
                .await
                && r.status() == StatusCode::UNAUTHORIZED
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the mesh did not become ready");
    }

    /// Starts another gateway replica on the same services and Redis; returns its `/api` base.
    pub async fn second_gateway(&mut self) -> String {
        let mut config = self.gateway_config.clone();
        config.listen_addr = any_port();
        config.ops_addr = any_port();
        let gateway = gateway::build(config).await.expect("the second gateway builds");
        let base = format!("http://127.0.0.1:{}/api", gateway.port());
        self.processes.spawn(|stopped| gateway.run_until(stopped));
        base
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends a request with an optional bearer token and JSON body; returns status and JSON
    /// (Null when the body is empty).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.http.request(method, self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("the gateway answers");
        let status = response.status();
        // A stream (`GET /notifications/stream`) never ends by itself: its body is not read.
        if response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"))
        {
            return (status, Value::Null);
        }
        let text = response.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, token, Some(body)).await
    }

    /// Registers a new user with `role` and returns (token, user).
    pub async fn register(&self, role: &str) -> (String, Value) {
        let email = format!("{role}-{}@mesh.test", Uuid::new_v4().simple());
        let (status, body) = self
            .post("/auth/register", None, json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": format!("Test {role}"), "role": role}))
            .await;
        assert_eq!(status, StatusCode::CREATED, "register {role}: {body}");
        (
            body["token"].as_str().expect("a token").to_owned(),
            body["user"].clone(),
        )
    }

    /// Signs in as the seeded admin.
    pub async fn admin(&self) -> String {
        let (status, body) = self
            .post(
                "/auth/login",
                None,
                json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "admin login: {body}");
        body["token"].as_str().expect("a token").to_owned()
    }
}

/// What a raw request answered: status, headers and the body as JSON (Null when not JSON).
pub struct Answer {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Mesh {
    /// Sends `body` as is, with `content_type` when given: for bodies `call` cannot build.
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        content_type: Option<&str>,
        body: impl Into<reqwest::Body>,
    ) -> Answer {
        let mut request = self.http.request(method, self.url(path)).body(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(content_type) = content_type {
            request = request.header(reqwest::header::CONTENT_TYPE, content_type);
        }
        let response = request.send().await.expect("the gateway answers");
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        Answer {
            status,
            headers,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
        }
    }

    /// Signs in with email and password; returns the status and the body.
    pub async fn sign_in(&self, email: &str, password: &str) -> (StatusCode, Value) {
        self.post("/auth/login", None, json!({"email": email, "password": password}))
            .await
    }

    /// Uploads `bytes` as the multipart field `field`, declaring `file_name` and `mime`.
    pub async fn upload_picture(
        &self,
        token: &str,
        field: &str,
        bytes: Vec<u8>,
        file_name: &str,
        mime: &str,
    ) -> (StatusCode, Value) {
        let part = reqwest::multipart::Part::bytes(bytes)
            .file_name(file_name.to_owned())
            .mime_str(mime)
            .expect("a valid mime type");
        let form = reqwest::multipart::Form::new().part(field.to_owned(), part);
        let response = self
            .http
            .post(self.url("/client/upload-profile-picture"))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .expect("the gateway answers");
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}
