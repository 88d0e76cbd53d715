//! The one place a domain, store or upstream error becomes a gRPC status.

use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: the message is for the person.
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    NotFound(String),
    /// The database refused a second active booking (AlreadyExists).
    #[error("{0}")]
    Conflict(String),
    /// A move the booking's current status does not allow (FailedPrecondition; the gateway
    /// answers 409).
    #[error("{0}")]
    Transition(String),
    /// A booking the clock or the coach's policy does not allow now: a session that has started,
    /// one too soon or too far ahead (FailedPrecondition; the gateway answers 409).
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Forbidden(String),
    /// A paid session and no card to hold its price on (FailedPrecondition whose message starts
    /// with "payment_required: "; the gateway answers 402 with the rest as the detail).
    #[error("{0}")]
    PaymentRequired(String),
    /// The client already made a booking with this idempotency key (a retry raced its first
    /// attempt); the caller reads that booking instead.
    #[error("this idempotency key already made a booking")]
    KeyUsed,
    /// A service this one depends on is down or too slow.
    #[error("{0}")]
    Unavailable(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<Error> for Status {
    fn from(error: Error) -> Self {
        match error {
            Error::Invalid(m) => Status::invalid_argument(m),
            Error::NotFound(m) => Status::not_found(m),
            Error::Conflict(m) => Status::already_exists(m),
            Error::Transition(m) | Error::Refused(m) => Status::failed_precondition(m),
            Error::Forbidden(m) => Status::permission_denied(m),
            Error::PaymentRequired(m) => Status::failed_precondition(format!("payment_required: {m}")),
            Error::KeyUsed => Status::already_exists(
                "A booking was already made with this Idempotency-Key. Use a new key for a new booking.",
            ),
            Error::Unavailable(m) => Status::unavailable(m),
            Error::Database(e) => platform::database::status(&e, "booking"),
            Error::Other(e) => platform::status::internal(e),
        }
    }
}
