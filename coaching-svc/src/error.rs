//! The one place a domain or store error becomes a gRPC status.

use tonic::Status;

/// Everything an RPC can fail with. The messages of the first four are for the person.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input.
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    NotFound(String),
    /// The thing already exists.
    #[error("{0}")]
    Conflict(String),
    /// Signed in, but not allowed to do this.
    #[error("{0}")]
    Forbidden(String),
    /// Well-formed, but the moment has passed (a date in the past).
    #[error("{0}")]
    Precondition(String),
    /// Every field valid, but together they do not say enough (a place whose zone nothing tells).
    #[error("{0}")]
    Unprocessable(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<platform::input::Refusal> for Error {
    fn from(refusal: platform::input::Refusal) -> Self {
        match refusal {
            platform::input::Refusal::Invalid(m) => Error::Invalid(m),
            platform::input::Refusal::Passed(m) => Error::Precondition(m),
        }
    }
}

impl From<Error> for Status {
    fn from(error: Error) -> Self {
        match error {
            Error::Invalid(m) => Status::invalid_argument(m),
            Error::NotFound(m) => Status::not_found(m),
            Error::Conflict(m) => Status::already_exists(m),
            Error::Forbidden(m) => Status::permission_denied(m),
            Error::Precondition(m) => Status::failed_precondition(m),
            Error::Unprocessable(m) => Status::out_of_range(m),
            Error::Database(e) => platform::database::status(&e, "coaching"),
            Error::Other(e) => platform::status::internal(e),
        }
    }
}
