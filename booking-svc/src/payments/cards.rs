//! A client's customer at the provider and their saved cards. (issue 33: helper "provider" is
//! writing this; the signatures are what grpc/payments.rs calls.)

use proto::booking::v1 as pb;

use super::Payments;
use crate::{domain::ClientId, error::Error};

fn not_yet() -> Error {
    Error::Unavailable("cards are not ready yet".into())
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
