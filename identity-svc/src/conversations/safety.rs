//! Blocks, reports and suspensions (issue 36): their SQL. A report's context is read for a whole
//! page in one query.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::store::MessageRow;
use crate::error::Error;

/// The most characters of a report's or a suspension's reason.
pub const MAX_REASON: usize = 500;
/// How many messages before and after a reported one the admin sees.
pub const CONTEXT: i64 = 5;

/// A reason as it is kept: trimmed, 1 to [`MAX_REASON`] characters.
pub fn reason(raw: &str) -> Result<String, Error> {
    let reason = raw.trim();
    if reason.is_empty() {
        return Err(Error::Invalid("reason: say what is wrong.".into()));
    }
    if reason.chars().count() > MAX_REASON {
        return Err(Error::Invalid(format!(
            "reason: at most {MAX_REASON} characters."
        )));
    }
    Ok(reason.to_owned())
}

pub async fn block(db: impl PgExecutor<'_>, blocker: Uuid, blocked: Uuid) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.user_block (blocker_id, blocked_id) values ($1, $2)
         on conflict do nothing",
    )
    .bind(blocker)
    .bind(blocked)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn unblock(db: impl PgExecutor<'_>, blocker: Uuid, blocked: Uuid) -> Result<(), Error> {
    sqlx::query("delete from identity.user_block where blocker_id = $1 and blocked_id = $2")
        .bind(blocker)
        .bind(blocked)
        .execute(db)
        .await?;
    Ok(())
}

/// A message with whether `user_id` is one of its thread's people.
pub async fn message_for(
    db: impl PgExecutor<'_>,
    message_id: Uuid,
    user_id: Uuid,
) -> Result<Option<MessageRow>, Error> {
    Ok(sqlx::query_as::<_, MessageRow>(
        "select g.message_id, g.conversation_id, g.sender_id, g.body, g.created_at
         from identity.message g
         join identity.conversation_member m on m.conversation_id = g.conversation_id and m.user_id = $2
         where g.message_id = $1",
    )
    .bind(message_id)
    .bind(user_id)
    .fetch_optional(db)
    .await?)
}

/// Records a report; `None` when the reporter already reported this message.
pub async fn report(
    db: impl PgExecutor<'_>,
    message_id: Uuid,
    reporter: Uuid,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Option<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "insert into identity.message_report (report_id, message_id, reporter_id, reason, created_at)
         values ($1, $2, $3, $4, $5) on conflict (message_id, reporter_id) do nothing
         returning report_id",
    )
    .bind(Uuid::now_v7())
    .bind(message_id)
    .bind(reporter)
    .bind(reason)
    .bind(now)
    .fetch_optional(db)
    .await?)
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ReportRow {
    pub report_id: Uuid,
    pub reason: String,
    pub created_at: DateTime<Utc>,
    pub reporter_id: Uuid,
    pub message_id: Uuid,
    pub conversation_id: Uuid,
    pub sender_id: Uuid,
    pub body: String,
    pub sent_at: DateTime<Utc>,
}

/// One page of the reports, newest first.
pub async fn reports(
    db: impl PgExecutor<'_>,
    after: Option<super::store::Key>,
    fetch: Option<i64>,
) -> Result<Vec<ReportRow>, Error> {
    let (at, id) = after.map_or((None, None), |(at, id)| (Some(at), Some(id)));
    Ok(sqlx::query_as::<_, ReportRow>(
        "select r.report_id, r.reason, r.created_at, r.reporter_id, g.message_id, g.conversation_id,
                g.sender_id, g.body, g.created_at as sent_at
         from identity.message_report r
         join identity.message g on g.message_id = r.message_id
         where ($1::timestamptz is null or (r.created_at, r.report_id) < ($1, $2))
         order by r.created_at desc, r.report_id desc limit $3",
    )
    .bind(at)
    .bind(id)
    .bind(fetch)
    .fetch_all(db)
    .await?)
}

/// A message around a reported one.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AroundRow {
    pub about: Uuid,
    #[sqlx(flatten)]
    pub message: MessageRow,
}

/// Up to [`CONTEXT`] messages before and after each of `ids`, oldest first, in one query.
pub async fn context(db: impl PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<AroundRow>, Error> {
    Ok(sqlx::query_as::<_, AroundRow>(
        "select g.message_id as about, x.message_id, x.conversation_id, x.sender_id, x.body, x.created_at
         from identity.message g
         cross join lateral (
             (select b.message_id, b.conversation_id, b.sender_id, b.body, b.created_at
              from identity.message b
              where b.conversation_id = g.conversation_id
                and (b.created_at, b.message_id) < (g.created_at, g.message_id)
              order by b.created_at desc, b.message_id desc limit $2)
             union all
             (select a.message_id, a.conversation_id, a.sender_id, a.body, a.created_at
              from identity.message a
              where a.conversation_id = g.conversation_id
                and (a.created_at, a.message_id) > (g.created_at, g.message_id)
              order by a.created_at, a.message_id limit $2)
         ) x
         where g.message_id = any($1)
         order by g.message_id, x.created_at, x.message_id",
    )
    .bind(ids)
    .bind(CONTEXT)
    .fetch_all(db)
    .await?)
}

/// Which of `ids` are suspended, in one query.
pub async fn suspended(db: impl PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "select user_id from identity.app_user where user_id = any($1) and suspended_at is not null",
    )
    .bind(ids)
    .fetch_all(db)
    .await?)
}

/// Suspends the user (kept as first suspended) and ends their tokens; returns (suspended_at, the
/// new token version, whether it was suspended just now).
pub async fn suspend(
    tx: &mut PgConnection,
    user_id: Uuid,
    now: DateTime<Utc>,
) -> Result<(DateTime<Utc>, i64, bool), Error> {
    let (was,): (Option<DateTime<Utc>>,) =
        sqlx::query_as("select suspended_at from identity.app_user where user_id = $1")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
    let (at, version) = sqlx::query_as::<_, (DateTime<Utc>, i64)>(
        "update identity.app_user set suspended_at = coalesce(suspended_at, $2),
             token_version = token_version + 1
         where user_id = $1 returning suspended_at, token_version",
    )
    .bind(user_id)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    Ok((at, version, was.is_none()))
}

/// Whether the user is suspended.
pub async fn is_suspended(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<bool, Error> {
    Ok(sqlx::query_scalar::<_, bool>(
        "select exists (select 1 from identity.app_user where user_id = $1 and suspended_at is not null)",
    )
    .bind(user_id)
    .fetch_one(db)
    .await?)
}
