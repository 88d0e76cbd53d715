//! The ops HTTP port every process runs beside its real work: `/metrics` for Prometheus,
//! `/livez`, and `/readyz` answered by the process's own [`ReadyCheck`]. Feature `ops`.

use std::sync::{Arc, OnceLock};

use axum::{Router, extract::State, http::StatusCode, routing::get};
use futures::future::BoxFuture;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

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

/// What a ready process adds to its `/readyz` answer, if anything: a dependency whose loss
/// degrades it without making it unready.
pub type ReadyNote = Arc<dyn Fn() -> BoxFuture<'static, Option<String>> + Send + Sync>;

#[derive(Clone)]
struct OpsState {
    metrics: PrometheusHandle,
    ready: ReadyCheck,
    note: Option<ReadyNote>,
}

/// The ops router: `/metrics`, `/livez` (always 200 while the process runs), `/readyz`
/// (200 when `ready` passes, with `note`'s remark if it makes one; 503 with the reason otherwise).
pub fn ops_router(ready: ReadyCheck, note: Option<ReadyNote>) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(|State(s): State<OpsState>| async move { s.metrics.render() }),
        )
        .route("/livez", get(|| async { "ok" }))
        .route(
            "/readyz",
            get(|State(s): State<OpsState>| async move {
                if let Err(why) = (s.ready)().await {
                    return (StatusCode::SERVICE_UNAVAILABLE, why);
                }
                let remark = match &s.note {
                    Some(note) => note().await,
                    None => None,
                };
                match remark {
                    Some(remark) => (StatusCode::OK, format!("ready; {remark}")),
                    None => (StatusCode::OK, "ready".to_owned()),
                }
            }),
        )
        .with_state(OpsState {
            metrics: metrics_handle(),
            ready,
            note,
        })
}

/// Serves the ops router on `listener` until `shutdown` resolves.
pub async fn serve_ops(
    listener: TcpListener,
    ready: ReadyCheck,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, ops_router(ready, None))
        .with_graceful_shutdown(shutdown)
        .await
}
