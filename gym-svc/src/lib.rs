//! gym-svc: gym profiles, gym locations, courts, court availability and coaches' court
//! reservations, in the `gym` schema. It reacts to identity's user_deleted and role_changed
//! events (see [`events`]).
//!
//! Names across contexts: gym_name is this context's own (the gym profile, joined at read time);
//! coach names are not kept here: the gateway resolves `coach_id`s with identity's GetUsers in one
//! batch.
//!
//! `build` connects, migrates and binds on the shared host ([`platform::host`]);
//! [`Host::run_until`] serves gRPC, the ops port and the event consumer until the shutdown future
//! resolves.

mod config;
mod domain;
mod error;
mod events;
mod grpc;
mod store;

use std::time::Duration;

use anyhow::Context;
use platform::{
    auth::TokenVerifier,
    events::Consumer,
    host::{Host, Pool, open_database},
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::gym::v1::gym_server::GymServer;

pub use config::Config;

/// A built, bound, not yet serving gym-svc: [`Host::port`], [`Host::ops_port`],
/// [`Host::run_until`].
pub type Server = Host<GymServer<grpc::GymService>>;

/// How long an RPC may wait to renew the change stamp.
const STAMP_WRITE_LIMIT: Duration = Duration::from_millis(100);

const POOL: Pool = Pool {
    max_connections: 10,
    acquire_timeout: Duration::from_secs(5),
};

/// Connects to PostgreSQL, applies the migrations and binds both ports.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    let verifier = TokenVerifier::from_pem(config.jwt_public_key.as_bytes()).context("JWT public key")?;
    let redis = redis::Client::open(config.redis_url.as_str()).context("REDIS_URL")?;
    // Renewed after every change this service makes ([`platform::stamps`]).
    let stamp = Stamp::new(
        RedisLink::new(&config.redis_url, STAMP_WRITE_LIMIT).context("REDIS_URL")?,
        &config.redis_namespace,
        stamps::Context::Gym,
    );
    let db = open_database(&config.database_url, POOL, &sqlx::migrate!(), "gym").await?;
    let service = GymServer::new(grpc::GymService { db: db.clone() });
    Ok(
        Host::bind(service, config.listen_addr, config.ops_addr, verifier, &db)
            .await?
            .stamp(stamp)
            .consume(
                redis,
                Consumer::new(&config.redis_namespace, "gym-svc"),
                |db, envelope| async move { events::apply(&db, envelope).await },
            ),
    )
}
