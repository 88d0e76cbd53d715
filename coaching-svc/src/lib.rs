//! coaching-svc: coach profiles, coach locations (with coordinates) and availability slots, and
//! the coach directory with its city and nearby searches. Coach names are not held here: the
//! gateway resolves them with identity's `GetUsers`, one batch per page.
//!
//! `build` connects, migrates and binds; [`Server::run_until`] serves gRPC (with
//! `grpc.health.v1`) and the ops port, and consumes identity's events, until the shutdown future
//! resolves.

mod config;
mod domain;
mod error;
mod events;
mod grpc;
mod store;

use std::{future::Future, sync::Arc, time::Duration};

use anyhow::Context;
use futures::FutureExt;
use platform::{
    auth::{AuthInterceptor, TokenVerifier},
    events::Consumer,
    host::{GrpcMetricsLayer, RenewStampLayer},
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::coaching::v1::coaching_server::CoachingServer;
use sqlx::PgPool;
use tokio::net::TcpListener;

pub use config::Config;

/// A built, bound, not yet serving coaching-svc.
pub struct Server {
    listener: TcpListener,
    ops_listener: TcpListener,
    service: grpc::CoachingService,
    verifier: TokenVerifier,
    redis: redis::Client,
    /// Renewed after every change this service makes ([`platform::stamps`]).
    stamp: Stamp,
    consumer: Consumer,
}

/// How long an RPC may wait to renew the change stamp.
const STAMP_WRITE_LIMIT: Duration = Duration::from_millis(100);

/// Connects to PostgreSQL, applies the migrations, loads the gazetteer and binds both ports.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    let verifier = TokenVerifier::from_pem(config.jwt_public_key.as_bytes()).context("JWT public key")?;
    let redis = redis::Client::open(config.redis_url.as_str()).context("REDIS_URL")?;
    let stamp = Stamp::new(
        RedisLink::new(&config.redis_url, STAMP_WRITE_LIMIT).context("REDIS_URL")?,
        &config.redis_namespace,
        stamps::Context::Coaching,
    );
    let db = connect(&config.database_url).await?;
    sqlx::migrate!()
        .run(&db)
        .await
        .context("running coaching migrations")?;
    let gazetteer = Arc::new(domain::Gazetteer::bundled());
    tracing::info!(places = gazetteer.place_count(), "gazetteer loaded");
    let listener = TcpListener::bind(config.listen_addr)
        .await
        .context("binding the gRPC port")?;
    let ops_listener = TcpListener::bind(config.ops_addr)
        .await
        .context("binding the ops port")?;
    Ok(Server {
        listener,
        ops_listener,
        service: grpc::CoachingService { db, gazetteer },
        verifier,
        redis,
        stamp,
        consumer: Consumer::new(&config.redis_namespace, events::GROUP),
    })
}

async fn connect(url: &str) -> anyhow::Result<PgPool> {
    platform::database::connect(url, 16, Duration::from_secs(3))
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

    /// Serves until `shutdown` resolves, then drains in-flight calls and stops consuming events.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let shutdown = shutdown.shared();
        // What gateways remember may predate changes made while this replica was down.
        self.stamp.renew().await;
        let (reporter, health) = platform::host::health_reporter();
        reporter
            .set_serving::<CoachingServer<grpc::CoachingService>>()
            .await;

        let ops = tokio::spawn(platform::ops::serve_ops(
            self.ops_listener,
            platform::database::ready_check(self.service.db.clone()),
            shutdown.clone(),
        ));

        let (db, stamp) = (self.service.db.clone(), self.stamp.clone());
        let (redis, subscription) = (self.redis, self.consumer);
        let consumer = tokio::spawn(async move {
            platform::events::consume(redis, &subscription, move |envelope| {
                let (db, stamp) = (db.clone(), stamp.clone());
                async move {
                    let applied = events::apply(&db, envelope).await;
                    stamp.renew().await;
                    applied
                }
            })
            .await;
        });

        let served = tonic::transport::Server::builder()
            .trace_fn(platform::telemetry::grpc_span)
            .layer(GrpcMetricsLayer)
            .layer(RenewStampLayer(self.stamp.clone()))
            .add_service(health)
            .add_service(CoachingServer::with_interceptor(
                self.service,
                AuthInterceptor::new(self.verifier),
            ))
            .serve_with_incoming_shutdown(platform::host::incoming(self.listener), shutdown)
            .await
            .context("serving gRPC");
        consumer.abort();
        served?;
        ops.await??;
        Ok(())
    }
}
