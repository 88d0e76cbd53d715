//! The gateway: Courtside's only public door. `/api` REST ↔ gRPC, the token check and the role
//! gate of every route (one table, `routes`), composition of views that span contexts, uploads,
//! rate limits and the OpenAPI document. It holds nothing durable.

mod auth;
mod body_check;
mod body_drain;
mod body_rules;
mod call;
mod config;
mod error;
mod extract;
mod http_cache;
mod ics;
mod idempotency;
mod limits;
mod live;
mod memo;
mod names;
mod no_store;
mod observe;
mod openapi;
mod pages;
mod redis_store;
pub mod routes;
mod state;
mod uploads;
mod vocabulary;

use std::{future::Future, net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context;
use axum::{
    Router,
    extract::{DefaultBodyLimit, State},
    http::{Method, StatusCode, Uri},
    response::IntoResponse,
    routing::get,
    serve::ListenerExt,
};
use futures::FutureExt;
use tokio::net::TcpListener;

pub use config::{Config, DEFAULT_STRIPE_JS_URL};
pub use extract::{Cidr, TrustedProxies};
pub use state::AppState;

use crate::error::ApiError;

/// The largest JSON body accepted (uploads have their own limit).
pub(crate) const BODY_LIMIT: usize = 1024 * 1024;

/// The whole HTTP surface: `/api/*`, `/api/openapi.json`, `/healthz`, `/readyz`.
pub fn router(state: AppState) -> Router {
    let trusted = state.config.trusted_proxies.clone();
    let (api, openapi) = routes::api(state.clone());
    let openapi = Arc::new(openapi);
    let api = api
        .route(
            "/openapi.json",
            get(move || async move { axum::Json(openapi.as_ref().clone()) }),
        )
        .fallback(unknown_route)
        .method_not_allowed_fallback(method_not_allowed);
    let probes = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .with_state(state);
    Router::new()
        .nest("/api", api)
        .merge(probes)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(body_drain::drain_refused))
        .layer(axum::middleware::from_fn(no_store::no_store))
        .layer(axum::middleware::from_fn_with_state(
            trusted,
            extract::client_address,
        ))
        .layer(axum::middleware::from_fn(observe::observe))
}

async fn unknown_route(method: Method, uri: Uri) -> ApiError {
    ApiError::not_found(format!("There is no endpoint {method} {}.", uri.path()))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}.", uri.path()),
    )
}

/// Ready when every service answers its health check.
async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    match ready(&state).await {
        Ok(()) => (StatusCode::OK, "ready".to_owned()),
        Err(why) => (StatusCode::SERVICE_UNAVAILABLE, why),
    }
}

async fn ready(state: &AppState) -> Result<(), String> {
    let checks = state.channels.iter().map(|(name, channel)| {
        let mut client = tonic_health::pb::health_client::HealthClient::new(channel.clone());
        async move {
            let mut request = tonic::Request::new(tonic_health::pb::HealthCheckRequest {
                service: String::new(),
            });
            request.set_timeout(Duration::from_secs(1));
            match client.check(request).await {
                Ok(reply) if reply.get_ref().status == 1 => Ok(()),
                Ok(_) => Err(format!("{name}: not serving")),
                Err(status) => Err(format!("{name}: {}", status.message())),
            }
        }
    });
    let failures: Vec<String> = futures::future::join_all(checks)
        .await
        .into_iter()
        .filter_map(Result::err)
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// A built, bound, not yet serving gateway.
pub struct Server {
    listener: TcpListener,
    ops_listener: TcpListener,
    state: AppState,
}

/// Binds both ports; channels to the services connect lazily, so start order does not matter.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    std::fs::create_dir_all(&config.upload_dir)
        .with_context(|| format!("creating the upload directory {}", config.upload_dir.display()))?;
    let listener = TcpListener::bind(config.listen_addr)
        .await
        .context("binding the HTTP port")?;
    let ops_listener = TcpListener::bind(config.ops_addr)
        .await
        .context("binding the ops port")?;
    let state = AppState::new(config)?;
    Ok(Server {
        listener,
        ops_listener,
        state,
    })
}

impl Server {
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or_default()
    }

    pub fn ops_port(&self) -> u16 {
        self.ops_listener
            .local_addr()
            .map(|a| a.port())
            .unwrap_or_default()
    }

    /// Serves until `shutdown` resolves, then drains in-flight requests.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let shutdown = shutdown.shared();
        let state = self.state.clone();
        let ready: platform::ops::ReadyCheck = Arc::new(move || {
            let state = state.clone();
            async move { ready(&state).await }.boxed()
        });
        let ops = tokio::spawn(platform::ops::serve_ops(
            self.ops_listener,
            ready,
            shutdown.clone(),
        ));
        // TCP_NODELAY: an answer's last small write never waits for the peer's delayed ACK.
        let listener = self.listener.tap_io(|tcp| {
            if let Err(error) = tcp.set_nodelay(true) {
                tracing::debug!(%error, "TCP_NODELAY not set on an accepted connection");
            }
        });
        axum::serve(
            listener,
            router(self.state).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await
        .context("serving HTTP")?;
        ops.await??;
        Ok(())
    }
}
