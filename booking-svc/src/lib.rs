//! booking-svc: clients book coach slots for a date, coaches approve or deny, clients cancel.
//! A booking keeps a snapshot of the slot (times, location name) taken from coaching-svc when it
//! is made. The database itself refuses a second active booking of one slot and date, and two
//! overlapping active bookings of one coach on one date, however many replicas run.
//!
//! Names (coach_name, client_name) are not kept here: the gateway resolves them with
//! identity.v1.GetUsers, one batch per list.
//!
//! `build` connects, migrates and binds on the shared host ([`platform::host`]);
//! [`Host::run_until`] serves gRPC, the ops port and the consumer of identity's events until the
//! shutdown future resolves.

mod coaching;
mod config;
mod domain;
mod error;
mod events;
mod grpc;
mod slots;
mod store;

use std::{sync::Arc, time::Duration};

use anyhow::Context;
use futures::FutureExt;
use platform::{
    auth::TokenVerifier,
    events::Consumer,
    host::{Host, Pool, open_database},
    ops::ReadyNote,
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::booking::v1::booking_server::BookingServer;

pub use config::Config;

/// A built, bound, not yet serving booking-svc: [`Host::port`], [`Host::ops_port`],
/// [`Host::run_until`].
pub type Server = Host<BookingServer<grpc::BookingService>>;

/// How long reading coaching's change stamp may take before the slot is asked for instead.
const STAMP_TIMEOUT: Duration = Duration::from_millis(150);

const POOL: Pool = Pool {
    max_connections: 16,
    acquire_timeout: Duration::from_secs(3),
};

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
    let db = open_database(&config.database_url, POOL, &sqlx::migrate!(), "booking").await?;
    let note = coaching_unreachable(slots.coaching().clone());
    let service = BookingServer::new(grpc::BookingService {
        db: db.clone(),
        slots,
    });
    Ok(
        Host::bind(service, config.listen_addr, config.ops_addr, verifier, &db)
            .await?
            .noting(note)
            .consume(
                redis,
                Consumer::new(&config.redis_namespace, "booking-svc"),
                |db, envelope| async move { events::apply(&db, envelope).await },
            ),
    )
}

/// `/readyz` also says when coaching-svc is unreachable: that only stops new bookings, so
/// booking-svc stays ready.
fn coaching_unreachable(coaching: coaching::Coaching) -> ReadyNote {
    Arc::new(move || {
        let coaching = coaching.clone();
        async move {
            coaching.check_health().await.err().map(|why| {
                format!("coaching-svc is unreachable ({why}), so new bookings fail until it is back")
            })
        }
        .boxed()
    })
}
