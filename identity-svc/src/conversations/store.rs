//! The conversations' SQL: every list reads its page in one query and what it shows of the page
//! (last messages, unread counts, names, blocks, shared records) in one query each.

use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::SHARED_SHOWN;
use crate::error::Error;

/// The keyset of a list: newest first.
pub type Key = (DateTime<Utc>, Uuid);

/// A thread as one of its people sees it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ThreadRow {
    pub conversation_id: Uuid,
    pub other_id: Uuid,
    pub read_at: Option<DateTime<Utc>>,
    pub other_read_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MessageRow {
    pub message_id: Uuid,
    pub conversation_id: Uuid,
    pub sender_id: Uuid,
    pub body: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Person {
    pub user_id: Uuid,
    pub full_name: String,
    pub role: String,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SharedRow {
    pub user_a: Uuid,
    pub user_b: Uuid,
    pub kind: String,
    pub record_id: Uuid,
    pub record_date: String,
    pub start_time: String,
    pub end_time: String,
    pub status: String,
}

#[allow(clippy::too_many_arguments)]
pub async fn upsert_shared(
    db: &PgPool,
    kind: &str,
    record_id: Uuid,
    user_a: Uuid,
    user_b: Uuid,
    (date, start, end): (&str, &str, &str),
    status: &str,
    occurred_at: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.shared_record
             (record_id, kind, user_a, user_b, record_date, start_time, end_time, status, occurred_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (record_id) do update set record_date = excluded.record_date,
             start_time = excluded.start_time, end_time = excluded.end_time,
             status = excluded.status, occurred_at = excluded.occurred_at
         where identity.shared_record.occurred_at <= excluded.occurred_at",
    )
    .bind(record_id)
    .bind(kind)
    .bind(user_a)
    .bind(user_b)
    .bind(date)
    .bind(start)
    .bind(end)
    .bind(status)
    .bind(occurred_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Whether the pair shares a record of `kind`.
pub async fn shares(db: impl PgExecutor<'_>, a: Uuid, b: Uuid, kind: &str) -> Result<bool, Error> {
    Ok(sqlx::query_scalar::<_, bool>(
        "select exists (select 1 from identity.shared_record where user_a = $1 and user_b = $2 and kind = $3)",
    )
    .bind(a)
    .bind(b)
    .bind(kind)
    .fetch_one(db)
    .await?)
}

/// The people of `ids` who exist, in one query.
pub async fn people(db: impl PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<Person>, Error> {
    Ok(sqlx::query_as::<_, Person>(
        "select user_id, full_name, role from identity.app_user where user_id = any($1)",
    )
    .bind(ids)
    .fetch_all(db)
    .await?)
}

/// One page of `user_id`'s threads, newest activity first (only `only`, when given).
pub async fn threads(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    only: Option<Uuid>,
    after: Option<Key>,
    fetch: Option<i64>,
) -> Result<Vec<ThreadRow>, Error> {
    let (at, id) = after.map_or((None, None), |(at, id)| (Some(at), Some(id)));
    Ok(sqlx::query_as::<_, ThreadRow>(
        "select c.conversation_id, m.other_id, m.read_at, o.read_at as other_read_at,
                c.created_at, c.updated_at
         from identity.conversation_member m
         join identity.conversation c on c.conversation_id = m.conversation_id
         join identity.conversation_member o
           on o.conversation_id = m.conversation_id and o.user_id = m.other_id
         where m.user_id = $1
           and ($5::uuid is null or m.conversation_id = $5)
           and ($2::timestamptz is null or (c.updated_at, c.conversation_id) < ($2, $3))
         order by c.updated_at desc, c.conversation_id desc limit $4",
    )
    .bind(user_id)
    .bind(at)
    .bind(id)
    .bind(fetch)
    .bind(only)
    .fetch_all(db)
    .await?)
}

/// The thread `conversation_id` as `user_id` sees it; `None` when they are not one of its people.
pub async fn thread(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    conversation_id: Uuid,
) -> Result<Option<ThreadRow>, Error> {
    Ok(threads(db, user_id, Some(conversation_id), None, None)
        .await?
        .pop())
}

/// The pair's thread, if they have one.
pub async fn thread_of_pair(db: impl PgExecutor<'_>, me: Uuid, other: Uuid) -> Result<Option<Uuid>, Error> {
    let (a, b) = super::pair(me, other);
    Ok(sqlx::query_scalar::<_, Uuid>(
        "select conversation_id from identity.conversation where user_a = $1 and user_b = $2",
    )
    .bind(a)
    .bind(b)
    .fetch_optional(db)
    .await?)
}

/// Creates the pair's thread; false when another request created it first.
pub async fn create_thread(
    db: &PgPool,
    id: Uuid,
    me: Uuid,
    other: Uuid,
    now: DateTime<Utc>,
) -> Result<bool, Error> {
    let (a, b) = super::pair(me, other);
    let mut tx = db.begin().await?;
    let created = sqlx::query(
        "insert into identity.conversation (conversation_id, user_a, user_b, started_by, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $5) on conflict (user_a, user_b) do nothing",
    )
    .bind(id)
    .bind(a)
    .bind(b)
    .bind(me)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if created {
        sqlx::query(
            "insert into identity.conversation_member (conversation_id, user_id, other_id)
             values ($1, $2, $3), ($1, $3, $2)",
        )
        .bind(id)
        .bind(me)
        .bind(other)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(created)
}

/// How many threads `user_id` started since `since`.
pub async fn started_since(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    since: DateTime<Utc>,
) -> Result<i64, Error> {
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(*) from identity.conversation where started_by = $1 and created_at > $2",
    )
    .bind(user_id)
    .bind(since)
    .fetch_one(db)
    .await?)
}

/// The last message of each of `ids`, in one query.
pub async fn last_messages(db: impl PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<MessageRow>, Error> {
    Ok(sqlx::query_as::<_, MessageRow>(
        "select distinct on (conversation_id) message_id, conversation_id, sender_id, body, created_at
         from identity.message where conversation_id = any($1)
         order by conversation_id, created_at desc, message_id desc",
    )
    .bind(ids)
    .fetch_all(db)
    .await?)
}

/// How many messages to `user_id` in each of `ids` they have not read, in one query.
pub async fn unread_counts(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    ids: &[Uuid],
) -> Result<Vec<(Uuid, i64)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, i64)>(
        "select m.conversation_id, count(g.message_id)
         from identity.conversation_member m
         join identity.message g on g.conversation_id = m.conversation_id
         where m.user_id = $1 and m.conversation_id = any($2) and g.sender_id <> $1
           and (m.read_at is null or g.created_at > m.read_at)
         group by m.conversation_id",
    )
    .bind(user_id)
    .bind(ids)
    .fetch_all(db)
    .await?)
}

/// How many messages to `user_id` are unread, over every thread.
pub async fn unread_total(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<i64, Error> {
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(g.message_id)
         from identity.conversation_member m
         join identity.message g on g.conversation_id = m.conversation_id
         where m.user_id = $1 and g.sender_id <> $1 and (m.read_at is null or g.created_at > m.read_at)",
    )
    .bind(user_id)
    .fetch_one(db)
    .await?)
}

/// The blocks between `user_id` and any of `others`, as (blocker, blocked), in one query.
pub async fn blocks(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    others: &[Uuid],
) -> Result<Vec<(Uuid, Uuid)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, Uuid)>(
        "select blocker_id, blocked_id from identity.user_block
         where (blocker_id = $1 and blocked_id = any($2)) or (blocked_id = $1 and blocker_id = any($2))",
    )
    .bind(user_id)
    .bind(others)
    .fetch_all(db)
    .await?)
}

/// The newest [`SHARED_SHOWN`] records of each pair (`a[i]`, `b[i]`), in one query.
pub async fn shared(db: impl PgExecutor<'_>, a: &[Uuid], b: &[Uuid]) -> Result<Vec<SharedRow>, Error> {
    Ok(sqlx::query_as::<_, SharedRow>(
        "select user_a, user_b, kind, record_id, record_date, start_time, end_time, status
         from (select s.*, row_number() over (partition by s.user_a, s.user_b
                   order by s.record_date desc, s.start_time desc, s.record_id) as n
               from identity.shared_record s
               where (s.user_a, s.user_b) in (select * from unnest($1::uuid[], $2::uuid[]))) ranked
         where n <= $3
         order by user_a, user_b, record_date desc, start_time desc, record_id",
    )
    .bind(a)
    .bind(b)
    .bind(SHARED_SHOWN)
    .fetch_all(db)
    .await?)
}

/// One page of a thread's messages, newest first.
/// The keyset of message `message_id` of `conversation_id`, if it is one of its messages.
pub async fn message_key(
    db: impl PgExecutor<'_>,
    conversation_id: Uuid,
    message_id: Uuid,
) -> Result<Option<Key>, Error> {
    Ok(sqlx::query_as::<_, Key>(
        "select created_at, message_id from identity.message
         where conversation_id = $1 and message_id = $2",
    )
    .bind(conversation_id)
    .bind(message_id)
    .fetch_optional(db)
    .await?)
}

pub async fn messages(
    db: impl PgExecutor<'_>,
    conversation_id: Uuid,
    after: Option<Key>,
    fetch: Option<i64>,
) -> Result<Vec<MessageRow>, Error> {
    let (at, id) = after.map_or((None, None), |(at, id)| (Some(at), Some(id)));
    Ok(sqlx::query_as::<_, MessageRow>(
        "select message_id, conversation_id, sender_id, body, created_at from identity.message
         where conversation_id = $1
           and ($2::timestamptz is null or (created_at, message_id) < ($2, $3))
         order by created_at desc, message_id desc limit $4",
    )
    .bind(conversation_id)
    .bind(at)
    .bind(id)
    .bind(fetch)
    .fetch_all(db)
    .await?)
}

/// How many messages `sender_id` sent since `since`.
pub async fn sent_since(
    db: impl PgExecutor<'_>,
    sender_id: Uuid,
    since: DateTime<Utc>,
) -> Result<i64, Error> {
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(*) from identity.message where sender_id = $1 and created_at > $2",
    )
    .bind(sender_id)
    .bind(since)
    .fetch_one(db)
    .await?)
}

/// Writes a message; the thread moves to the top and the sender has read everything up to it.
pub async fn insert_message(db: &PgPool, row: &MessageRow) -> Result<(), Error> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "insert into identity.message (message_id, conversation_id, sender_id, body, created_at)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(row.message_id)
    .bind(row.conversation_id)
    .bind(row.sender_id)
    .bind(&row.body)
    .bind(row.created_at)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "update identity.conversation set updated_at = greatest(updated_at, $2) where conversation_id = $1",
    )
    .bind(row.conversation_id)
    .bind(row.created_at)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "update identity.conversation_member set read_at = greatest(coalesce(read_at, $3), $3)
         where conversation_id = $1 and user_id = $2",
    )
    .bind(row.conversation_id)
    .bind(row.sender_id)
    .bind(row.created_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Everything in the thread up to `now` is read by `user_id`.
pub async fn mark_read(
    db: impl PgExecutor<'_>,
    conversation_id: Uuid,
    user_id: Uuid,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query(
        "update identity.conversation_member set read_at = greatest(coalesce(read_at, $3), $3)
         where conversation_id = $1 and user_id = $2",
    )
    .bind(conversation_id)
    .bind(user_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}
