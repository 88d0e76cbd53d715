//! What the services that own a PostgreSQL schema share about it (feature `database`).

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
