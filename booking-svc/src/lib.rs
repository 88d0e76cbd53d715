//! booking-svc: clients book coach slots for a date, coaches approve or deny, clients cancel.
//! A booking keeps a snapshot of the slot (times, location name) taken from coaching-svc when it
//! is made. The database itself refuses a second active booking of one slot and date, and two
//! overlapping active bookings of one coach on one date, however many replicas run.
//!
//! Names (coach_name, client_name) are not kept here: the gateway resolves them with
//! identity.v1.GetUsers, one batch per list.
//!
//! `build` connects, migrates and binds; [`Server::run_until`] serves gRPC (with
//! `grpc.health.v1`), the ops port and the consumer of identity's events until the shutdown
//! future resolves.

mod coaching;
mod config;
mod domain;
mod error;
mod events;
mod grpc;
mod slots;
mod store;

use std::{future::Future, time::Duration};

use anyhow::Context;
use axum::{Router, extract::State, http::StatusCode, routing::get};
use futures::FutureExt;
use proto::{
    auth::{AuthInterceptor, TokenVerifier},
    booking::v1::booking_server::BookingServer,
    events::Consumer,
    redis_link::RedisLink,
    server::GrpcMetricsLayer,
    stamps::{self, Stamp},
};
use sqlx::PgPool;
use tokio::net::TcpListener;

pub use config::Config;

/// How long reading coaching's change stamp may take before the slot is asked for instead.
const STAMP_TIMEOUT: Duration = Duration::from_millis(150);

/// A built, bound, not yet serving booking-svc.
pub struct Server {
    listener: TcpListener,
    ops_listener: TcpListener,
    service: grpc::BookingService,
    verifier: TokenVerifier,
    redis: redis::Client,
    consumer: Consumer,
}

/// Connects to PostgreSQL, applies the migrations, prepares the coaching-svc channel and binds
/// both ports.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    let verifier = TokenVerifier::from_pem(config.jwt_public_key.as_bytes()).context("JWT public key")?;
    let coaching = coaching::Coaching::connect_lazy(
        &config.coaching_url,
        config.coaching_timeout,
        config.grpc_resolve_interval,
    )?;
    let redis = redis::Client::open(config.redis_url.as_str()).context("REDIS_URL")?;
    let slots = slots::Slots::new(
        coaching,
        Stamp::new(
            RedisLink::new(&config.redis_url, STAMP_TIMEOUT).context("REDIS_URL")?,
            &config.redis_namespace,
            stamps::Context::Coaching,
        ),
    );
    slots.connect().await;
    let db = connect(&config.database_url).await?;
    sqlx::migrate!()
        .run(&db)
        .await
        .context("running booking migrations")?;

    let listener = TcpListener::bind(config.listen_addr)
        .await
        .context("binding the gRPC port")?;
    let ops_listener = TcpListener::bind(config.ops_addr)
        .await
        .context("binding the ops port")?;
    Ok(Server {
        listener,
        ops_listener,
        service: grpc::BookingService { db, slots },
        verifier,
        redis,
        consumer: Consumer::new(&config.redis_namespace, "booking-svc"),
    })
}

async fn connect(url: &str) -> anyhow::Result<PgPool> {
    proto::database::connect(url, 16, Duration::from_secs(3))
        .await
        .context("connecting to PostgreSQL")
}

impl Server {
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

    /// Serves until `shutdown` resolves, then drains in-flight calls.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let shutdown = shutdown.shared();
        let (reporter, health) = proto::server::health_reporter();
        reporter
            .set_serving::<BookingServer<grpc::BookingService>>()
            .await;

        let db = self.service.db.clone();
        let consumer = tokio::spawn(async move {
            proto::events::consume(self.redis, &self.consumer, |envelope| {
                events::apply(&db, envelope)
            })
            .await;
        });

        let ops = tokio::spawn(
            axum::serve(self.ops_listener, ops_router(&self.service))
                .with_graceful_shutdown(shutdown.clone())
                .into_future(),
        );

        let served = tonic::transport::Server::builder()
            .trace_fn(proto::telemetry::grpc_span)
            .layer(GrpcMetricsLayer)
            .add_service(health)
            .add_service(BookingServer::with_interceptor(
                self.service,
                AuthInterceptor::new(self.verifier),
            ))
            .serve_with_incoming_shutdown(proto::server::incoming(self.listener), shutdown)
            .await
            .context("serving gRPC");
        consumer.abort();
        served?;
        ops.await??;
        Ok(())
    }
}

#[derive(Clone)]
struct Readiness {
    db: PgPool,
    coaching: coaching::Coaching,
}

/// The shared ops router, with a `/readyz` that also says when coaching-svc is unreachable: that
/// only stops new bookings, so booking-svc stays ready.
fn ops_router(service: &grpc::BookingService) -> Router {
    let readiness = Readiness {
        db: service.db.clone(),
        coaching: service.slots.coaching().clone(),
    };
    Router::new()
        .route("/readyz", get(readyz))
        .with_state(readiness)
        .fallback_service(proto::server::ops_router(proto::database::ready_check(
            service.db.clone(),
        )))
}

async fn readyz(State(r): State<Readiness>) -> (StatusCode, String) {
    if let Err(why) = proto::database::answers(&r.db).await {
        return (StatusCode::SERVICE_UNAVAILABLE, why);
    }
    match r.coaching.check_health().await {
        Ok(()) => (StatusCode::OK, "ready".to_owned()),
        Err(why) => (
            StatusCode::OK,
            format!("ready; coaching-svc is unreachable ({why}), so new bookings fail until it is back"),
        ),
    }
}
