//! The ops HTTP port every process runs beside its real work: `/metrics` for Prometheus,
//! `/livez`, and `/readyz` answered by the process's own [`ReadyCheck`]. Feature `ops`.

use std::sync::{Arc, OnceLock};

use axum::{Router, extract::State, http::StatusCode, routing::get};
use futures::future::BoxFuture;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

/// Installs the process-wide Prometheus recorder once and returns its handle.
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets(&[
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                ])
                .expect("static buckets are valid")
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
