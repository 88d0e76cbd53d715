//! identity-svc: users, argon2id password hashes, tokens (it alone signs them), client profiles,
//! the first admin, and the admin's user management. Facts other contexts react to leave through
//! a transactional outbox.
//!
//! `build` connects, migrates and binds; [`Server::run_until`] serves gRPC (with
//! `grpc.health.v1`), the ops port and the outbox relay until the shutdown future resolves.

mod config;
mod domain;
mod error;
mod grpc;
mod outbox;
mod revocation;
mod store;

use std::{future::Future, time::Duration};

use anyhow::Context;
use futures::FutureExt;
use platform::{
    auth::{AuthInterceptor, Role, TokenSigner, TokenVerifier},
    host::GrpcMetricsLayer,
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::identity::v1::identity_server::IdentityServer;
use sqlx::PgPool;
use tokio::net::TcpListener;

pub use config::{AdminSeed, Config};

/// A built, bound, not yet serving identity-svc.
pub struct Server {
    listener: TcpListener,
    ops_listener: TcpListener,
    service: grpc::IdentityService,
    verifier: TokenVerifier,
    relay: outbox::Relay,
}

/// How long the relay waits for Redis per operation (RPCs wait at most
/// [`revocation::WRITE_LIMIT`]).
const RELAY_REDIS_LIMIT: Duration = Duration::from_secs(1);

/// Connects to PostgreSQL, applies the migrations, seeds the first admin and binds both ports.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    let signer = TokenSigner::from_pem(config.jwt_private_key.as_bytes()).context("JWT private key")?;
    let verifier = TokenVerifier::from_pem(config.jwt_public_key.as_bytes()).context("JWT public key")?;
    let db = connect(&config.database_url).await?;
    sqlx::migrate!()
        .run(&db)
        .await
        .context("running identity migrations")?;

    let relay = outbox::Relay::new(
        db.clone(),
        RedisLink::new(&config.redis_url, RELAY_REDIS_LIMIT).context("REDIS_URL")?,
        platform::events::stream_key(&config.redis_namespace),
    );
    let link = RedisLink::new(&config.redis_url, revocation::WRITE_LIMIT).context("REDIS_URL")?;
    let service = grpc::IdentityService {
        db,
        hasher: domain::Hasher::start(num_cpus()).await?,
        signer,
        revocations: revocation::Revocations::new(link.clone(), config.redis_namespace.clone()),
        outbox_wake: relay.waker(),
        names_stamp: Stamp::new(link, &config.redis_namespace, stamps::Context::Names),
    };
    // Names may have changed while this replica was down.
    service.names_stamp.renew().await;
    if let Some(admin) = &config.admin {
        seed_admin(&service, admin).await?;
    }
    let listener = TcpListener::bind(config.listen_addr)
        .await
        .context("binding the gRPC port")?;
    let ops_listener = TcpListener::bind(config.ops_addr)
        .await
        .context("binding the ops port")?;
    Ok(Server {
        listener,
        ops_listener,
        service,
        verifier,
        relay,
    })
}

async fn connect(url: &str) -> anyhow::Result<PgPool> {
    platform::database::connect(url, 16, Duration::from_secs(3))
        .await
        .context("connecting to PostgreSQL")
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map(usize::from).unwrap_or(2)
}

async fn seed_admin(service: &grpc::IdentityService, admin: &AdminSeed) -> anyhow::Result<()> {
    if store::admin_exists(&service.db).await? {
        return Ok(());
    }
    match service
        .create_account(
            &admin.email,
            &admin.password,
            &admin.full_name,
            None,
            "admin",
            &[Role::Admin],
        )
        .await
    {
        Ok(_) => {
            tracing::info!(email = %admin.email, "first admin created");
            Ok(())
        }
        // Another replica created it first.
        Err(error::Error::Conflict(_)) => Ok(()),
        Err(e) => Err(anyhow::anyhow!("creating the first admin: {e}")),
    }
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

    /// Serves (and relays the outbox) until `shutdown` resolves, then drains in-flight calls.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let shutdown = shutdown.shared();
        let (reporter, health) = platform::host::health_reporter();
        reporter
            .set_serving::<IdentityServer<grpc::IdentityService>>()
            .await;

        let ops = tokio::spawn(platform::ops::serve_ops(
            self.ops_listener,
            platform::database::ready_check(self.service.db.clone()),
            shutdown.clone(),
        ));
        let relay = tokio::spawn(self.relay.run(shutdown.clone()));

        tonic::transport::Server::builder()
            .trace_fn(platform::telemetry::grpc_span)
            .layer(GrpcMetricsLayer)
            .add_service(health)
            .add_service(IdentityServer::with_interceptor(
                self.service,
                AuthInterceptor::new(self.verifier),
            ))
            .serve_with_incoming_shutdown(platform::host::incoming(self.listener), shutdown)
            .await
            .context("serving gRPC")?;
        relay.await.context("the outbox relay")?;
        ops.await??;
        Ok(())
    }
}
