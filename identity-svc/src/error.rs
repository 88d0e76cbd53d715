//! The one place a domain or store error becomes a gRPC status.

use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: the message is for the person.
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Unauthenticated(String),
    #[error("{0}")]
    Forbidden(String),
    /// Something the answer depends on could not be done just now (the change itself was kept):
    /// the caller should try again.
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
            Error::Unauthenticated(m) => Status::unauthenticated(m),
            Error::Forbidden(m) => Status::permission_denied(m),
            Error::Unavailable(m) => Status::unavailable(m),
            Error::Database(e) => platform::database::status(&e, "identity"),
            Error::Other(e) => platform::status::internal(e),
        }
    }
}
