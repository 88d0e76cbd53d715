//! What every gRPC service runs besides its own RPCs: the ops HTTP port (`/metrics` for
//! Prometheus, `/livez`, `/readyz`), per-RPC metrics, and the serving loop with health, tracing
//! and graceful shutdown. Feature `server`.

use std::{
    future::Future,
    net::SocketAddr,
    pin::Pin,
    sync::{Arc, OnceLock},
    task::{Context, Poll},
    time::Instant,
};

use axum::{Router, extract::State, http::StatusCode, routing::get};
use futures::{Stream, StreamExt, future::BoxFuture};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::{TcpListener, TcpStream};
use tokio_stream::wrappers::TcpListenerStream;

/// Installs the process-wide Prometheus recorder once (every series labelled with this replica's
/// `instance`) and returns its handle.
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets(&[
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                ])
                .expect("static buckets are valid")
                .add_global_label("instance", crate::telemetry::instance())
                .install_recorder()
                .expect("the Prometheus recorder installs once")
        })
        .clone()
}

/// A readiness probe: resolves to `Ok(())` when the process can serve, or says what is missing.
pub type ReadyCheck = Arc<dyn Fn() -> BoxFuture<'static, Result<(), String>> + Send + Sync>;

#[derive(Clone)]
struct OpsState {
    metrics: PrometheusHandle,
    ready: ReadyCheck,
}

/// The ops router: `/metrics`, `/livez` (always 200 while the process runs), `/readyz`
/// (200 when `ready` passes, 503 with the reason otherwise).
pub fn ops_router(ready: ReadyCheck) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(|State(s): State<OpsState>| async move { s.metrics.render() }),
        )
        .route("/livez", get(|| async { "ok" }))
        .route(
            "/readyz",
            get(|State(s): State<OpsState>| async move {
                match (s.ready)().await {
                    Ok(()) => (StatusCode::OK, "ready".to_owned()),
                    Err(why) => (StatusCode::SERVICE_UNAVAILABLE, why),
                }
            }),
        )
        .with_state(OpsState {
            metrics: metrics_handle(),
            ready,
        })
}

/// Serves the ops router on `listener` until `shutdown` resolves.
pub async fn serve_ops(
    listener: TcpListener,
    ready: ReadyCheck,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, ops_router(ready))
        .with_graceful_shutdown(shutdown)
        .await
}

/// The connections `listener` accepts, each with `TCP_NODELAY` set, for
/// `serve_with_incoming_shutdown`. A gRPC answer leaves as several small writes (headers, the
/// message, trailers); with Nagle's algorithm on, each write after the first can wait for the
/// peer's delayed ACK, up to 40 ms. A socket that refuses the option is served anyway.
pub fn incoming(listener: TcpListener) -> impl Stream<Item = std::io::Result<TcpStream>> {
    TcpListenerStream::new(listener).map(|accepted| {
        accepted.inspect(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "TCP_NODELAY not set on an accepted connection");
            }
        })
    })
}

/// Binds `addr`, so `build()` can report the real port before serving (tests bind port 0).
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// A tower layer recording, per RPC, `grpc_requests_total`, `grpc_request_duration_seconds`
/// and `grpc_errors_total` (by status code).
#[derive(Clone, Copy, Default)]
pub struct GrpcMetricsLayer;

impl<S> tower::Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;
    fn layer(&self, inner: S) -> Self::Service {
        GrpcMetrics { inner }
    }
}

/// See [`GrpcMetricsLayer`].
#[derive(Clone)]
pub struct GrpcMetrics<S> {
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

/// A tower layer that renews a context's change [`Stamp`](crate::stamps::Stamp) after every RPC
/// that is not a read ([`is_read`](crate::stamps::is_read)), before the answer leaves, so a
/// client that saw its change succeed never reads the old data from a gateway's memory. A failed
/// RPC renews it too: a needless renewal costs a gateway one fresh read, a missed one costs
/// correctness.
#[derive(Clone)]
pub struct RenewStampLayer(pub crate::stamps::Stamp);

impl<S> tower::Layer<S> for RenewStampLayer {
    type Service = RenewStamp<S>;
    fn layer(&self, inner: S) -> Self::Service {
        RenewStamp {
            inner,
            stamp: self.0.clone(),
        }
    }
}

/// See [`RenewStampLayer`].
#[derive(Clone)]
pub struct RenewStamp<S> {
    inner: S,
    stamp: crate::stamps::Stamp,
}

impl<S, B, RB> tower::Service<http::Request<B>> for RenewStamp<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<RB>> + Send,
    S::Future: Send + 'static,
    S::Error: Send,
    RB: Send,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let stamp = (!crate::stamps::is_read(request.uri().path())).then(|| self.stamp.clone());
        let future = self.inner.call(request);
        Box::pin(async move {
            let result = future.await;
            if let Some(stamp) = stamp {
                stamp.renew().await;
            }
            result
        })
    }
}

/// A gRPC health reporter and its service, for `grpc.health.v1`.
pub use tonic_health::server::{HealthReporter, health_reporter};
