//! A client's customer at the provider and their saved cards.
//!
//! Card numbers never reach Courtside: [`setup`] makes a SetupIntent the browser confirms with
//! Stripe.js, and the provider keeps the card. booking.payment_method mirrors the client's cards
//! as the provider last reported them, with which one is the default (a Courtside notion, kept
//! only here): booking creation reads the mirror ([`card_for_booking`]) and never waits on the
//! provider.
//!
//! [`list`] is how a new card is learnt: the web app lists the cards right after Stripe.js
//! confirmed one. It asks the provider and brings the mirror in line in one transaction (new
//! cards inserted, changed ones updated, gone ones deleted); when the client has no default card
//! then, the newest becomes it. A declined hold is tried again when the client gives Courtside
//! another card: on [`set_default`], and on a [`list`] that made a card the default (their first
//! card, or one found after the default was gone). A card merely added beside an existing default
//! changes nothing until it is made the default: trying the declined hold again with the same
//! default card would only be declined again.

use platform::clock::SharedClock;
use proto::booking::v1 as pb;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::{
    Payments,
    provider::{Card, ProviderError},
};
use crate::{domain::ClientId, error::Error};

/// The card a new booking of `client` is held with, read from the local mirror (booking creation
/// never waits on the provider): `requested` when it is one of theirs (else [`Error::Invalid`]),
/// else their default card, else `None` (the caller answers "payment_required: ...").
///
/// It share-locks the card: called inside a transaction that then writes the booking, [`remove`]
/// (which locks the card for update first) either sees the new booking using it or removes it
/// before. Called with the pool (as booking creation does today), a removal racing the booking
/// can leave it with a removed card: its hold is then declined, and the client asked for another
/// card, as for any declined card; nothing is charged wrongly.
pub async fn card_for_booking(
    db: impl PgExecutor<'_>,
    client: ClientId,
    requested: Option<&str>,
) -> Result<Option<String>, Error> {
    let requested = requested.map(str::trim).filter(|id| !id.is_empty());
    let found: Option<String> = sqlx::query_scalar(
        "select payment_method_id from booking.payment_method \
         where client_id = $1 and (case when $2::text is null then is_default \
                                         else payment_method_id = $2 end) \
         for share",
    )
    .bind(client.0)
    .bind(requested)
    .fetch_optional(db)
    .await?;
    match (requested, found) {
        (Some(_), None) => Err(Error::Invalid(
            "that card is not one of yours: payment_method_id must be one of the cards listed under \
             Payment methods (GET /api/client/payment-methods), or left out to use your default card"
                .into(),
        )),
        (_, found) => Ok(found),
    }
}

/// Starts adding a card: the client's customer (made at the provider on their first card, with
/// the idempotency key `customer:<client_id>`), and a SetupIntent for it.
pub async fn setup(p: &Payments, client: ClientId) -> Result<pb::SetupPaymentMethodResponse, Error> {
    let customer = ensure_customer(p, client).await?;
    let key = format!("setup:{}:{}", client, Uuid::new_v4());
    let setup = match p.provider.create_setup(&customer, &key).await {
        // The customer is gone at the provider (a development store wiped): a new one.
        Err(ProviderError::NotFound(_)) => {
            sqlx::query("delete from booking.payment_customer where client_id = $1 and customer_id = $2")
                .bind(client.0)
                .bind(&customer)
                .execute(&p.db)
                .await?;
            let customer = ensure_customer(p, client).await?;
            p.provider.create_setup(&customer, &key).await
        }
        other => other,
    }
    .map_err(provider_error)?;
    Ok(pb::SetupPaymentMethodResponse {
        setup_intent_id: setup.setup_intent_id,
        client_secret: setup.client_secret,
    })
}

/// The client's customer id at the provider, made there (and kept) on first need.
async fn ensure_customer(p: &Payments, client: ClientId) -> Result<String, Error> {
    if let Some(customer) = customer_of(&p.db, client).await? {
        return Ok(customer);
    }
    let had_one: bool =
        sqlx::query_scalar("select exists (select 1 from booking.payment_method where client_id = $1)")
            .bind(client.0)
            .fetch_one(&p.db)
            .await?;
    // A customer made again (its first was lost at the provider) must not reuse the first key.
    let key = if had_one {
        format!("customer:{client}:{}", Uuid::new_v4())
    } else {
        format!("customer:{client}")
    };
    let made = p
        .provider
        .create_customer(&client.to_string(), &key)
        .await
        .map_err(provider_error)?;
    // Two first setups racing: the first row stays (the other customer is left unused).
    sqlx::query(
        "insert into booking.payment_customer (client_id, customer_id, created_at) values ($1, $2, $3) \
         on conflict (client_id) do nothing",
    )
    .bind(client.0)
    .bind(&made)
    .bind(p.clock.now())
    .execute(&p.db)
    .await?;
    customer_of(&p.db, client)
        .await?
        .ok_or_else(|| Error::Other(anyhow::anyhow!("the customer row vanished")))
}

async fn customer_of(db: impl PgExecutor<'_>, client: ClientId) -> Result<Option<String>, Error> {
    Ok(
        sqlx::query_scalar("select customer_id from booking.payment_customer where client_id = $1")
            .bind(client.0)
            .fetch_optional(db)
            .await?,
    )
}

/// The client's cards as the provider has them (the mirror brought in line), the default first.
/// The provider unavailable: the mirror as it stands (reads never wait on an outage).
pub async fn list(p: &Payments, client: ClientId) -> Result<Vec<pb::PaymentMethod>, Error> {
    let Some(customer) = customer_of(&p.db, client).await? else {
        return mirror(&p.db, client).await;
    };
    let cards = match p.provider.list_cards(&customer).await {
        Ok(cards) => cards,
        Err(ProviderError::Unavailable(why)) => {
            tracing::warn!(%client, %why, "listing a client's cards from the mirror: the provider is unavailable");
            return mirror(&p.db, client).await;
        }
        Err(other) => return Err(provider_error(other)),
    };
    let mut tx = p.db.begin().await?;
    sync(&mut tx, &p.clock, client, &customer, &cards).await?;
    let listed = mirror(&mut *tx, client).await?;
    tx.commit().await?;
    Ok(listed)
}

/// Brings the mirror of `client`'s cards in line with `cards` (the provider's).
async fn sync(
    tx: &mut PgConnection,
    clock: &SharedClock,
    client: ClientId,
    customer: &str,
    cards: &[Card],
) -> Result<(), Error> {
    // One sync of a client at a time (the customer row is the client's lock).
    sqlx::query(
        "select 1 from booking.payment_customer where client_id = $1 and customer_id = $2 for update",
    )
    .bind(client.0)
    .bind(customer)
    .execute(&mut *tx)
    .await?;
    let default_before = default_of(&mut *tx, client).await?;
    let ids: Vec<&str> = cards.iter().map(|c| c.payment_method_id.as_str()).collect();
    sqlx::query("delete from booking.payment_method where client_id = $1 and payment_method_id <> all($2)")
        .bind(client.0)
        .bind(&ids)
        .execute(&mut *tx)
        .await?;
    // created_at is the database's: when Courtside learnt of the card (the order "newest" means).
    for card in cards {
        // A card of another client's (it cannot be: one card, one customer) is left alone.
        sqlx::query(
            "insert into booking.payment_method \
                 (payment_method_id, client_id, brand, last4, exp_month, exp_year) \
             values ($1, $2, $3, $4, $5, $6) \
             on conflict (payment_method_id) do update \
                 set brand = excluded.brand, last4 = excluded.last4, \
                     exp_month = excluded.exp_month, exp_year = excluded.exp_year \
                 where payment_method.client_id = excluded.client_id",
        )
        .bind(&card.payment_method_id)
        .bind(client.0)
        .bind(&card.brand)
        .bind(&card.last4)
        .bind(card.exp_month)
        .bind(card.exp_year)
        .execute(&mut *tx)
        .await?;
    }
    if default_of(&mut *tx, client).await?.is_none()
        && let Some(newest) = newest_card(&mut *tx, client, None).await?
    {
        make_default(&mut *tx, client, &newest).await?;
        if default_before.as_deref() != Some(newest.as_str()) {
            retry_declined(&mut *tx, client, &newest, clock.now()).await?;
        }
    }
    Ok(())
}

/// Makes one of the client's cards their default; NotFound when it is not theirs. Their open
/// bookings whose hold was declined are tried again with it. Answers their cards.
pub async fn set_default(
    p: &Payments,
    client: ClientId,
    payment_method_id: &str,
) -> Result<Vec<pb::PaymentMethod>, Error> {
    let mut tx = p.db.begin().await?;
    lock_card(&mut tx, client, payment_method_id).await?;
    make_default(&mut tx, client, payment_method_id).await?;
    retry_declined(&mut tx, client, payment_method_id, p.clock.now()).await?;
    let listed = mirror(&mut *tx, client).await?;
    tx.commit().await?;
    Ok(listed)
}

/// Removes one of the client's cards (NotFound when it is not theirs): refused
/// ([`Error::Refused`], 409) while a booking's open payment uses it; detached at the provider;
/// when it was the default, their newest other card becomes it.
///
/// The card stays locked from the check to the commit, across the provider's detach (one short
/// call, for a rare action): a booking made meanwhile waits for it ([`card_for_booking`]), and a
/// detach the provider refuses leaves the card as it was.
pub async fn remove(p: &Payments, client: ClientId, payment_method_id: &str) -> Result<(), Error> {
    let mut tx = p.db.begin().await?;
    let was_default = lock_card(&mut tx, client, payment_method_id).await?;
    let holding: Option<uuid::Uuid> = sqlx::query_scalar(
        "select booking_id from booking.booking \
         where client_id = $1 and payment_method_id = $2 \
           and payment_status in ('pending', 'authorized', 'failed') \
           and (charge_cents is null or payment_due_at is not null) \
         order by starts_at limit 1",
    )
    .bind(client.0)
    .bind(payment_method_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(booking) = holding {
        return Err(Error::Refused(format!(
            "this card pays for booking {booking}, which is not charged or released yet: it can be \
             removed once that session is settled (or cancelled)"
        )));
    }
    sqlx::query("delete from booking.payment_method where payment_method_id = $1")
        .bind(payment_method_id)
        .execute(&mut *tx)
        .await?;
    if was_default && let Some(newest) = newest_card(&mut *tx, client, Some(payment_method_id)).await? {
        make_default(&mut tx, client, &newest).await?;
    }
    let key = format!("detach:{payment_method_id}");
    match p.provider.detach_card(payment_method_id, &key).await {
        Ok(()) | Err(ProviderError::NotFound(_)) => {}
        Err(ProviderError::Refused(why)) => {
            // Stripe refuses to detach a card no longer attached: gone is what was wanted.
            let customer = customer_of(&mut *tx, client).await?.unwrap_or_default();
            let still = p.provider.list_cards(&customer).await.map_err(provider_error)?;
            if still.iter().any(|c| c.payment_method_id == payment_method_id) {
                return Err(provider_error(ProviderError::Refused(why)));
            }
        }
        Err(other) => return Err(provider_error(other)),
    }
    tx.commit().await?;
    Ok(())
}

/// Locks the client's card `payment_method_id` for update; NotFound when it is not theirs.
/// Answers whether it is their default.
async fn lock_card(tx: &mut PgConnection, client: ClientId, payment_method_id: &str) -> Result<bool, Error> {
    sqlx::query_scalar(
        "select is_default from booking.payment_method \
         where client_id = $1 and payment_method_id = $2 for update",
    )
    .bind(client.0)
    .bind(payment_method_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| {
        Error::NotFound(format!(
            "no card {payment_method_id:?} among yours (GET /api/client/payment-methods lists them)"
        ))
    })
}

async fn default_of(db: impl PgExecutor<'_>, client: ClientId) -> Result<Option<String>, Error> {
    Ok(sqlx::query_scalar(
        "select payment_method_id from booking.payment_method where client_id = $1 and is_default",
    )
    .bind(client.0)
    .fetch_optional(db)
    .await?)
}

/// The client's most recently added card, but `except`.
async fn newest_card(
    db: impl PgExecutor<'_>,
    client: ClientId,
    except: Option<&str>,
) -> Result<Option<String>, Error> {
    Ok(sqlx::query_scalar(
        "select payment_method_id from booking.payment_method \
         where client_id = $1 and payment_method_id is distinct from $2 \
         order by created_at desc, payment_method_id desc limit 1",
    )
    .bind(client.0)
    .bind(except)
    .fetch_optional(db)
    .await?)
}

async fn make_default(tx: &mut PgConnection, client: ClientId, payment_method_id: &str) -> Result<(), Error> {
    // The old default first: at most one default per client (payment_method_one_default).
    sqlx::query(
        "update booking.payment_method set is_default = false \
         where client_id = $1 and is_default and payment_method_id <> $2",
    )
    .bind(client.0)
    .bind(payment_method_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "update booking.payment_method set is_default = true where client_id = $1 and payment_method_id = $2",
    )
    .bind(client.0)
    .bind(payment_method_id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The client's open bookings whose hold was declined are tried again with `card`: a new
/// generation (a new intent, new idempotency keys), due now, the error cleared (the payment
/// worker then holds them again).
async fn retry_declined(
    tx: &mut PgConnection,
    client: ClientId,
    card: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "update booking.booking \
         set payment_generation = payment_generation + 1, payment_method_id = $2, \
             payment_due_at = $3, payment_error = null \
         where client_id = $1 and payment_status = 'failed' \
           and status in ('pending', 'confirmed') and charge_cents is null",
    )
    .bind(client.0)
    .bind(card)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected())
}

/// The client's cards as the mirror has them, the default first, then the newest.
async fn mirror(db: impl PgExecutor<'_>, client: ClientId) -> Result<Vec<pb::PaymentMethod>, Error> {
    let rows: Vec<(String, String, String, i32, i32, bool)> = sqlx::query_as(
        "select payment_method_id, brand, last4, exp_month, exp_year, is_default \
         from booking.payment_method where client_id = $1 \
         order by is_default desc, created_at desc, payment_method_id desc",
    )
    .bind(client.0)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(payment_method_id, brand, last4, exp_month, exp_year, is_default)| pb::PaymentMethod {
                payment_method_id,
                brand,
                last4,
                exp_month,
                exp_year,
                is_default,
            },
        )
        .collect())
}

/// A provider error as the client hears it.
fn provider_error(error: ProviderError) -> Error {
    match error {
        ProviderError::Unavailable(why) => Error::Unavailable(format!(
            "the payment provider is unavailable ({why}): try again in a moment"
        )),
        ProviderError::Declined(message) => Error::Invalid(message),
        ProviderError::NotFound(message) => Error::NotFound(message),
        ProviderError::Refused(message) => {
            Error::Other(anyhow::anyhow!("the payment provider refused: {message}"))
        }
    }
}
