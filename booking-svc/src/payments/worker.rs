//! The payment worker: carries the outcomes booking transitions decided ([`super::settle`]) and
//! the admin's refunds to the provider, and books what the provider did.
//!
//! Each replica runs it every `PAYMENT_INTERVAL` and right after a commit that left work due now
//! ([`wake_ups`]). A run claims due bookings (`payment_due_at <= now`, no live lease) with
//! `for update skip locked`, leases them for [`LEASE`] and commits; calls the provider outside any
//! transaction, each call with an idempotency key of the booking (or refund) and the step; then,
//! in one transaction per booking, locks the row again and applies what the provider answered
//! only if the row still stands where the step found it, with its payment lines, its ledger
//! transaction, its event, its next due time and the lease cleared. A crash anywhere leaves the
//! row due (its lease lapses), and the step is tried again:
//! - a hold is two calls, create then confirm, the created intent's id committed in between: an
//!   unconfirmed intent holds nothing, so a crash between them never leaves a second hold;
//! - a retried confirm, capture or cancel the provider already applied (localstripe ignores
//!   idempotency keys and answers 400) is resolved by reading the intent: when it already stands
//!   where the step wanted it, the step is done; a retried refund, by finding it among the
//!   intent's refunds by its metadata;
//! - the ledger books a source once ("capture:<booking>", "refund:<refund>").
//!
//! Provider unavailable: the booking (or refund) is due again after 5 s × 2^attempts, at most
//! 10 minutes; bookings, reads and approvals never wait for it.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use platform::clock::SharedClock;
use sqlx::PgPool;
use tokio::sync::Notify;

use super::{
    Payments,
    provider::{Intent, IntentStatus, NewIntent, ProviderError},
    settle::{FAILED_GRACE, HOLD_AHEAD},
};
use crate::{
    error::Error,
    store::{BookingRow, booking_columns},
};

mod apply;

use apply::Outcome;

/// How long a claim keeps other workers off a booking (or a refund).
pub const LEASE: Duration = Duration::seconds(60);

/// Bookings (or refunds) claimed at a time.
const BATCH: i64 = 20;

/// Claims per run at most: a run ends even if work keeps falling due at once.
const ROUNDS: usize = 20;

/// The step a booking's payment wants next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing now (see [`wanted_at`] for when).
    Nothing,
    /// Hold the price: create the intent (unless the row has one), then confirm it.
    Hold,
    /// Capture `amount` of the held intent and release the rest.
    Capture { intent: String, amount: i64 },
    /// Let the hold go (no call when nothing is held or created).
    Release { intent: Option<String> },
    /// The hold is still declined near the start: cancel the booking, charge nothing.
    CancelBooking,
}

/// Whether a declined hold is to be tried again: the client gave a new card.
fn retrying(row: &BookingRow) -> bool {
    row.payment_status == "failed" && row.payment_error.is_none()
}

/// The step `row`'s payment wants, whenever it is due.
pub fn step_of(row: &BookingRow) -> Step {
    let held = row.payment_status == "authorized";
    match (row.payment_status.as_str(), row.charge_cents) {
        ("authorized", None) => Step::Nothing,
        ("authorized", Some(0)) => Step::Release {
            intent: row.payment_intent_id.clone(),
        },
        ("authorized", Some(charge)) => match &row.payment_intent_id {
            Some(intent) => Step::Capture {
                intent: intent.clone(),
                amount: charge.min(row.price_cents),
            },
            None => Step::Nothing,
        },
        ("pending", Some(0)) | ("failed", Some(0)) => Step::Release {
            intent: row.payment_intent_id.clone().filter(|_| held),
        },
        ("pending", _) => Step::Hold,
        ("failed", _) if retrying(row) => Step::Hold,
        ("failed", None) => Step::CancelBooking,
        _ => Step::Nothing,
    }
}

/// When the worker acts on `row` next (None: never, unless something changes it): an outcome at
/// once; a hold [`HOLD_AHEAD`] of the start (at once when nearer); a declined hold when the client
/// gives a new card, else [`FAILED_GRACE`] before the start, to cancel the booking.
pub fn wanted_at(row: &BookingRow, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    match step_of(row) {
        Step::Nothing => None,
        Step::Hold if row.charge_cents.is_none() => Some(now.max(row.starts_at - HOLD_AHEAD)),
        Step::CancelBooking => Some(now.max(row.starts_at - FAILED_GRACE)),
        _ => Some(now),
    }
}

/// Runs every payment step due now, then every refund due; returns how many steps were applied.
pub async fn run_due(p: &Payments) -> anyhow::Result<usize> {
    let mut applied = 0;
    for _ in 0..ROUNDS {
        let now = p.clock.now();
        let rows = claim(&p.db, now).await?;
        for row in &rows {
            match run_step(p, row, now).await {
                Ok(true) => applied += 1,
                Ok(false) => {}
                Err(error) => {
                    tracing::warn!(booking_id = %row.booking_id, %error, "a payment step failed; retried when its lease lapses")
                }
            }
        }
        if rows.len() < BATCH as usize {
            break;
        }
    }
    for _ in 0..ROUNDS {
        let now = p.clock.now();
        let refunds = apply::claim_refunds(&p.db, now, BATCH).await?;
        for refund in &refunds {
            match run_refund(p, refund, now).await {
                Ok(true) => applied += 1,
                Ok(false) => {}
                Err(error) => {
                    tracing::warn!(refund_id = %refund.refund_id, %error, "a refund failed; retried when its lease lapses")
                }
            }
        }
        if refunds.len() < BATCH as usize {
            break;
        }
    }
    if applied > 0 {
        p.relay.notify_one();
    }
    Ok(applied)
}

/// Runs this replica's worker whenever a commit wakes it, until `shutdown`.
pub async fn wake_ups(p: Payments, shutdown: impl Future<Output = ()>) {
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => return,
            () = p.wake.notified() => {
                if let Err(error) = run_due(&p).await {
                    tracing::warn!(error = format!("{error:#}"), "the payment worker failed; retrying next tick");
                }
            }
        }
    }
}

/// Claims (leases and commits) up to [`BATCH`] bookings whose payment step is due at `now`.
async fn claim(db: &PgPool, now: DateTime<Utc>) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "update booking.booking b set payment_lease_until = $2
         from (select booking_id as due_id from booking.booking
               where payment_due_at <= $1
                 and (payment_lease_until is null or payment_lease_until <= $1)
               order by payment_due_at
               limit $3
               for update skip locked) due
         where b.booking_id = due.due_id
         returning ",
        booking_columns!()
    ))
    .bind(now)
    .bind(now + LEASE)
    .bind(BATCH)
    .fetch_all(db)
    .await?)
}

/// What a provider call came to.
enum Called<T> {
    Done(T),
    /// Try again later (the provider is unavailable, or answered something to try again).
    Later(String),
}

/// Runs the step `row` (claimed) wants and applies its outcome; true when one was applied.
async fn run_step(p: &Payments, row: &BookingRow, now: DateTime<Utc>) -> Result<bool, Error> {
    let step = if wanted_at(row, now).is_some_and(|at| at <= now) {
        step_of(row)
    } else {
        Step::Nothing
    };
    let outcome = match step {
        Step::Nothing => Outcome::Nothing,
        Step::CancelBooking => Outcome::CancelBooking,
        Step::Release { intent: None } => Outcome::Released { intent: None },
        Step::Release { intent: Some(intent) } => match release(p, row, &intent).await {
            Called::Done(outcome) => outcome,
            Called::Later(why) => return backoff(p, row, &why, now).await,
        },
        Step::Capture { intent, amount } => match capture(p, row, &intent, amount).await {
            Called::Done(outcome) => outcome,
            Called::Later(why) => return backoff(p, row, &why, now).await,
        },
        Step::Hold => match hold(p, row, now).await? {
            Called::Done(outcome) => outcome,
            Called::Later(why) => return backoff(p, row, &why, now).await,
        },
    };
    let applied = apply::outcome(p, row, outcome, now).await?;
    Ok(applied)
}

/// Tries a step again later: the provider could not be reached or answered something to retry.
async fn backoff(p: &Payments, row: &BookingRow, why: &str, now: DateTime<Utc>) -> Result<bool, Error> {
    tracing::warn!(booking_id = %row.booking_id, attempts = row.payment_attempts + 1, why, "payment step postponed");
    apply::postpone(&p.db, row.booking_id, row.payment_attempts, why, now).await?;
    Ok(false)
}

/// How long after `attempts` failed tries the next one comes: 5 s × 2^attempts, at most 10 min.
pub fn backoff_after(attempts: i32) -> Duration {
    let exponent = attempts.clamp(0, 10) as u32;
    Duration::seconds(5 * 2_i64.pow(exponent)).min(Duration::minutes(10))
}

fn idempotency(row: &BookingRow, what: &str) -> String {
    format!("booking:{}:{what}", row.booking_id)
}

/// A failed call whose effect may already have happened: what the intent says now.
async fn read_back(p: &Payments, intent: &str, error: ProviderError) -> Result<Intent, String> {
    if let ProviderError::Unavailable(why) = error {
        return Err(why);
    }
    match p.provider.retrieve_intent(intent).await {
        Ok(found) => Ok(found),
        Err(read) => Err(format!("{error}; reading the intent back: {read}")),
    }
}

/// Holds the price: the intent (created unconfirmed, its id committed) confirmed.
async fn hold(p: &Payments, row: &BookingRow, now: DateTime<Utc>) -> Result<Called<Outcome>, Error> {
    let intent = match &row.payment_intent_id {
        Some(intent) => intent.clone(),
        None => {
            let Some(card) = row.payment_method_id.as_deref() else {
                return Ok(Called::Done(Outcome::Declined {
                    intent: None,
                    reason: "there is no card to hold the price on".into(),
                }));
            };
            let Some(customer) = apply::customer_of(&p.db, row.client_id).await? else {
                return Ok(Called::Done(Outcome::Declined {
                    intent: None,
                    reason: "there is no card on file to hold the price on".into(),
                }));
            };
            let booking_id = row.booking_id.to_string();
            let metadata = [("booking_id", booking_id.as_str())];
            let new = NewIntent {
                amount: row.price_cents,
                currency: &row.currency,
                customer_id: &customer,
                payment_method_id: card,
                metadata: &metadata,
            };
            let key = idempotency(row, &format!("hold:{}:create", row.payment_generation));
            let created = match p.provider.create_intent(&new, &key).await {
                Ok(created) => created,
                Err(ProviderError::Unavailable(why)) => return Ok(Called::Later(why)),
                Err(ProviderError::Declined(reason)) => {
                    return Ok(Called::Done(Outcome::Declined { intent: None, reason }));
                }
                Err(other) => return Ok(Called::Later(other.to_string())),
            };
            if !apply::intent_created(&p.db, row, &created.id, now).await? {
                // The booking moved on meanwhile: the unconfirmed intent holds nothing, and is let
                // go so that nothing at the provider looks open (best effort).
                let key = idempotency(row, &format!("hold:{}:stray", row.payment_generation));
                if let Err(error) = p.provider.cancel_intent(&created.id, &key).await {
                    tracing::info!(intent = created.id, %error, "a stray unconfirmed intent stays");
                }
                return Ok(Called::Done(Outcome::Nothing));
            }
            created.id
        }
    };
    let key = idempotency(row, &format!("hold:{}:confirm", row.payment_generation));
    let confirmed = match p.provider.confirm_intent(&intent, &key).await {
        Ok(confirmed) => confirmed,
        Err(ProviderError::Declined(reason)) => {
            return Ok(Called::Done(Outcome::Declined {
                intent: Some(intent),
                reason,
            }));
        }
        Err(error) => match read_back(p, &intent, error).await {
            Ok(found) => found,
            Err(why) => return Ok(Called::Later(why)),
        },
    };
    Ok(match confirmed.status {
        IntentStatus::RequiresCapture | IntentStatus::Succeeded => {
            Called::Done(Outcome::Authorized { intent })
        }
        IntentStatus::RequiresPaymentMethod | IntentStatus::RequiresAction | IntentStatus::Canceled => {
            Called::Done(Outcome::Declined {
                intent: Some(intent),
                reason: confirmed
                    .last_error
                    .unwrap_or_else(|| "the card was declined".into()),
            })
        }
        IntentStatus::RequiresConfirmation | IntentStatus::Processing => {
            Called::Later(format!("the hold is {:?} at the provider", confirmed.status))
        }
    })
}

/// Captures `amount` of the hold.
async fn capture(p: &Payments, row: &BookingRow, intent: &str, amount: i64) -> Called<Outcome> {
    let result = p
        .provider
        .capture_intent(intent, amount, &idempotency(row, "capture"))
        .await;
    let found = match result {
        Ok(found) => found,
        Err(error) => match read_back(p, intent, error).await {
            Ok(found) => found,
            Err(why) => return Called::Later(why),
        },
    };
    match found.status {
        IntentStatus::Succeeded => Called::Done(Outcome::Captured {
            amount: if found.amount_received > 0 {
                found.amount_received
            } else {
                amount
            },
        }),
        IntentStatus::Canceled => Called::Done(Outcome::Released {
            intent: Some(intent.to_owned()),
        }),
        other => Called::Later(format!("the capture left the intent {other:?}")),
    }
}

/// Lets the hold go.
async fn release(p: &Payments, row: &BookingRow, intent: &str) -> Called<Outcome> {
    let result = p
        .provider
        .cancel_intent(intent, &idempotency(row, "release"))
        .await;
    let found = match result {
        Ok(found) => found,
        Err(error) => match read_back(p, intent, error).await {
            Ok(found) => found,
            Err(why) => return Called::Later(why),
        },
    };
    match found.status {
        IntentStatus::Canceled => Called::Done(Outcome::Released {
            intent: Some(intent.to_owned()),
        }),
        // Captured meanwhile (by whom? the books follow the provider): recorded as captured.
        IntentStatus::Succeeded => Called::Done(Outcome::Captured {
            amount: found.amount_received,
        }),
        other => Called::Later(format!("the release left the intent {other:?}")),
    }
}

/// Sends one claimed refund to the provider and books it; true when it was booked.
async fn run_refund(p: &Payments, refund: &apply::RefundRow, now: DateTime<Utc>) -> Result<bool, Error> {
    let Some(intent) = refund.payment_intent_id.as_deref() else {
        apply::postpone_refund(&p.db, refund, "the booking has no captured payment", now).await?;
        return Ok(false);
    };
    let id = refund.refund_id.to_string();
    let booking = refund.booking_id.to_string();
    let metadata = [("refund_id", id.as_str()), ("booking_id", booking.as_str())];
    let key = format!("refund:{id}");
    let provider_id = match p
        .provider
        .create_refund(intent, refund.amount_cents, &metadata, &key)
        .await
    {
        Ok(made) => made.id,
        Err(ProviderError::Unavailable(why)) => {
            apply::postpone_refund(&p.db, refund, &why, now).await?;
            return Ok(false);
        }
        Err(error) => match p.provider.list_refunds(intent).await {
            Ok(made) => match made
                .into_iter()
                .find(|r| r.metadata.get("refund_id") == Some(&id))
            {
                Some(found) => found.id,
                None => {
                    apply::postpone_refund(&p.db, refund, &error.to_string(), now).await?;
                    return Ok(false);
                }
            },
            Err(listing) => {
                let why = format!("{error}; listing the refunds: {listing}");
                apply::postpone_refund(&p.db, refund, &why, now).await?;
                return Ok(false);
            }
        },
    };
    apply::refunded(p, refund, &provider_id, now).await
}

/// A worker of its own over `db`, as another replica runs (for tests of replicas racing, and of
/// a provider that stops): the provider at `api_base` with `secret_key`, "now" from `clock`.
pub struct PaymentWorker(Payments);

impl PaymentWorker {
    pub fn new(
        db: PgPool,
        api_base: &str,
        secret_key: &str,
        clock: SharedClock,
        fee_bps: i64,
    ) -> anyhow::Result<Self> {
        Ok(Self(Payments {
            db,
            provider: Arc::new(super::stripe::Stripe::new(api_base, secret_key)?),
            clock,
            fee_bps,
            webhook_secret: String::new(),
            relay: Arc::new(Notify::new()),
            wake: Arc::new(Notify::new()),
        }))
    }

    /// [`run_due`] once.
    pub async fn run_due(&self) -> anyhow::Result<usize> {
        run_due(&self.0).await
    }
}

#[cfg(test)]
mod tests;
