//! What the services that own a PostgreSQL schema share about it (feature `database`).

use std::time::Duration;

use sqlx::{
    Connection,
    postgres::{PgPool, PgPoolOptions},
};

/// A connection idle in the pool for longer than this is pinged before it is handed out; one
/// used more recently is trusted.
///
/// sqlx already pings every connection as it goes back to the pool, so a connection in the pool
/// was alive a moment ago. Its default, pinging again on the way out as well, made each statement
/// three round trips to PostgreSQL instead of two. A connection that broke since (PostgreSQL
/// restarted) fails its one statement with an I/O error, answered 503 "try again", and is closed
/// by that release ping.
const TRUSTED_IDLE: Duration = Duration::from_secs(1);

/// Connects a service's pool: at most `max_connections`, waiting at most `acquire_timeout` for
/// one, pinging only connections that sat idle for longer than [`TRUSTED_IDLE`].
pub async fn connect(
    url: &str,
    max_connections: u32,
    acquire_timeout: Duration,
) -> Result<PgPool, sqlx::Error> {
    PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(acquire_timeout)
        .test_before_acquire(false)
        .before_acquire(|connection, meta| {
            Box::pin(async move {
                if meta.idle_for > TRUSTED_IDLE {
                    connection.ping().await?;
                }
                Ok(true)
            })
        })
        .connect(url)
        .await
}

/// Whether a database error means PostgreSQL is out of reach for now rather than that the
/// request or the code is wrong: the pool waited in vain, a connection broke, or the server is
/// shutting down, starting up or out of connections (SQLSTATE class 08, 57P01-57P03, 53300). The
/// caller is then told to try again (503), not that something broke (500).
pub fn unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => true,
        sqlx::Error::Database(e) => e.code().is_some_and(|code| is_unavailable_code(&code)),
        _ => false,
    }
}

/// A database error as the gRPC status a service answers: "try again" (503) while PostgreSQL is
/// out of reach ([`unavailable`]), naming `database` ("the booking database is unavailable"),
/// else an internal error. Logged either way.
pub fn status(error: &sqlx::Error, database: &str) -> tonic::Status {
    if unavailable(error) {
        tracing::error!(%error, "database unavailable");
        tonic::Status::unavailable(format!(
            "the {database} database is unavailable; please try again"
        ))
    } else {
        crate::status::internal(error)
    }
}

/// The kinds of constraint a write can break, by the SQLSTATE PostgreSQL refuses it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A unique index or primary key (23505).
    Unique,
    /// A foreign key (23503).
    ForeignKey,
    /// An exclusion constraint (23P01), e.g. overlapping time ranges.
    Exclusion,
}

impl Violation {
    fn sqlstate(self) -> &'static str {
        match self {
            Self::Unique => "23505",
            Self::ForeignKey => "23503",
            Self::Exclusion => "23P01",
        }
    }
}

/// Whether `error` is PostgreSQL refusing a write because it breaks the constraint named
/// `constraint`, of kind `kind`: the one way a service tells a conflict its schema decides
/// (a taken e-mail, a double booking) from a fault.
pub fn violated(error: &sqlx::Error, kind: Violation, constraint: &str) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.code().as_deref() == Some(kind.sqlstate()) && e.constraint() == Some(constraint))
}

/// Whether PostgreSQL answers a trivial statement: a service's readiness.
pub async fn answers(db: &PgPool) -> Result<(), String> {
    sqlx::query("select 1")
        .execute(db)
        .await
        .map(|_| ())
        .map_err(|e| format!("database: {e}"))
}

/// [`answers`] as the ops port's `/readyz` check.
#[cfg(feature = "ops")]
pub fn ready_check(db: PgPool) -> crate::ops::ReadyCheck {
    use futures::FutureExt;
    std::sync::Arc::new(move || {
        let db = db.clone();
        async move { answers(&db).await }.boxed()
    })
}

fn is_unavailable_code(sqlstate: &str) -> bool {
    sqlstate.starts_with("08") || matches!(sqlstate, "57P01" | "57P02" | "57P03" | "53300")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreachable_database_is_unavailable_and_a_wrong_statement_is_not() {
        assert!(unavailable(&sqlx::Error::PoolTimedOut));
        assert!(unavailable(&sqlx::Error::Io(
            std::io::ErrorKind::ConnectionReset.into()
        )));
        assert!(!unavailable(&sqlx::Error::RowNotFound));
        for code in ["08006", "08001", "57P01", "57P03", "53300"] {
            assert!(is_unavailable_code(code), "{code}");
        }
        for code in ["23505", "42P01", "40P01", "57014"] {
            assert!(!is_unavailable_code(code), "{code}");
        }
    }
}
