//! The provider's webhook events: verified, applied once. (issue 33: helper "provider" is writing
//! this; the signature is what grpc/payments.rs calls.)

use super::Payments;
use crate::error::Error;

pub async fn apply(_p: &Payments, _payload: &[u8], _signature: &str) -> Result<(), Error> {
    Err(Error::Unavailable("webhooks are not ready yet".into()))
}
