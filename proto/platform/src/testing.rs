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
