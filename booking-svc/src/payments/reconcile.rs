//! The reconciliation: compares open and recent payments with the provider and records what
//! differs (booking.payment_discrepancy, once per booking and difference) with a warning in the
//! log. It changes no payment: a difference is for a person to look at (the payment worker and
//! the webhook already bring what they can in line).
//!
//! Compared: bookings with an intent whose hold is authorized, and those whose payment changed in
//! the last [`RECENT`] (`updated_at`), [`BATCH`] at a time:
//! - authorized ⇔ the intent `requires_capture`, for the booking's price;
//! - paid, partially_paid ⇔ `succeeded`, having received `amount_paid_cents`;
//! - refunded, partially_refunded ⇔ the same, and the intent's refunds made by Courtside (those
//!   whose metadata names a `refund_id`) summing to `amount_refunded_cents`;
//! - released ⇔ `canceled`.
//!
//! Other statuses (a hold being made, a declined one) are in flight and not compared. The
//! provider unavailable ends the run early; the next run compares again.

use chrono::Duration;
use uuid::Uuid;

use super::{
    Payments,
    provider::{Intent, IntentStatus, ProviderError},
};

/// How far back a settled payment is still compared.
pub const RECENT: Duration = Duration::days(7);

/// Bookings read (and intents retrieved) at a time.
const BATCH: i64 = 100;

#[derive(Debug, sqlx::FromRow)]
struct Compared {
    booking_id: Uuid,
    payment_status: String,
    payment_intent_id: String,
    price_cents: i64,
    amount_paid_cents: i64,
    amount_refunded_cents: i64,
}

/// Compares open and recent payments with the provider; answers how many differ.
pub async fn run(p: &Payments) -> anyhow::Result<usize> {
    let now = p.clock.now();
    let mut after = Uuid::nil();
    let mut differences = 0;
    loop {
        let batch: Vec<Compared> = sqlx::query_as(
            "select booking_id, payment_status, payment_intent_id, price_cents, amount_paid_cents, \
                    amount_refunded_cents \
             from booking.booking \
             where payment_intent_id is not null and booking_id > $1 \
               and (payment_status = 'authorized' or updated_at > $2) \
               and payment_status in ('authorized', 'paid', 'partially_paid', 'refunded', \
                                      'partially_refunded', 'released') \
             order by booking_id limit $3",
        )
        .bind(after)
        .bind(now - RECENT)
        .bind(BATCH)
        .fetch_all(&p.db)
        .await?;
        for booking in &batch {
            let theirs = match p.provider.retrieve_intent(&booking.payment_intent_id).await {
                Ok(intent) => intent,
                Err(ProviderError::NotFound(_)) => {
                    let theirs = format!("no intent {}", booking.payment_intent_id);
                    differences += 1;
                    record(p, booking, &ours(booking), &theirs).await?;
                    continue;
                }
                Err(ProviderError::Unavailable(why)) => {
                    tracing::warn!(%why, "payment reconciliation stopped early: the provider is unavailable");
                    return Ok(differences);
                }
                Err(other) => anyhow::bail!("retrieving {}: {other}", booking.payment_intent_id),
            };
            let refunded = if booking.payment_status.ends_with("refunded") {
                match p.provider.list_refunds(&booking.payment_intent_id).await {
                    Ok(refunds) => Some(
                        refunds
                            .iter()
                            .filter(|r| r.metadata.contains_key("refund_id"))
                            .map(|r| r.amount)
                            .sum::<i64>(),
                    ),
                    Err(ProviderError::Unavailable(why)) => {
                        tracing::warn!(%why, "payment reconciliation stopped early: the provider is unavailable");
                        return Ok(differences);
                    }
                    Err(other) => {
                        anyhow::bail!("listing the refunds of {}: {other}", booking.payment_intent_id)
                    }
                }
            } else {
                None
            };
            if let Some(theirs) = difference(booking, &theirs, refunded) {
                differences += 1;
                record(p, booking, &ours(booking), &theirs).await?;
            }
        }
        match batch.last() {
            Some(last) if batch.len() == BATCH as usize => after = last.booking_id,
            _ => return Ok(differences),
        }
    }
}

/// What the books say of `booking`'s payment.
fn ours(booking: &Compared) -> String {
    format!(
        "{} (price {}, paid {}, refunded {}) on {}",
        booking.payment_status,
        booking.price_cents,
        booking.amount_paid_cents,
        booking.amount_refunded_cents,
        booking.payment_intent_id
    )
}

/// What the provider says, when it differs from the books (`refunded`: the sum of Courtside's
/// refunds at the provider, for a refunded booking).
fn difference(booking: &Compared, intent: &Intent, refunded: Option<i64>) -> Option<String> {
    let theirs = || {
        let mut said = format!(
            "{:?} (amount {}, received {})",
            intent.status, intent.amount, intent.amount_received
        );
        if let Some(refunded) = refunded {
            said.push_str(&format!(", refunded {refunded}"));
        }
        said
    };
    let agrees = match booking.payment_status.as_str() {
        "authorized" => {
            intent.status == IntentStatus::RequiresCapture && intent.amount == booking.price_cents
        }
        "paid" | "partially_paid" => {
            intent.status == IntentStatus::Succeeded && intent.amount_received == booking.amount_paid_cents
        }
        "refunded" | "partially_refunded" => {
            intent.status == IntentStatus::Succeeded
                && intent.amount_received == booking.amount_paid_cents
                && refunded == Some(booking.amount_refunded_cents)
        }
        "released" => intent.status == IntentStatus::Canceled,
        _ => true,
    };
    (!agrees).then(theirs)
}

/// Records a difference once (and warns the first time it is found).
async fn record(p: &Payments, booking: &Compared, ours: &str, theirs: &str) -> anyhow::Result<()> {
    let new = sqlx::query(
        "insert into booking.payment_discrepancy (discrepancy_id, booking_id, found_at, ours, theirs) \
         values ($1, $2, $3, $4, $5) on conflict (booking_id, ours, theirs) do nothing",
    )
    .bind(Uuid::new_v4())
    .bind(booking.booking_id)
    .bind(p.clock.now())
    .bind(ours)
    .bind(theirs)
    .execute(&p.db)
    .await?
    .rows_affected()
        == 1;
    if new {
        tracing::warn!(booking_id = %booking.booking_id, ours, theirs, "a payment differs from the provider");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn booking(status: &str, price: i64, paid: i64, refunded: i64) -> Compared {
        Compared {
            booking_id: Uuid::nil(),
            payment_status: status.into(),
            payment_intent_id: "pi_1".into(),
            price_cents: price,
            amount_paid_cents: paid,
            amount_refunded_cents: refunded,
        }
    }

    fn intent(status: IntentStatus, amount: i64, received: i64) -> Intent {
        Intent {
            id: "pi_1".into(),
            status,
            amount,
            amount_received: received,
            last_error: None,
            metadata: HashMap::new(),
        }
    }

    #[test]
    fn a_hold_agrees_when_the_price_is_held() {
        let held = booking("authorized", 7500, 0, 0);
        assert_eq!(
            difference(&held, &intent(IntentStatus::RequiresCapture, 7500, 0), None),
            None
        );
        assert!(difference(&held, &intent(IntentStatus::RequiresCapture, 5000, 0), None).is_some());
        let lapsed = difference(&held, &intent(IntentStatus::Canceled, 7500, 0), None).unwrap();
        assert!(lapsed.contains("Canceled"), "{lapsed}");
    }

    #[test]
    fn a_capture_agrees_when_the_amount_received_is_what_was_paid() {
        let fee = booking("partially_paid", 7500, 3750, 0);
        assert_eq!(
            difference(&fee, &intent(IntentStatus::Succeeded, 7500, 3750), None),
            None
        );
        assert!(difference(&fee, &intent(IntentStatus::Succeeded, 7500, 7500), None).is_some());
        assert!(difference(&fee, &intent(IntentStatus::RequiresCapture, 7500, 0), None).is_some());
    }

    #[test]
    fn a_refund_agrees_when_courtsides_refunds_sum_to_what_was_refunded() {
        let refunded = booking("partially_refunded", 7500, 7500, 1000);
        let captured = intent(IntentStatus::Succeeded, 7500, 7500);
        assert_eq!(difference(&refunded, &captured, Some(1000)), None);
        assert!(difference(&refunded, &captured, Some(0)).is_some());
    }

    #[test]
    fn a_release_agrees_when_the_intent_is_canceled() {
        let released = booking("released", 7500, 0, 0);
        assert_eq!(
            difference(&released, &intent(IntentStatus::Canceled, 7500, 0), None),
            None
        );
        assert!(difference(&released, &intent(IntentStatus::Succeeded, 7500, 7500), None).is_some());
    }
}
