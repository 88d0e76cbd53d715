//! The webhooks' queries: one function per statement. Every query of a person's webhook names
//! its owner, so another person's webhook is simply not found.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::error::Error;

/// A webhook as the API shows it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct WebhookRow {
    pub webhook_id: Uuid,
    pub url: String,
    pub event_types: Vec<String>,
    pub description: String,
    pub enabled: bool,
    pub disabled_reason: String,
    pub created_at: DateTime<Utc>,
}

macro_rules! webhook_columns {
    () => {
        "webhook_id, url, event_types, description, enabled, disabled_reason, created_at"
    };
}

/// A delivery as the log shows it, its attempts as a JSON array (oldest first).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DeliveryRow {
    pub delivery_id: Uuid,
    pub seq: i64,
    pub event_id: Uuid,
    pub event_type: String,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub attempts: Value,
}

/// The columns of [`DeliveryRow`] from `identity.webhook_delivery d`.
macro_rules! delivery_columns {
    () => {
        "d.delivery_id, d.seq, d.event_id, d.event_type, d.status, d.created_at,
    d.next_attempt_at,
    coalesce((select json_agg(json_build_object(
                 'attempted_ms', (extract(epoch from a.attempted_at) * 1000)::bigint,
                 'status_code', a.status_code, 'latency_ms', a.latency_ms, 'error', a.error)
                 order by a.attempted_at)
              from identity.webhook_attempt a where a.delivery_id = d.delivery_id),
             '[]'::json)::jsonb as attempts "
    };
}

/// Locks the owner's row (so two creations cannot both pass the limit) and counts their webhooks.
pub async fn lock_and_count(tx: &mut PgConnection, user_id: Uuid) -> Result<i64, Error> {
    sqlx::query("select 1 from identity.app_user where user_id = $1 for update")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    Ok(
        sqlx::query_scalar("select count(*) from identity.webhook where user_id = $1")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?,
    )
}

pub struct NewWebhook<'a> {
    pub user_id: Uuid,
    pub url: &'a str,
    pub event_types: &'a [String],
    pub description: &'a str,
    pub secret: &'a str,
    pub now: DateTime<Utc>,
}

pub async fn insert(tx: &mut PgConnection, new: NewWebhook<'_>) -> Result<WebhookRow, Error> {
    Ok(sqlx::query_as(concat!(
        "insert into identity.webhook (webhook_id, user_id, url, event_types, description, secret, created_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning ",
        webhook_columns!()
    ))
    .bind(Uuid::now_v7())
    .bind(new.user_id)
    .bind(new.url)
    .bind(new.event_types)
    .bind(new.description)
    .bind(new.secret)
    .bind(new.now)
    .fetch_one(&mut *tx)
    .await?)
}

pub async fn list(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Vec<WebhookRow>, Error> {
    Ok(sqlx::query_as(concat!(
        "select ",
        webhook_columns!(),
        " from identity.webhook where user_id = $1
         order by created_at desc, webhook_id desc"
    ))
    .bind(user_id)
    .fetch_all(db)
    .await?)
}

pub struct Changes<'a> {
    pub url: &'a str,
    pub event_types: &'a [String],
    pub description: &'a str,
    pub enabled: bool,
}

/// Applies `changes`; enabling clears the failure that disabled it.
pub async fn update(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    webhook_id: Uuid,
    changes: Changes<'_>,
) -> Result<Option<WebhookRow>, Error> {
    Ok(sqlx::query_as(concat!(
        "update identity.webhook
         set url = $3, event_types = $4, description = $5, enabled = $6,
             disabled_reason = case when $6 then '' else disabled_reason end,
             failing_since = case when $6 and not enabled then null else failing_since end
         where user_id = $1 and webhook_id = $2
         returning ",
        webhook_columns!()
    ))
    .bind(user_id)
    .bind(webhook_id)
    .bind(changes.url)
    .bind(changes.event_types)
    .bind(changes.description)
    .bind(changes.enabled)
    .fetch_optional(db)
    .await?)
}

pub async fn delete(db: impl PgExecutor<'_>, user_id: Uuid, webhook_id: Uuid) -> Result<bool, Error> {
    Ok(
        sqlx::query("delete from identity.webhook where user_id = $1 and webhook_id = $2")
            .bind(user_id)
            .bind(webhook_id)
            .execute(db)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Makes `secret` the webhook's secret; the one it replaces still signs until `until`.
pub async fn rotate(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    webhook_id: Uuid,
    secret: &str,
    until: DateTime<Utc>,
) -> Result<bool, Error> {
    Ok(sqlx::query(
        "update identity.webhook
         set previous_secret = secret, previous_valid_until = $4, secret = $3
         where user_id = $1 and webhook_id = $2",
    )
    .bind(user_id)
    .bind(webhook_id)
    .bind(secret)
    .bind(until)
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}

/// Whether the webhook is the user's.
pub async fn owns(db: impl PgExecutor<'_>, user_id: Uuid, webhook_id: Uuid) -> Result<bool, Error> {
    Ok(sqlx::query_scalar(
        "select exists (select 1 from identity.webhook where user_id = $1 and webhook_id = $2)",
    )
    .bind(user_id)
    .bind(webhook_id)
    .fetch_one(db)
    .await?)
}

/// One page of a webhook's log, newest first: deliveries before `before` (a `seq`), at most
/// `fetch`, each with its attempts.
pub async fn deliveries(
    db: impl PgExecutor<'_>,
    webhook_id: Uuid,
    before: Option<i64>,
    fetch: Option<i64>,
) -> Result<Vec<DeliveryRow>, Error> {
    Ok(sqlx::query_as(concat!(
        "select ",
        delivery_columns!(),
        " from identity.webhook_delivery d
         where d.webhook_id = $1 and ($2::bigint is null or d.seq < $2)
         order by d.seq desc limit $3"
    ))
    .bind(webhook_id)
    .bind(before)
    .bind(fetch)
    .fetch_all(db)
    .await?)
}

/// One delivery of the log.
pub async fn delivery(db: impl PgExecutor<'_>, delivery_id: Uuid) -> Result<Option<DeliveryRow>, Error> {
    Ok(sqlx::query_as(concat!(
        "select ",
        delivery_columns!(),
        " from identity.webhook_delivery d where d.delivery_id = $1"
    ))
    .bind(delivery_id)
    .fetch_optional(db)
    .await?)
}

/// A new delivery of the user's delivery's event, due `now`; `None` when it is not theirs.
pub async fn replay(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    webhook_id: Uuid,
    delivery_id: Uuid,
    now: DateTime<Utc>,
) -> Result<Option<Uuid>, Error> {
    Ok(sqlx::query_scalar(
        "insert into identity.webhook_delivery
             (delivery_id, webhook_id, event_id, event_type, record_key, payload, next_attempt_at,
              replay_of, created_at)
         select $4, d.webhook_id, d.event_id, d.event_type, d.record_key, d.payload, $5,
                coalesce(d.replay_of, d.delivery_id), $5
         from identity.webhook_delivery d
         join identity.webhook w on w.webhook_id = d.webhook_id
         where w.user_id = $1 and d.webhook_id = $2 and d.delivery_id = $3
         returning delivery_id",
    )
    .bind(user_id)
    .bind(webhook_id)
    .bind(delivery_id)
    .bind(Uuid::now_v7())
    .bind(now)
    .fetch_optional(db)
    .await?)
}

/// A delivery of one event to one webhook alone (the test button's), due `now`.
pub async fn insert_single(
    db: impl PgExecutor<'_>,
    webhook_id: Uuid,
    event_id: Uuid,
    kind: &str,
    record_key: &str,
    payload: &Value,
    now: DateTime<Utc>,
) -> Result<Uuid, Error> {
    Ok(sqlx::query_scalar(
        "insert into identity.webhook_delivery
             (delivery_id, webhook_id, event_id, event_type, record_key, payload, next_attempt_at,
              created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $7)
         returning delivery_id",
    )
    .bind(Uuid::now_v7())
    .bind(webhook_id)
    .bind(event_id)
    .bind(kind)
    .bind(record_key)
    .bind(payload)
    .bind(now)
    .fetch_one(db)
    .await?)
}

/// One event's first delivery to every enabled webhook of `kind` that may see it (its `owners`'
/// and every admin's), in one statement; an event read again enqueues nothing. Returns how many.
#[allow(clippy::too_many_arguments)]
pub async fn fan_out(
    db: impl PgExecutor<'_>,
    event_id: Uuid,
    kind: &str,
    record_key: &str,
    payload: &Value,
    owners: &[Uuid],
    now: DateTime<Utc>,
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "insert into identity.webhook_delivery
             (delivery_id, webhook_id, event_id, event_type, record_key, payload, next_attempt_at,
              created_at)
         select gen_random_uuid(), w.webhook_id, $1, $2, $3, $4, $6, $6
         from identity.webhook w
         join identity.app_user u on u.user_id = w.user_id
         where w.enabled and $2 = any (w.event_types)
           and (w.user_id = any ($5) or u.role = 'admin')
         order by w.webhook_id
         on conflict (webhook_id, event_id) where replay_of is null do nothing",
    )
    .bind(event_id)
    .bind(kind)
    .bind(record_key)
    .bind(payload)
    .bind(owners)
    .bind(now)
    .execute(db)
    .await?
    .rows_affected())
}
