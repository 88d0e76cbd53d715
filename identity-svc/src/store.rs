//! identity's queries: one function per statement, schema-qualified, taking any executor.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, postgres::PgDatabaseError};
use uuid::Uuid;

use crate::error::Error;

/// A user row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct UserRow {
    pub user_id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub full_name: String,
    pub phone: Option<String>,
    pub role: String,
    pub token_version: i64,
    pub created_at: DateTime<Utc>,
}

/// What a new user row holds.
pub struct NewUser<'a> {
    pub email: &'a str,
    pub password_hash: &'a str,
    pub full_name: &'a str,
    pub phone: Option<&'a str>,
    pub role: &'a str,
}

/// The columns of [`UserRow`], as a literal so statements stay `&'static str` (sqlx refuses
/// dynamically built SQL).
macro_rules! user_columns {
    () => {
        "user_id, email, password_hash, full_name, phone, role, token_version, created_at"
    };
}

/// A unique violation of `constraint`, if that is what `error` is.
pub fn is_unique_violation(error: &sqlx::Error, constraint: &str) -> bool {
    error
        .as_database_error()
        .and_then(|e| e.try_downcast_ref::<PgDatabaseError>())
        .is_some_and(|e| e.code() == "23505" && e.constraint() == Some(constraint))
}

pub async fn insert_user(db: impl PgExecutor<'_>, user: NewUser<'_>) -> Result<UserRow, Error> {
    sqlx::query_as::<_, UserRow>(concat!(
        "insert into identity.app_user (user_id, email, password_hash, full_name, phone, role)
         values ($1, $2, $3, $4, $5, $6) returning ",
        user_columns!()
    ))
    .bind(Uuid::new_v4())
    .bind(user.email)
    .bind(user.password_hash)
    .bind(user.full_name)
    .bind(user.phone)
    .bind(user.role)
    .fetch_one(db)
    .await
    .map_err(|e| {
        if is_unique_violation(&e, "app_user_email_key") {
            Error::Conflict("an account with this email already exists".into())
        } else {
            e.into()
        }
    })
}

pub async fn user_by_email(db: impl PgExecutor<'_>, email: &str) -> Result<Option<UserRow>, Error> {
    Ok(sqlx::query_as::<_, UserRow>(concat!(
        "select ",
        user_columns!(),
        " from identity.app_user where lower(email) = lower($1)"
    ))
    .bind(email)
    .fetch_optional(db)
    .await?)
}

pub async fn user_by_id(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Option<UserRow>, Error> {
    Ok(sqlx::query_as::<_, UserRow>(concat!(
        "select ",
        user_columns!(),
        " from identity.app_user where user_id = $1"
    ))
    .bind(user_id)
    .fetch_optional(db)
    .await?)
}

/// Names and roles of the users among `ids` that exist, in one statement.
pub async fn user_summaries(
    db: impl PgExecutor<'_>,
    ids: &[Uuid],
) -> Result<Vec<(Uuid, String, String)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, String, String)>(
        "select user_id, full_name, role from identity.app_user where user_id = any($1)",
    )
    .bind(ids)
    .fetch_all(db)
    .await?)
}

pub async fn admin_exists(db: impl PgExecutor<'_>) -> Result<bool, Error> {
    Ok(
        sqlx::query_scalar::<_, bool>("select exists(select 1 from identity.app_user where role = 'admin')")
            .fetch_one(db)
            .await?,
    )
}

/// The user's token version (None when the user is gone) and whether `jti` was revoked.
pub async fn token_state(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    jti: Uuid,
) -> Result<(Option<i64>, bool), Error> {
    Ok(sqlx::query_as::<_, (Option<i64>, bool)>(
        "select (select token_version from identity.app_user where user_id = $1),
                exists(select 1 from identity.revoked_token where jti = $2)",
    )
    .bind(user_id)
    .bind(jti)
    .fetch_one(db)
    .await?)
}

pub async fn revoke_token(
    db: impl PgExecutor<'_>,
    jti: Uuid,
    expires_at: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.revoked_token (jti, expires_at) values ($1, $2) on conflict do nothing",
    )
    .bind(jti)
    .bind(expires_at)
    .execute(db)
    .await?;
    Ok(())
}
