//! booking-svc: clients book coach slots for a date, coaches approve or deny, either side cancels,
//! and the clock expires unanswered requests and completes sessions that took place
//! ([`scheduler`]). A booking keeps a snapshot of the slot (times, location name, its place's time
//! zone, the instants they stand for) taken from coaching-svc when it is made, and is checked
//! against the coach's policy, which travels with the slot. The database itself refuses a second
//! active booking of one slot and date, and two overlapping active bookings of one coach on one
//! date, however many replicas run. Every change leaves as an event through booking's
//! transactional outbox ([`platform::outbox`]), and raises the booking's revision, the SEQUENCE
//! of its event in calendars ([`calendar`]).
//!
//! Names (coach_name, client_name) are not kept here: the gateway resolves them with
//! identity.v1.GetUsers, one batch per list.
//!
//! `build` connects, migrates and binds on the shared host ([`platform::host`]);
//! [`Host::run_until`] serves gRPC, the ops port, the consumer of identity's events, the outbox
//! relay, the scheduler and the payment worker ([`PaymentWorker`]) until the shutdown future
//! resolves.

mod calendar;
mod coaching;
mod config;
mod domain;
mod error;
mod events;
mod facts;
mod grpc;
mod lifecycle;
mod payments;
mod reviews;
pub mod scheduler;
mod slots;
mod store;

use std::{sync::Arc, time::Duration};

use anyhow::Context;
use futures::FutureExt;
use platform::{
    auth::TokenVerifier,
    clock::SharedClock,
    events::Consumer,
    host::{Host, Pool, open_database},
    ops::ReadyNote,
    outbox::Relay,
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::booking::v1::booking_server::BookingServer;

pub use config::Config;
pub use payments::worker::PaymentWorker;
pub use scheduler::Scheduler;

/// A built, bound, not yet serving booking-svc: [`Host::port`], [`Host::ops_port`],
/// [`Host::run_until`].
pub type Server = Host<BookingServer<grpc::BookingService>>;

/// How long reading coaching's change stamp may take before the slot is asked for instead.
const STAMP_TIMEOUT: Duration = Duration::from_millis(150);

/// How long the outbox relay waits for Redis per operation.
const RELAY_REDIS_LIMIT: Duration = Duration::from_secs(1);

const POOL: Pool = Pool {
    max_connections: 16,
    acquire_timeout: Duration::from_secs(3),
};

/// Connects to PostgreSQL, applies the migrations, prepares the coaching-svc channel and binds
/// both ports; "now" is the system's clock.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    build_with_clock(config, platform::clock::system()).await
}

/// [`build`], reading "now" from `clock` for every rule and the scheduler: tests move time with a
/// [`platform::clock::ManualClock`] instead of sleeping.
pub async fn build_with_clock(config: Config, clock: SharedClock) -> anyhow::Result<Server> {
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
    let relay = Relay::new(
        db.clone(),
        RedisLink::new(&config.redis_url, RELAY_REDIS_LIMIT).context("REDIS_URL")?,
        platform::events::stream_key(&config.redis_namespace),
        store::OUTBOX,
    );
    let payment_wake = Arc::new(tokio::sync::Notify::new());
    let lifecycle = lifecycle::Lifecycle::new(
        db.clone(),
        relay.waker(),
        config.max_pending_bookings_per_coach,
        payment_wake.clone(),
    );
    let scheduler = Scheduler::with(lifecycle.clone(), clock.clone());
    let payments = payments::Payments {
        db: db.clone(),
        provider: Arc::new(
            payments::stripe::Stripe::new(&config.stripe_api_base, &config.stripe_secret_key)
                .context("STRIPE_API_BASE")?,
        ),
        clock: clock.clone(),
        fee_bps: config.platform_fee_bps,
        webhook_secret: config.stripe_webhook_secret.clone(),
        relay: relay.waker(),
        wake: payment_wake,
    };
    let service = BookingServer::new(grpc::BookingService {
        db: db.clone(),
        lifecycle: lifecycle.clone(),
        slots,
        clock: clock.clone(),
        payments: payments.clone(),
    });
    let every = config.scheduler_interval;
    Ok(
        Host::bind(service, config.listen_addr, config.ops_addr, verifier, &db)
            .await?
            .noting(note)
            .consume(
                redis,
                Consumer::new(&config.redis_namespace, "booking-svc"),
                move |_db, envelope| {
                    let (lifecycle, now) = (lifecycle.clone(), clock.now());
                    async move { events::apply(&lifecycle, envelope, now).await }
                },
            )
            .task("the outbox relay", |shutdown| relay.run(shutdown))
            .every("the scheduler", every, move || {
                let scheduler = scheduler.clone();
                async move { scheduler.run_due().await }
            })
            .task("the payment worker's wake-ups", {
                let payments = payments.clone();
                |shutdown| payments::worker::wake_ups(payments, shutdown)
            })
            .every("the payment worker", config.payment_interval, {
                let payments = payments.clone();
                move || {
                    let payments = payments.clone();
                    async move { payments::worker::run_due(&payments).await }
                }
            })
            .every("payment reconciliation", config.reconcile_interval, move || {
                let payments = payments.clone();
                async move { payments::reconcile::run(&payments).await }
            }),
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
