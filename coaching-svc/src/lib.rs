//! coaching-svc: coach profiles, coach locations (with coordinates) and availability slots, and
//! the coach directory with its city and nearby searches, kept in memory between changes
//! ([`remembered`]). Names shown are identity's: the gateway resolves them with `GetUsers`, one
//! batch per page; the copy of each coach's name kept here only filters and orders the directory
//! (`q`, `sort=name`), refreshed by identity's `user_renamed` events.
//!
//! `build` connects, migrates and binds on the shared host ([`platform::host`]);
//! [`Host::run_until`] serves gRPC and the ops port, and consumes identity's events, until the
//! shutdown future resolves.

mod config;
mod directory;
mod domain;
mod error;
mod events;
mod grpc;
mod remembered;
mod store;
mod zones;

use std::time::Duration;

use anyhow::Context;
use platform::{
    auth::TokenVerifier,
    events::Consumer,
    host::{Host, Pool, open_database},
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::coaching::v1::coaching_server::CoachingServer;

pub use config::Config;

/// Fills in the zone of every location saved without one (done by [`build`]; public for tests).
pub async fn fill_in_location_zones(db: &sqlx::PgPool) -> anyhow::Result<u64> {
    Ok(zones::fill_in_location_zones(db, platform::places::bundled()).await?)
}

/// A built, bound, not yet serving coaching-svc: [`Host::port`], [`Host::ops_port`],
/// [`Host::run_until`].
pub type Server = Host<CoachingServer<grpc::CoachingService>>;

/// How long an RPC may wait to renew the change stamp.
const STAMP_WRITE_LIMIT: Duration = Duration::from_millis(100);

const POOL: Pool = Pool {
    max_connections: 16,
    acquire_timeout: Duration::from_secs(3),
};

/// Connects to PostgreSQL, applies the migrations, loads the gazetteer, fills in the zones of
/// locations saved before zones were kept ([`zones`]) and binds both ports.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    let verifier = TokenVerifier::from_pem(config.jwt_public_key.as_bytes()).context("JWT public key")?;
    let redis = redis::Client::open(config.redis_url.as_str()).context("REDIS_URL")?;
    // Renewed after every change this service makes ([`platform::stamps`]).
    let stamp = Stamp::new(
        RedisLink::new(&config.redis_url, STAMP_WRITE_LIMIT).context("REDIS_URL")?,
        &config.redis_namespace,
        stamps::Context::Coaching,
    );
    let db = open_database(&config.database_url, POOL, &sqlx::migrate!(), "coaching").await?;
    let gazetteer = platform::places::bundled();
    tracing::info!(places = gazetteer.place_count(), "gazetteer loaded");
    let filled = zones::fill_in_location_zones(&db, gazetteer)
        .await
        .context("filling in the time zones of locations")?;
    if filled > 0 {
        tracing::info!(filled, "time zones filled in for locations saved without one");
    }
    let service = CoachingServer::new(grpc::CoachingService {
        db: db.clone(),
        gazetteer,
        directory: Default::default(),
    });
    Ok(
        Host::bind(service, config.listen_addr, config.ops_addr, verifier, &db)
            .await?
            .stamp(stamp)
            .consume(
                redis,
                Consumer::new(&config.redis_namespace, events::GROUP),
                |db, envelope| async move { events::apply(&db, envelope).await },
            ),
    )
}
