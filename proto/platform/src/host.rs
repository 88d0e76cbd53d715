//! The gRPC service host every service runs on: its two ports, and the serving loop around its
//! generated server: the token check, per-RPC metrics, `grpc.health.v1`, the ops port and its
//! readiness, the consumer of the event stream, the change stamp and any task of the service's
//! own, until a shutdown future resolves; then a graceful drain. A service's `lib.rs` says only
//! what is its own. Feature `host`.

use std::{
    convert::Infallible,
    fmt::Display,
    future::{Future, IntoFuture},
    net::SocketAddr,
    pin::Pin,
    task::{Context, Poll},
    time::{Duration, Instant},
};

use anyhow::Context as _;
use futures::{
    FutureExt, Stream, StreamExt,
    future::{BoxFuture, Shared},
};
use sqlx::{PgPool, migrate::Migrator};
use tokio::net::{TcpListener, TcpStream};
use tokio_stream::wrappers::TcpListenerStream;
use tonic::{server::NamedService, service::interceptor::InterceptedService};
use tonic_health::server::health_reporter;

use crate::{
    auth::{AuthInterceptor, TokenVerifier},
    database,
    events::{self, Applied, Consumer, Envelope},
    ops::{self, ReadyNote},
    stamps::Stamp,
    telemetry,
};

/// The shutdown future as the host hands it to a service's tasks: each may hold a clone.
pub type Shutdown = Shared<BoxFuture<'static, ()>>;

type Task = (
    &'static str,
    Box<dyn FnOnce(Shutdown) -> BoxFuture<'static, ()> + Send>,
);
type Consumption = Box<dyn FnOnce(PgPool, Option<Stamp>) -> BoxFuture<'static, ()> + Send>;

/// How large a service's pool is.
#[derive(Clone, Copy, Debug)]
pub struct Pool {
    /// At most this many connections.
    pub max_connections: u32,
    /// Waiting at most this long for one.
    pub acquire_timeout: Duration,
}

/// Connects a service's pool ([`database::connect`]) and applies its migrations, which
/// `sqlx::migrate!()` embeds in the service; `schema` names them in an error.
pub async fn open_database(
    url: &str,
    pool: Pool,
    migrations: &Migrator,
    schema: &str,
) -> anyhow::Result<PgPool> {
    let db = database::connect(url, pool.max_connections, pool.acquire_timeout)
        .await
        .context("connecting to PostgreSQL")?;
    migrations
        .run(&db)
        .await
        .with_context(|| format!("running {schema} migrations"))?;
    Ok(db)
}

/// A service with both ports bound, not yet serving: its generated gRPC server `S` and what runs
/// around it. A service's `build` makes one; its `main` and its tests call [`Host::run_until`].
pub struct Host<S> {
    service: S,
    listener: TcpListener,
    ops_listener: TcpListener,
    verifier: TokenVerifier,
    db: PgPool,
    note: Option<ReadyNote>,
    stamp: Option<Stamp>,
    consumption: Option<Consumption>,
    tasks: Vec<Task>,
}

impl<S> Host<S>
where
    S: tower::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<tonic::body::Body>,
            Error = Infallible,
        > + NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    /// Binds the gRPC port (`listen`) and the ops port (`ops`) for `service`, whose callers'
    /// tokens `verifier` checks and which is ready while PostgreSQL (`db`) answers.
    pub async fn bind(
        service: S,
        listen: SocketAddr,
        ops: SocketAddr,
        verifier: TokenVerifier,
        db: &PgPool,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            service,
            listener: TcpListener::bind(listen).await.context("binding the gRPC port")?,
            ops_listener: TcpListener::bind(ops).await.context("binding the ops port")?,
            verifier,
            db: db.clone(),
            note: None,
            stamp: None,
            consumption: None,
            tasks: Vec::new(),
        })
    }

    /// Adds `note` to a ready `/readyz` answer when it says something: a dependency whose loss
    /// degrades the service without making it unready.
    pub fn noting(mut self, note: ReadyNote) -> Self {
        self.note = Some(note);
        self
    }

    /// The service's change [`Stamp`]: renewed when serving starts (gateways may remember what
    /// changed while this replica was down) and after every event applied. A change the API makes
    /// is cleared by the gateway, as its cache declaration says (`gateway/src/routes/cache.rs`).
    pub fn stamp(mut self, stamp: Stamp) -> Self {
        self.stamp = Some(stamp);
        self
    }

    /// Applies the events `consumer` is handed with `apply` (given the pool) while serving; the
    /// change stamp is renewed after each event `apply` says changed the service's data.
    pub fn consume<F, Fut, E>(mut self, redis: redis::Client, consumer: Consumer, mut apply: F) -> Self
    where
        F: FnMut(PgPool, Envelope) -> Fut + Send + 'static,
        Fut: Future<Output = Result<Applied, E>> + Send,
        E: Display + Send,
    {
        self.consumption = Some(Box::new(move |db: PgPool, stamp: Option<Stamp>| {
            async move {
                events::consume(redis, &consumer, move |envelope| {
                    let (applied, stamp) = (apply(db.clone(), envelope), stamp.clone());
                    async move {
                        let applied = applied.await?;
                        // Only a change of this service's data: every booking's event passes by.
                        if let (Applied::Changed, Some(stamp)) = (applied, stamp) {
                            stamp.renew().await;
                        }
                        Ok::<(), E>(())
                    }
                })
                .await;
            }
            .boxed()
        }));
        self
    }

    /// Runs `task` (`what` names it in an error) beside the RPCs, given the shutdown future;
    /// serving waits for it to finish after shutdown.
    pub fn task<F, Fut>(mut self, what: &'static str, task: F) -> Self
    where
        F: FnOnce(Shutdown) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.tasks
            .push((what, Box::new(move |shutdown| task(shutdown).boxed())));
        self
    }

    /// Runs `tick` (`what` names it in the log) at once and then every `interval` beside the RPCs
    /// until shutdown, the periodic work of a service (a scheduler, a sender, a purge). A failed
    /// tick is logged and the next one comes on time: the work it left is still in the database.
    /// "Now" is the service's injected clock, read inside `tick`, so tests call the tick itself
    /// after moving the clock instead of waiting for this loop.
    pub fn every<F, Fut, T, E>(self, what: &'static str, interval: Duration, tick: F) -> Self
    where
        F: Fn() -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, E>> + Send + 'static,
        T: 'static,
        E: Display + 'static,
    {
        self.task(what, move |shutdown| periodically(what, interval, tick, shutdown))
    }

    /// The gRPC port (tests bind port 0).
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or_default()
    }

    /// The ops port (`/metrics`, `/livez`, `/readyz`).
    pub fn ops_port(&self) -> u16 {
        self.ops_listener
            .local_addr()
            .map(|a| a.port())
            .unwrap_or_default()
    }

    /// Serves gRPC (with `grpc.health.v1`, the token check and per-RPC metrics), the ops port,
    /// the event consumer and the tasks until `shutdown` resolves, then drains in-flight calls,
    /// stops consuming and waits for the tasks.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let shutdown: Shutdown = shutdown.boxed().shared();
        if let Some(stamp) = &self.stamp {
            stamp.renew().await;
        }
        let (reporter, health) = health_reporter();
        reporter.set_serving::<S>().await;

        let ops = tokio::spawn(
            axum::serve(
                self.ops_listener,
                ops::ops_router(database::ready_check(self.db.clone()), self.note),
            )
            .with_graceful_shutdown(shutdown.clone())
            .into_future(),
        );
        let consumer = self
            .consumption
            .map(|consume| tokio::spawn(consume(self.db, self.stamp.clone())));
        let tasks: Vec<_> = self
            .tasks
            .into_iter()
            .map(|(what, task)| (what, tokio::spawn(task(shutdown.clone()))))
            .collect();

        let served = tonic::transport::Server::builder()
            .trace_fn(telemetry::grpc_span)
            .layer(GrpcMetricsLayer)
            .add_service(health)
            .add_service(InterceptedService::new(
                self.service,
                AuthInterceptor::new(self.verifier),
            ))
            .serve_with_incoming_shutdown(incoming(self.listener), shutdown)
            .await
            .context("serving gRPC");
        if let Some(consumer) = consumer {
            consumer.abort();
        }
        served?;
        for (what, task) in tasks {
            task.await.context(what)?;
        }
        ops.await??;
        Ok(())
    }
}

/// `tick` at once, then every `interval`, until `shutdown` resolves (see [`Host::every`]).
pub async fn periodically<F, Fut, T, E>(what: &'static str, interval: Duration, tick: F, shutdown: Shutdown)
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<T, E>>,
    E: Display,
{
    loop {
        if let Err(error) = tick().await {
            tracing::warn!(
                error = format!("{error:#}"),
                "{what}: a tick failed; retrying next tick"
            );
        }
        tokio::select! {
            () = shutdown.clone() => return,
            () = tokio::time::sleep(interval) => {}
        }
    }
}

/// The connections `listener` accepts, each with `TCP_NODELAY` set, for
/// `serve_with_incoming_shutdown`. A gRPC answer leaves as several small writes (headers, the
/// message, trailers); with Nagle's algorithm on, each write after the first can wait for the
/// peer's delayed ACK, up to 40 ms. A socket that refuses the option is served anyway.
fn incoming(listener: TcpListener) -> impl Stream<Item = std::io::Result<TcpStream>> {
    TcpListenerStream::new(listener).map(|accepted| {
        accepted.inspect(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "TCP_NODELAY not set on an accepted connection");
            }
        })
    })
}

/// A tower layer recording, per RPC, `grpc_requests_total`, `grpc_request_duration_seconds`
/// and `grpc_errors_total` (by status code).
#[derive(Clone, Copy, Default)]
struct GrpcMetricsLayer;

impl<S> tower::Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;
    fn layer(&self, inner: S) -> Self::Service {
        GrpcMetrics { inner }
    }
}

/// See [`GrpcMetricsLayer`].
#[derive(Clone)]
struct GrpcMetrics<S> {
    inner: S,
}

impl<S, B, RB> tower::Service<http::Request<B>> for GrpcMetrics<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<RB>> + Send,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let rpc = request.uri().path().to_owned();
        let started = Instant::now();
        let future = self.inner.call(request);
        Box::pin(async move {
            let result = future.await;
            let elapsed = started.elapsed().as_secs_f64();
            metrics::counter!("grpc_requests_total", "rpc" => rpc.clone()).increment(1);
            metrics::histogram!("grpc_request_duration_seconds", "rpc" => rpc.clone()).record(elapsed);
            // Errors a handler returns travel as a trailers-only response: the code is a header.
            let code = match &result {
                Ok(response) => response
                    .headers()
                    .get("grpc-status")
                    .and_then(|v| v.to_str().ok())
                    .filter(|c| *c != "0")
                    .map(str::to_owned),
                Err(_) => Some("transport".to_owned()),
            };
            if let Some(code) = code {
                metrics::counter!("grpc_errors_total", "rpc" => rpc, "code" => code).increment(1);
            }
            result
        })
    }
}
