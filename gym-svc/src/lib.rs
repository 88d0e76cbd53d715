//! gym-svc: gym profiles, gym locations, courts, court availability and coaches' court
//! reservations, in the `gym` schema. It reacts to identity's user_deleted and role_changed
//! events (see [`events`]).
//!
//! Names across contexts: gym_name is this context's own (the gym profile, joined at read time);
//! coach names are not kept here: the gateway resolves `coach_id`s with identity's GetUsers in one
//! batch.
//!
//! Time: every location has an IANA zone ([`zones`] fills in rows saved before), court time is
//! read as instants, and a pending request expires at its start by the [`scheduler`], a task of
//! the host on every replica. Every reservation transition leaves as an event through the
//! transactional outbox ([`outbox`], `platform::outbox`) to the Redis stream, and raises the
//! reservation's revision, the SEQUENCE of its event in calendars ([`calendar`]).
//!
//! `build` connects, migrates, fills in and binds on the shared host ([`platform::host`]);
//! [`Host::run_until`] serves gRPC, the ops port, the event consumer, the outbox relay and the
//! scheduler until the shutdown future resolves.

mod calendar;
mod config;
mod domain;
mod error;
mod events;
mod grpc;
mod outbox;
mod scheduler;
mod store;
mod zones;

use std::time::Duration;

use anyhow::Context;
use platform::{
    auth::TokenVerifier,
    clock::{self, SharedClock},
    events::Consumer,
    host::{Host, Pool, open_database},
    outbox::Relay,
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::gym::v1::gym_server::GymServer;

pub use config::Config;
pub use scheduler::Scheduler;

/// How long the relay may wait on Redis per attempt.
const RELAY_REDIS_LIMIT: Duration = Duration::from_secs(2);

/// Fills in zones and due times saved without them (done by [`build`] and every tick; public for
/// tests): answers (locations, reservations) filled.
pub async fn fill_in(db: &sqlx::PgPool) -> anyhow::Result<(u64, u64)> {
    let filled = zones::fill_in(db).await?;
    Ok((filled.locations, filled.reservations))
}

/// A scheduler over `db` that reads `clock`, with no relay to wake and no stamp (tests race
/// several of these).
pub fn scheduler(db: sqlx::PgPool, clock: SharedClock) -> Scheduler {
    Scheduler {
        db,
        clock,
        outbox_wake: std::sync::Arc::default(),
        stamp: None,
    }
}

/// Expires what is due now, as one tick of a replica's scheduler does; answers how many.
pub async fn tick(scheduler: &Scheduler) -> anyhow::Result<u64> {
    Ok(scheduler.tick().await?)
}

/// A built, bound, not yet serving gym-svc: [`Host::port`], [`Host::ops_port`],
/// [`Host::run_until`].
pub type Server = Host<GymServer<grpc::GymService>>;

/// How long an RPC may wait to renew the change stamp.
const STAMP_WRITE_LIMIT: Duration = Duration::from_millis(100);

const POOL: Pool = Pool {
    max_connections: 10,
    acquire_timeout: Duration::from_secs(5),
};

/// Connects to PostgreSQL, applies the migrations, fills in zones and due times saved without
/// them and binds both ports, on the system clock.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    build_with_clock(config, clock::system()).await
}

/// [`build`], reading "now" from `clock` for every rule and the scheduler: tests move time with a
/// [`platform::clock::ManualClock`] instead of sleeping. The scheduler ticks every
/// `config.scheduler_interval` (5 s in service: a request expires within 5 s of its start, well
/// inside the minute the issue allows, for one indexed query per replica per tick).
pub async fn build_with_clock(config: Config, clock: SharedClock) -> anyhow::Result<Server> {
    let verifier = TokenVerifier::from_pem(config.jwt_public_key.as_bytes()).context("JWT public key")?;
    let redis = redis::Client::open(config.redis_url.as_str()).context("REDIS_URL")?;
    // Renewed after every change this service makes ([`platform::stamps`]).
    let stamp = Stamp::new(
        RedisLink::new(&config.redis_url, STAMP_WRITE_LIMIT).context("REDIS_URL")?,
        &config.redis_namespace,
        stamps::Context::Gym,
    );
    let db = open_database(&config.database_url, POOL, &sqlx::migrate!(), "gym").await?;
    let filled = zones::fill_in(&db)
        .await
        .context("filling in the zones of gym locations and the due times of requests")?;
    if filled != zones::Filled::default() {
        tracing::info!(
            locations = filled.locations,
            reservations = filled.reservations,
            "zones and due times filled in for rows saved without them"
        );
    }
    let relay = Relay::new(
        db.clone(),
        RedisLink::new(&config.redis_url, RELAY_REDIS_LIMIT).context("REDIS_URL")?,
        platform::events::stream_key(&config.redis_namespace),
        outbox::OUTBOX,
    );
    let scheduler = Scheduler {
        db: db.clone(),
        clock: clock.clone(),
        outbox_wake: relay.waker(),
        stamp: Some(stamp.clone()),
    };
    let service = GymServer::new(grpc::GymService {
        db: db.clone(),
        clock,
        gazetteer: platform::places::bundled(),
        outbox_wake: relay.waker(),
    });
    let every = config.scheduler_interval;
    Ok(
        Host::bind(service, config.listen_addr, config.ops_addr, verifier, &db)
            .await?
            .stamp(stamp)
            .consume(
                redis,
                Consumer::new(&config.redis_namespace, "gym-svc"),
                |db, envelope| async move { events::apply(&db, envelope).await },
            )
            .task("the outbox relay", |shutdown| relay.run(shutdown))
            .every("the reservation scheduler", every, move || {
                let scheduler = scheduler.clone();
                async move { scheduler.run_due().await }
            }),
    )
}
