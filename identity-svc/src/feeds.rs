//! Calendar feeds: each person's secret that opens their sessions, as an iCalendar subscription,
//! at `/api/calendar/<secret>.ics` (issue 18). identity keeps the feed (people and how to reach
//! them are identity's); the gateway asks whose feed a secret opens, then composes the sessions
//! from booking and gym.
//!
//! Only clients, coaches and gyms have sessions, so only they have feeds. The secret is kept only
//! as its SHA-256 (issue 32), and a fetch looks the feed up by the hash of the secret in its
//! address; so the address is shown once, when the feed is made (the owner's first ask after
//! having none) or reset, and an ask while a feed exists answers no secret ("you have one; reset
//! it to see a new address"). A reset replaces the hash in one statement: the old address opens
//! nothing from that commit on. A person's feed ends with their sessions: "sign out everywhere",
//! a password change or reset and a role change delete it ([`close`]), so the old address answers
//! 404 and the next ask makes a new one.

use platform::auth::{Caller, Role};
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{domain::FeedSecret, error::Error};

/// The roles that have sessions, and so a feed.
pub const ROLES: [Role; 3] = [Role::Client, Role::Coach, Role::Gym];

const NO_FEED: &str = "no calendar feed has this address";

/// The caller's new feed secret when they had no feed (made now), `None` when they have one: its
/// secret is not kept, so it cannot be shown again.
pub async fn secret_of(db: &sqlx::PgPool, caller: &Caller) -> Result<Option<FeedSecret>, Error> {
    let fresh = FeedSecret::generate();
    let made = open_feed(db, caller.user_id, &fresh).await?;
    if made {
        tracing::info!(user_id = %caller.user_id, "calendar feed made");
    }
    Ok(made.then_some(fresh))
}

/// A new secret for the caller's feed (made if they had none); the old one opens nothing.
pub async fn reset(db: &sqlx::PgPool, caller: &Caller) -> Result<FeedSecret, Error> {
    let fresh = FeedSecret::generate();
    replace_secret(db, caller.user_id, &fresh).await?;
    tracing::info!(user_id = %caller.user_id, "calendar feed secret replaced");
    Ok(fresh)
}

/// Ends `user_id`'s feed, in the caller's transaction: its address opens nothing from the commit
/// on, and their next ask makes a feed with a new address.
pub async fn close(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<(), Error> {
    sqlx::query("delete from identity.calendar_feed where user_id = $1")
        .bind(user_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Whose feed `raw` opens, with their role now.
pub async fn owner(db: &sqlx::PgPool, raw: &str) -> Result<(Uuid, String), Error> {
    let secret = FeedSecret::parse(raw.trim()).ok_or_else(|| Error::NotFound(NO_FEED.into()))?;
    feed_owner(db, &secret)
        .await?
        .ok_or_else(|| Error::NotFound(NO_FEED.into()))
}

// The queries: one function per statement.

/// Makes the user's feed with `fresh` unless they have one; whether it was made (of two first
/// asks at once, one makes it and the other answers that a feed exists).
async fn open_feed(db: impl PgExecutor<'_>, user_id: Uuid, fresh: &FeedSecret) -> Result<bool, Error> {
    Ok(sqlx::query(
        "insert into identity.calendar_feed (user_id, secret_hash) values ($1, $2)
         on conflict (user_id) do nothing",
    )
    .bind(user_id)
    .bind(fresh.hash())
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}

/// Sets the user's feed secret to `fresh`, making the feed if they had none.
async fn replace_secret(db: impl PgExecutor<'_>, user_id: Uuid, fresh: &FeedSecret) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.calendar_feed (user_id, secret_hash) values ($1, $2)
         on conflict (user_id) do update set secret_hash = excluded.secret_hash, created_at = now()",
    )
    .bind(user_id)
    .bind(fresh.hash())
    .execute(db)
    .await?;
    Ok(())
}

/// The owner of the feed `secret` opens and their role, if any.
async fn feed_owner(db: impl PgExecutor<'_>, secret: &FeedSecret) -> Result<Option<(Uuid, String)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, String)>(
        "select u.user_id, u.role from identity.calendar_feed f
         join identity.app_user u on u.user_id = f.user_id
         where f.secret_hash = $1",
    )
    .bind(secret.hash())
    .fetch_optional(db)
    .await?)
}
