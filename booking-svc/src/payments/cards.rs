//! A client's customer at the provider and their saved cards. (issue 33: helper "provider" is
//! writing the handlers; [`card_for_booking`] is final.)

use proto::booking::v1 as pb;
use sqlx::PgExecutor;

use super::Payments;
use crate::{domain::ClientId, error::Error};

fn not_yet() -> Error {
    Error::Unavailable("cards are not ready yet".into())
}

/// The card a new booking of `client` is held with, read from the local mirror (booking creation
/// never waits on the provider): `requested` when it is one of theirs (else [`Error::Invalid`]),
/// else their default card, else `None` (the caller answers "payment_required: ...").
#[allow(dead_code)] // until booking creation (helper "settle") calls it
pub async fn card_for_booking(
    db: impl PgExecutor<'_>,
    client: ClientId,
    requested: Option<&str>,
) -> Result<Option<String>, Error> {
    let requested = requested.map(str::trim).filter(|id| !id.is_empty());
    let found: Option<String> = sqlx::query_scalar(
        "select payment_method_id from booking.payment_method \
         where client_id = $1 and (case when $2::text is null then is_default \
                                         else payment_method_id = $2 end)",
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

pub async fn setup(_p: &Payments, _client: ClientId) -> Result<pb::SetupPaymentMethodResponse, Error> {
    Err(not_yet())
}

pub async fn list(_p: &Payments, _client: ClientId) -> Result<Vec<pb::PaymentMethod>, Error> {
    Err(not_yet())
}

pub async fn set_default(
    _p: &Payments,
    _client: ClientId,
    _payment_method_id: &str,
) -> Result<Vec<pb::PaymentMethod>, Error> {
    Err(not_yet())
}

pub async fn remove(_p: &Payments, _client: ClientId, _payment_method_id: &str) -> Result<(), Error> {
    Err(not_yet())
}
