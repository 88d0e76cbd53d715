//! Calendar feeds: each person's secret that opens their sessions, as an iCalendar subscription,
//! at `/api/calendar/<secret>.ics` (issue 18). identity keeps the secret (people and how to reach
//! them are identity's); the gateway asks whose feed a secret opens, then composes the sessions
//! from booking and gym.
//!
//! Only clients, coaches and gyms have sessions, so only they have feeds. A feed is made on its
//! owner's first ask and kept until they reset it; a reset replaces the secret in one statement,
//! and since every fetch of a feed looks its secret up here, the old address opens nothing from
//! that commit on.

use platform::auth::{Caller, Role};
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{domain::FeedSecret, error::Error};

/// The roles that have sessions, and so a feed.
pub const ROLES: [Role; 3] = [Role::Client, Role::Coach, Role::Gym];

const NO_FEED: &str = "no calendar feed has this address";

/// The caller's feed secret, made now if they have none.
pub async fn secret_of(db: &sqlx::PgPool, caller: &Caller) -> Result<FeedSecret, Error> {
    if let Some(secret) = feed_secret(db, caller.user_id).await? {
        return Ok(secret);
    }
    open_feed(db, caller.user_id, &FeedSecret::generate()).await
}

/// A new secret for the caller's feed (made if they had none); the old one opens nothing.
pub async fn reset(db: &sqlx::PgPool, caller: &Caller) -> Result<FeedSecret, Error> {
    let secret = replace_secret(db, caller.user_id, &FeedSecret::generate()).await?;
    tracing::info!(user_id = %caller.user_id, "calendar feed secret replaced");
    Ok(secret)
}

/// Whose feed `raw` opens, with their role now.
pub async fn owner(db: &sqlx::PgPool, raw: &str) -> Result<(Uuid, String), Error> {
    let secret = FeedSecret::parse(raw.trim()).ok_or_else(|| Error::NotFound(NO_FEED.into()))?;
    feed_owner(db, &secret)
        .await?
        .ok_or_else(|| Error::NotFound(NO_FEED.into()))
}

// The queries: one function per statement.

/// The user's feed secret, if they have a feed.
async fn feed_secret(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Option<FeedSecret>, Error> {
    Ok(
        sqlx::query_scalar::<_, String>("select secret from identity.calendar_feed where user_id = $1")
            .bind(user_id)
            .fetch_optional(db)
            .await?
            .map(FeedSecret::stored),
    )
}

/// Makes the user's feed with `fresh`, or answers the secret it already has (two first asks at
/// once agree on one secret).
async fn open_feed(db: impl PgExecutor<'_>, user_id: Uuid, fresh: &FeedSecret) -> Result<FeedSecret, Error> {
    Ok(FeedSecret::stored(
        sqlx::query_scalar::<_, String>(
            "insert into identity.calendar_feed (user_id, secret) values ($1, $2)
             on conflict (user_id) do update set secret = identity.calendar_feed.secret
             returning secret",
        )
        .bind(user_id)
        .bind(fresh.as_str())
        .fetch_one(db)
        .await?,
    ))
}

/// Sets the user's feed secret to `fresh`, making the feed if they had none.
async fn replace_secret(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    fresh: &FeedSecret,
) -> Result<FeedSecret, Error> {
    Ok(FeedSecret::stored(
        sqlx::query_scalar::<_, String>(
            "insert into identity.calendar_feed (user_id, secret) values ($1, $2)
             on conflict (user_id) do update set secret = excluded.secret, created_at = now()
             returning secret",
        )
        .bind(user_id)
        .bind(fresh.as_str())
        .fetch_one(db)
        .await?,
    ))
}

/// The owner of the feed `secret` opens and their role, if any.
async fn feed_owner(db: impl PgExecutor<'_>, secret: &FeedSecret) -> Result<Option<(Uuid, String)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, String)>(
        "select u.user_id, u.role from identity.calendar_feed f
         join identity.app_user u on u.user_id = f.user_id
         where f.secret = $1",
    )
    .bind(secret.as_str())
    .fetch_optional(db)
    .await?)
}
