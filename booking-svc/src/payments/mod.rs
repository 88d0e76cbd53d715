//! Payments (issue 33): a card held at booking, charged when the session takes place, released or
//! refunded by the coach's policy; the double-entry ledger; the provider's webhook and the
//! reconciliation against it.
//!
//! - [`provider`]: the one port to the provider (Stripe's API), and [`stripe`] its implementation.
//! - [`cards`]: a client's customer and saved cards (the local mirror booking creation reads).
//! - [`money`]: the money math (prices, fees, refunds), pure.
//! - [`settle`]: the outcome each booking transition decides, written in that transition's
//!   transaction.
//! - [`worker`]: carries decided outcomes to the provider, with idempotency keys, and books them.
//! - [`ledger`]: the books.
//! - [`reports`]: receipts, a coach's earnings, the admin's payments and totals, admin refunds.
//! - [`webhook`]: the provider's events, verified and applied once.
//! - [`reconcile`]: compares open and recent payments with the provider.

pub mod cards;
pub mod ledger;
pub mod money;
pub mod provider;
pub mod reconcile;
pub mod reports;
pub mod settle;
pub mod stripe;
pub mod webhook;
pub mod worker;

use std::sync::Arc;

use platform::clock::SharedClock;
use sqlx::PgPool;
use tokio::sync::Notify;

pub use provider::SharedProvider;

/// What every part of payments shares. Cheap to clone.
#[derive(Clone)]
pub struct Payments {
    pub db: PgPool,
    pub provider: SharedProvider,
    pub clock: SharedClock,
    /// The platform's fee on each capture, in basis points (`PLATFORM_FEE_BPS`, default 1000).
    pub fee_bps: i64,
    /// `STRIPE_WEBHOOK_SECRET`: signs the provider's webhook events.
    pub webhook_secret: String,
    /// Notified after each commit that wrote an event ([`platform::outbox::Relay::waker`]).
    pub relay: Arc<Notify>,
    /// Notified after each commit that left payment work due now: wakes this replica's payment
    /// worker ([`worker::wake_ups`]) instead of letting it wait for its next tick.
    pub wake: Arc<Notify>,
}
