//! The test kit every suite's starter builds on (feature `testing`, for dev-dependencies only):
//! a fresh database and Redis namespace per test, free ports, the processes a test started
//! (stopped when it ends), waiting until a gRPC service serves, tokens for made-up users, and a
//! relay that counts the statements a service sends PostgreSQL. The starters keep only their
//! service's typed helpers.

use std::{
    future::Future,
    net::SocketAddr,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use sqlx::{Connection, Executor, PgConnection};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::oneshot,
};
use tonic::transport::Channel;
use tonic_health::pb::{
    HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
};
use uuid::Uuid;

use crate::auth::{Role, TokenSigner};

/// The password every suite's made-up people sign in with: strong enough for the password rule
/// (at least 10 characters, not guessable). Tests of the refusal use weak ones on purpose.
pub const FIXTURE_PASSWORD: &str = "Courtside-fixture-2026";
/// A second strong password, for a change or a reset to one that differs from the first.
pub const NEW_FIXTURE_PASSWORD: &str = "Courtside-renewed-2026";

/// The PostgreSQL every suite runs against (`host:port`).
pub const POSTGRES: &str = "127.0.0.1:5432";
/// The Redis every suite runs against, each test under a namespace of its own.
pub const REDIS_URL: &str = "redis://127.0.0.1:6379";
/// Nothing listens here: Redis "down".
pub const DEAD_REDIS_URL: &str = "redis://127.0.0.1:1";

/// Port 0 on the loopback: the system picks a free port when it is bound.
pub fn any_port() -> SocketAddr {
    ([127, 0, 0, 1], 0).into()
}

/// Polls `probe` until it yields `Some` (background work: an event applied, a letter sent), every
/// 25 ms for at most fifteen seconds, and answers what it yielded; panics naming `what` after that.
pub async fn eventually<T, F, Fut>(what: &str, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    for _ in 0..600 {
        if let Some(value) = probe().await {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting for {what}");
}

/// [`eventually`] for a `check` that holds or not.
pub async fn until<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    eventually(what, || {
        let holds = check();
        async move { holds.await.then_some(()) }
    })
    .await
}

/// A fresh, empty database for one test (`t_<suite>_<random>`), as its URL.
pub async fn fresh_database(suite: &str) -> String {
    let name = format!("t_{suite}_{}", Uuid::new_v4().simple());
    let mut conn = PgConnection::connect(&format!("postgres://postgres@{POSTGRES}/postgres"))
        .await
        .expect("PostgreSQL is up at 127.0.0.1:5432");
    conn.execute(sqlx::AssertSqlSafe(format!("create database {name}")))
        .await
        .expect("create the test database");
    format!("postgres://postgres@{POSTGRES}/{name}")
}

/// A Redis namespace no other test uses (`<prefix>-<random>`).
pub fn namespace(prefix: &str) -> String {
    format!("{prefix}-{}", Uuid::new_v4().simple())
}

/// A made-up user's id and a valid token for them with `role`.
pub fn user(signer: &TokenSigner, role: Role) -> (Uuid, String) {
    let id = Uuid::new_v4();
    let (token, _) = signer.issue(id, role, 0).expect("a token");
    (id, token)
}

/// Resolves when the [`Processes`] that handed it out is dropped.
pub type Stopped = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The processes a test started in-process; dropping this tells each to shut down.
#[derive(Default)]
pub struct Processes {
    stops: Vec<oneshot::Sender<()>>,
}

impl Processes {
    /// Spawns the process `run` makes, given the future that resolves when this is dropped
    /// (`|stopped| server.run_until(stopped)`); an error it ends with is printed.
    pub fn spawn<F>(&mut self, run: impl FnOnce(Stopped) -> F)
    where
        F: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel::<()>();
        self.stops.push(stop);
        let running = run(Box::pin(async move {
            let _ = stopped.await;
        }));
        tokio::spawn(async move {
            if let Err(e) = running.await {
                eprintln!("a test process stopped: {e:#}");
            }
        });
    }
}

impl Drop for Processes {
    fn drop(&mut self) {
        for stop in self.stops.drain(..) {
            let _ = stop.send(());
        }
    }
}

/// A channel to the gRPC server on `port` on the loopback, once its health service says
/// `service` (e.g. `"identity.v1.Identity"`) is serving; panics after ten seconds.
pub async fn serving(port: u16, service: &str) -> Channel {
    let channel = Channel::from_shared(format!("http://127.0.0.1:{port}"))
        .expect("a valid URL")
        .connect_lazy();
    let mut health = HealthClient::new(channel.clone());
    for _ in 0..400 {
        let reply = health
            .check(HealthCheckRequest {
                service: service.to_owned(),
            })
            .await;
        if reply.is_ok_and(|r| r.into_inner().status == ServingStatus::Serving as i32) {
            return channel;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{service} on port {port} did not start serving");
}

/// A TCP relay in front of PostgreSQL that counts the statements passing through it: each
/// Execute (extended protocol) or Query (simple protocol) message a client sends. A service
/// connected through [`StatementCounter::url`] lets a test assert how many statements a request
/// cost (no N+1). It also counts pings: a Sync with no statement since the last one, a round trip
/// that only checks the connection is alive.
pub struct StatementCounter {
    postgres: String,
    port: u16,
    counts: Arc<Counts>,
}

#[derive(Default)]
struct Counts {
    statements: AtomicUsize,
    pings: AtomicUsize,
}

impl StatementCounter {
    /// Starts the relay in front of the PostgreSQL at `postgres` (`host:port`).
    pub async fn start(postgres: &str) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let counts = Arc::new(Counts::default());
        let (upstream, counted) = (postgres.to_owned(), counts.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(relay(client, upstream.clone(), counted.clone()));
            }
        });
        Ok(Self {
            postgres: postgres.to_owned(),
            port,
            counts,
        })
    }

    /// `database_url` (which names the relayed PostgreSQL) pointed at the relay instead, without
    /// TLS so the messages can be read.
    pub fn url(&self, database_url: &str) -> String {
        let relayed = database_url.replace(&self.postgres, &format!("127.0.0.1:{}", self.port));
        let separator = if relayed.contains('?') { '&' } else { '?' };
        format!("{relayed}{separator}sslmode=disable")
    }

    /// How many statements went through so far.
    pub fn count(&self) -> usize {
        self.counts.statements.load(Ordering::SeqCst)
    }

    /// How many pings went through so far.
    pub fn pings(&self) -> usize {
        self.counts.pings.load(Ordering::SeqCst)
    }
}

async fn relay(client: TcpStream, postgres: String, counts: Arc<Counts>) {
    let Ok(server) = TcpStream::connect(postgres).await else {
        return;
    };
    // Each message goes on at once, as the client sent it (no Nagle delays).
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    tokio::spawn(async move { tokio::io::copy(&mut from_server, &mut to_client).await });
    let _ = relay_frontend(&mut from_client, &mut to_server, &counts).await;
}

/// Forwards the client's side of the protocol, message by message: the untyped startup message,
/// then typed messages (one type byte, a length that counts itself, the body).
async fn relay_frontend(
    from: &mut (impl AsyncReadExt + Unpin),
    to: &mut (impl AsyncWriteExt + Unpin),
    counts: &Counts,
) -> std::io::Result<()> {
    let length = from.read_u32().await?;
    let mut startup = length.to_be_bytes().to_vec();
    startup.resize(length as usize, 0);
    from.read_exact(&mut startup[4..]).await?;
    to.write_all(&startup).await?;
    let mut statement_since_sync = false;
    loop {
        let kind = from.read_u8().await?;
        let length = from.read_u32().await?;
        let mut message = vec![kind];
        message.extend_from_slice(&length.to_be_bytes());
        message.resize(1 + length as usize, 0);
        from.read_exact(&mut message[5..]).await?;
        match kind {
            b'E' | b'Q' => {
                counts.statements.fetch_add(1, Ordering::SeqCst);
                statement_since_sync = true;
            }
            b'S' => {
                if !statement_since_sync {
                    counts.pings.fetch_add(1, Ordering::SeqCst);
                }
                statement_since_sync = false;
            }
            _ => {}
        }
        to.write_all(&message).await?;
    }
}

/// A localstripe (the stateful fake of Stripe's API, issue 33) of one test's own, on a free port
/// of the loopback; dropping it kills it.
///
/// It runs `$LOCALSTRIPE_RUN --host 127.0.0.1 --port N --store PATH` when `LOCALSTRIPE_RUN` is set
/// (a command, split on spaces), else `$LOCALSTRIPE_PYTHON $LOCALSTRIPE_SCRIPT ...`
/// (`./deploy/test.sh` exports both), else the workspace's own
/// `deploy/.state/localstripe-venv/bin/python deploy/localstripe/run.py ...`; when none is there
/// it panics saying how to make one, so a payment test never passes without a provider. Its store
/// is a file of its own, so [`Localstripe::stop`] and [`Localstripe::resume`] (a provider outage)
/// keep its customers, cards and payments.
pub struct Localstripe {
    port: u16,
    store: std::path::PathBuf,
    log: std::path::PathBuf,
    child: Option<tokio::process::Child>,
    webhooks: Vec<(String, String, String)>,
    http: reqwest::Client,
}

/// A card localstripe accepts and charges.
pub const CARD_OK: &str = "4242424242424242";
/// A card localstripe refuses when it is saved (SetupIntent confirm: 402 card_declined).
pub const CARD_DECLINED_ON_SAVE: &str = "4000000000000002";
/// A card localstripe saves and then declines when a payment is confirmed with it.
pub const CARD_DECLINED_ON_CHARGE: &str = "4000000000000341";

impl Localstripe {
    /// The secret key the tests' booking-svc uses (localstripe accepts any `sk_...`).
    pub const SECRET_KEY: &'static str = "sk_test_courtside_localstripe";
    /// The publishable key a browser would use (localstripe accepts any `pk_...`).
    pub const PUBLISHABLE_KEY: &'static str = "pk_test_courtside_localstripe";

    /// Starts one and waits until it answers (at most 30 s, else panics with its log).
    pub async fn start() -> Localstripe {
        let port = std::net::TcpListener::bind(any_port())
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let name = format!("courtside-localstripe-{}", Uuid::new_v4().simple());
        let dir = std::env::temp_dir();
        let mut localstripe = Localstripe {
            port,
            store: dir.join(format!("{name}.pickle")),
            log: dir.join(format!("{name}.log")),
            child: None,
            webhooks: Vec::new(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .expect("an HTTP client"),
        };
        localstripe.resume().await;
        localstripe
    }

    /// Its base URL (`http://127.0.0.1:N`), booking-svc's `STRIPE_API_BASE`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The secret key to call it with ([`Localstripe::SECRET_KEY`]).
    pub fn secret_key(&self) -> &'static str {
        Self::SECRET_KEY
    }

    /// Kills it (a provider outage); its store stays for [`Localstripe::resume`].
    pub async fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill().await;
        }
    }

    /// Starts it again on the same port with the same store (and the webhooks registered before),
    /// and waits until it answers. Does nothing while it runs.
    pub async fn resume(&mut self) {
        if self.child.is_some() {
            return;
        }
        let (program, mut args) = localstripe_command();
        args.extend(
            [
                "--host",
                "127.0.0.1",
                "--port",
                &self.port.to_string(),
                "--store",
                &self.store.display().to_string(),
            ]
            .map(String::from),
        );
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("localstripe's log file");
        let child = tokio::process::Command::new(&program)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .stdout(log.try_clone().expect("localstripe's log file"))
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run localstripe ({program} {}): {e}", args.join(" ")));
        self.child = Some(child);
        for _ in 0..1200 {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                panic!(
                    "localstripe ({program} {}) exited ({status}) before answering; its log:\n{}",
                    args.join(" "),
                    self.log_text()
                );
            }
            let answer = self
                .http
                .get(format!("{}/js.stripe.com/v3/", self.url()))
                .timeout(Duration::from_secs(1))
                .send()
                .await;
            if answer.is_ok_and(|a| a.status().is_success()) {
                for (id, url, secret) in self.webhooks.clone() {
                    self.post_webhook(&id, &url, &secret).await;
                }
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!(
            "localstripe on port {} did not answer in 30 s; its log:\n{}",
            self.port,
            self.log_text()
        );
    }

    /// Does what Stripe.js's `confirmCardSetup` does with a card typed into Elements (read from
    /// localstripe's `localstripe-v3.js`): confirms the SetupIntent `client_secret` belongs to with
    /// the card `number` (expiry 12/2034, CVC 123). Answers the saved card's id, or the provider's
    /// message when it refused (a declined card).
    pub async fn confirm_card(&self, client_secret: &str, number: &str) -> Result<String, String> {
        let setup_intent = client_secret
            .split_once("_secret_")
            .map(|(id, _)| id)
            .filter(|id| id.starts_with("seti_"))
            .unwrap_or_else(|| panic!("{client_secret:?} is not a SetupIntent's client secret"));
        let answer = self
            .http
            .post(format!("{}/v1/setup_intents/{setup_intent}/confirm", self.url()))
            .json(&serde_json::json!({
                "key": Self::PUBLISHABLE_KEY,
                "use_stripe_sdk": true,
                "client_secret": client_secret,
                "payment_method_data": {
                    "type": "card",
                    "card": {"number": number, "exp_month": "12", "exp_year": "2034", "cvc": "123"},
                    "billing_details": {"address": {"postal_code": "94103"}},
                },
            }))
            .send()
            .await
            .expect("localstripe answers");
        let status = answer.status();
        let body: serde_json::Value = answer.json().await.expect("localstripe answers JSON");
        if !status.is_success() {
            return Err(body["error"]["message"].as_str().unwrap_or("refused").to_owned());
        }
        match (body["status"].as_str(), body["payment_method"].as_str()) {
            (Some("succeeded"), Some(card)) => Ok(card.to_owned()),
            (status, _) => Err(format!("the SetupIntent is {status:?}, not succeeded")),
        }
    }

    /// Sends every event to `url`, signed with `secret` (`POST /_config/webhooks/<id>`), from
    /// now on and after each [`Localstripe::resume`].
    pub async fn register_webhook(&mut self, url: &str, secret: &str) {
        let id = format!("test{}", self.webhooks.len());
        self.post_webhook(&id, url, secret).await;
        self.webhooks.push((id, url.to_owned(), secret.to_owned()));
    }

    async fn post_webhook(&self, id: &str, url: &str, secret: &str) {
        let answer = self
            .http
            .post(format!("{}/_config/webhooks/{id}", self.url()))
            .json(&serde_json::json!({"url": url, "secret": secret}))
            .send()
            .await
            .expect("localstripe answers");
        assert!(
            answer.status().is_success(),
            "registering a webhook: {}",
            answer.status()
        );
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Localstripe {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.start_kill();
        }
        let _ = std::fs::remove_file(&self.store);
        let _ = std::fs::remove_file(&self.log);
    }
}

/// The program and first arguments that run localstripe (see [`Localstripe`]).
fn localstripe_command() -> (String, Vec<String>) {
    if let Ok(run) = std::env::var("LOCALSTRIPE_RUN")
        && !run.trim().is_empty()
    {
        let mut words = run.split_whitespace().map(String::from);
        let program = words.next().expect("a word");
        return (program, words.collect());
    }
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = std::env::var("LOCALSTRIPE_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| {
            workspace
                .join("deploy/.state/localstripe-venv/bin/python")
                .display()
                .to_string()
        });
    let script = std::env::var("LOCALSTRIPE_SCRIPT")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| workspace.join("deploy/localstripe/run.py").display().to_string());
    for needed in [&python, &script] {
        assert!(
            std::path::Path::new(needed).exists(),
            "{needed} is missing, so this payment test has no localstripe: run it through \
             `./deploy/test.sh rust` (which makes the venv), or make the venv with \
             `python3 -m venv deploy/.state/localstripe-venv && \
             deploy/.state/localstripe-venv/bin/pip install -r deploy/localstripe/requirements.txt`, \
             or set LOCALSTRIPE_RUN"
        );
    }
    (python, vec![script])
}
