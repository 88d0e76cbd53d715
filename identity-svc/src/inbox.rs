//! Each person's inbox (issue 18): the notifications the booking and gym contexts' events and
//! identity's own account facts leave for them ([`crate::domain::notice`] says what tells whom),
//! the reminders the clock sends 24 hours before a session ([`crate::reminders`]), and the live
//! announcement of each new notification.
//!
//! An event is applied once: its id is recorded in `identity.processed_event` in the transaction
//! that writes its notifications. A notification for someone who no longer exists is left out.
//! The names a notification mentions are read from identity's own users when it is written and
//! stay in its text as they were then (a rename later does not rewrite the inbox, as a letter
//! already sent is not rewritten).
//!
//! Live: after the commit, each new notification is published on the Redis channel
//! [`notifications_channel`] as `{"user_id", "notification"}`; every gateway replica subscribes to it and
//! pushes the notification down the open streams of its owner. Publishing is best effort (the
//! inbox is the truth; a person whose stream missed one sees it on the next read).

use std::{collections::HashMap, sync::Arc};

use chrono::{DateTime, SecondsFormat, Utc};
use platform::{
    events::{Envelope, Event},
    pages::Page,
    redis_link::{RedisDown, RedisLink},
};
use serde::Serialize;
use sqlx::{PgConnection, PgExecutor, PgPool};
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{
    domain::notice::{self, Category, Kind, Notice, Reminder},
    error::Error,
    mail,
};

/// The keyset of the inbox: newest first.
pub type Key = (DateTime<Utc>, Uuid);

/// The Redis channel new notifications are announced on, under the namespace.
pub fn notifications_channel(namespace: &str) -> String {
    format!("{namespace}:notifications")
}

/// A notification as stored.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct NotificationRow {
    pub notification_id: Uuid,
    pub user_id: Uuid,
    pub kind: String,
    pub category: String,
    pub title: String,
    pub body: String,
    pub link: String,
    pub created_at: DateTime<Utc>,
    pub read_at: Option<DateTime<Utc>>,
}

/// A notification as the API shows it (and as the live channel carries it).
#[derive(Clone, Debug, Serialize)]
pub struct Shown {
    pub notification_id: Uuid,
    pub kind: String,
    pub title: String,
    pub body: String,
    pub link: String,
    pub created_at: String,
    pub read_at: Option<String>,
}

pub fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

impl From<&NotificationRow> for Shown {
    fn from(row: &NotificationRow) -> Self {
        Shown {
            notification_id: row.notification_id,
            kind: row.kind.clone(),
            title: row.title.clone(),
            body: row.body.clone(),
            link: row.link.clone(),
            created_at: rfc3339(row.created_at),
            read_at: row.read_at.map(rfc3339),
        }
    }
}

/// How new notifications reach people beyond the inbox: announced live to the gateways, and by
/// email (written with them to the mail outbox, whose sender is woken). Cheap to clone.
#[derive(Clone)]
pub struct Reach {
    link: RedisLink,
    channel: String,
    /// The app's address, for the links of emails.
    pub public_url: String,
    /// Wakes the mail sender after a commit that wrote to the mail outbox.
    pub mail_wake: Arc<Notify>,
    /// Wakes the reset issuer after a reset request was recorded.
    pub reset_wake: Arc<Notify>,
}

impl Reach {
    pub fn new(link: RedisLink, namespace: &str, public_url: &str) -> Self {
        Self {
            link,
            channel: notifications_channel(namespace),
            public_url: public_url.to_owned(),
            mail_wake: Arc::new(Notify::new()),
            reset_wake: Arc::new(Notify::new()),
        }
    }

    /// After the commit of `rows`: publishes each (Redis being down is only logged) and wakes the
    /// mail sender.
    pub async fn announce(&self, rows: &[NotificationRow]) {
        if !rows.is_empty() {
            self.mail_wake.notify_one();
        }
        for row in rows {
            let message =
                serde_json::json!({ "user_id": row.user_id, "notification": Shown::from(row) }).to_string();
            if let Err(error) = publish(&self.link, &self.channel, message).await {
                tracing::warn!(%error, "a notification was not announced live");
            }
        }
    }
}

/// Publishes `payload` on the live `channel` the gateways relay to people's open streams.
pub async fn publish(link: &RedisLink, channel: &str, payload: String) -> Result<i64, RedisDown> {
    let channel = channel.to_owned();
    link.run(|mut conn| async move {
        redis::cmd("PUBLISH")
            .arg(channel)
            .arg(payload)
            .query_async::<i64>(&mut conn)
            .await
    })
    .await
}

/// Applies one event of the stream, once: writes the notifications it leaves and schedules or
/// calls off its reminder. Returns the new notifications (to announce after the commit).
pub async fn apply(
    db: &PgPool,
    envelope: &Envelope,
    public_url: &str,
) -> Result<Vec<NotificationRow>, Error> {
    let named = notice::named_in(&envelope.event);
    if named.is_empty() {
        // Not a booking's or a reservation's fact: identity's own, applied where it happened.
        return Ok(vec![]);
    }
    let occurred_at = DateTime::parse_from_rfc3339(&envelope.occurred_at)
        .map(|t| t.to_utc())
        .unwrap_or_else(|_| Utc::now());
    let mut tx = db.begin().await?;
    if !record_event(&mut *tx, envelope.event_id).await? {
        return Ok(vec![]);
    }
    let names = names_of(&mut *tx, &named).await?;
    let name = |id: Uuid| {
        names
            .iter()
            .find(|(user_id, _)| *user_id == id)
            .map_or_else(|| "Someone".to_owned(), |(_, name)| name.clone())
    };
    let mut plan = notice::plan(&envelope.event, occurred_at, name);
    // A confirmed session's email carries it as an iCalendar event.
    if let Event::BookingConfirmed { booking } = &envelope.event {
        let ics = mail::session_ics(booking, &name(booking.coach_id), public_url);
        for notice in plan.now.iter_mut().filter(|n| n.kind == Kind::BookingConfirmed) {
            notice.ics = Some(ics.clone());
        }
    }
    let rows = write(&mut tx, &plan.now, public_url).await?;
    match plan.reminder {
        Reminder::Keep => {}
        Reminder::Schedule {
            subject_id,
            due_at,
            notices,
        } => schedule_reminder(&mut *tx, subject_id, due_at, &notices).await?,
        Reminder::CallOff(subject_id) => call_off_reminder(&mut *tx, subject_id).await?,
    }
    tx.commit().await?;
    tracing::info!(
        event_id = %envelope.event_id,
        kind = event_kind(&envelope.event),
        notifications = rows.len(),
        "event applied to the inboxes"
    );
    Ok(rows)
}

fn event_kind(event: &Event) -> &'static str {
    match event {
        Event::BookingRequested { .. } => "booking_requested",
        Event::BookingConfirmed { .. } => "booking_confirmed",
        Event::BookingDenied { .. } => "booking_denied",
        Event::BookingCancelled { .. } => "booking_cancelled",
        Event::BookingExpired { .. } => "booking_expired",
        Event::BookingCompleted { .. } => "booking_completed",
        Event::BookingNoShow { .. } => "booking_no_show",
        Event::PaymentFailed { .. } => "payment_failed",
        Event::PaymentCaptured { .. } => "payment_captured",
        Event::PaymentRefunded { .. } => "payment_refunded",
        Event::ReservationRequested { .. } => "reservation_requested",
        Event::ReservationApproved { .. } => "reservation_approved",
        Event::ReservationDenied { .. } => "reservation_denied",
        Event::ReservationCancelled { .. } => "reservation_cancelled",
        Event::ReservationExpired { .. } => "reservation_expired",
        Event::UserDeleted { .. } | Event::UserRenamed { .. } | Event::RoleChanged { .. } => "user",
        Event::CoachRatingChanged { .. } => "coach_rating_changed",
        Event::ReviewPosted { .. } => "review_posted",
    }
}

/// Writes `notices` in the caller's transaction (those for people who no longer exist are left
/// out), with their emails to the mail outbox (unless their owner turned the category off;
/// links from `public_url`), and returns them as stored.
pub async fn write(
    tx: &mut PgConnection,
    notices: &[Notice],
    public_url: &str,
) -> Result<Vec<NotificationRow>, Error> {
    if notices.is_empty() {
        return Ok(vec![]);
    }
    let ids: Vec<Uuid> = notices.iter().map(|_| Uuid::new_v4()).collect();
    let rows = insert(tx, &ids, notices).await?;
    let users: Vec<Uuid> = rows.iter().map(|r| r.user_id).collect();
    let people = recipients(&mut *tx, &users).await?;
    let attachments: HashMap<Uuid, &str> = ids
        .iter()
        .zip(notices)
        .filter_map(|(id, n)| Some((*id, n.ics.as_deref()?)))
        .collect();
    let letters: Vec<mail::Letter> = rows
        .iter()
        .filter_map(|row| {
            let person = people.iter().find(|p| p.user_id == row.user_id)?;
            person.wants(&row.category).then(|| {
                let ics = attachments.get(&row.notification_id).map(|s| (*s).to_owned());
                mail::notification_letter(
                    row,
                    &person.email,
                    &person.full_name,
                    &person.role,
                    public_url,
                    ics,
                )
            })
        })
        .collect();
    mail::enqueue(tx, &letters).await?;
    Ok(rows)
}

/// Who gets a notification's email: their address, name and email preferences.
#[derive(sqlx::FromRow)]
struct Recipient {
    user_id: Uuid,
    email: String,
    full_name: String,
    role: String,
    email_bookings: bool,
    email_reminders: bool,
    email_account: bool,
}

impl Recipient {
    fn wants(&self, category: &str) -> bool {
        match category {
            c if c == Category::Reminders.as_str() => self.email_reminders,
            c if c == Category::Account.as_str() => self.email_account,
            _ => self.email_bookings,
        }
    }
}

async fn recipients(db: impl PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<Recipient>, Error> {
    Ok(sqlx::query_as::<_, Recipient>(
        "select u.user_id, u.email, u.full_name, u.role,
                coalesce(p.email_bookings, true) as email_bookings,
                coalesce(p.email_reminders, true) as email_reminders,
                coalesce(p.email_account, true) as email_account
         from identity.app_user u
         left join identity.notification_preference p on p.user_id = u.user_id
         where u.user_id = any($1)",
    )
    .bind(ids)
    .fetch_all(db)
    .await?)
}

/// Inserts the notifications (of existing people), in one statement, in the order given.
async fn insert(
    tx: &mut PgConnection,
    ids: &[Uuid],
    notices: &[Notice],
) -> Result<Vec<NotificationRow>, Error> {
    let users: Vec<Uuid> = notices.iter().map(|n| n.user_id).collect();
    let kinds: Vec<&str> = notices.iter().map(|n| n.kind.as_str()).collect();
    let categories: Vec<&str> = notices.iter().map(|n| n.kind.category().as_str()).collect();
    let titles: Vec<&str> = notices.iter().map(|n| n.title.as_str()).collect();
    let bodies: Vec<&str> = notices.iter().map(|n| n.body.as_str()).collect();
    let links: Vec<&str> = notices.iter().map(|n| n.link.as_str()).collect();
    // `ord` spaces the instants by a microsecond in the order given, so that a page lists them
    // as they were planned.
    Ok(sqlx::query_as::<_, NotificationRow>(
        "insert into identity.notification
             (notification_id, user_id, kind, category, title, body, link, created_at)
         select n.id, n.user_id, n.kind, n.category, n.title, n.body, n.link,
                clock_timestamp() + n.ord * interval '1 microsecond'
         from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
              with ordinality as n(id, user_id, kind, category, title, body, link, ord)
         join identity.app_user u on u.user_id = n.user_id
         returning notification_id, user_id, kind, category, title, body, link, created_at, read_at",
    )
    .bind(ids)
    .bind(&users)
    .bind(&kinds)
    .bind(&categories)
    .bind(&titles)
    .bind(&bodies)
    .bind(&links)
    .fetch_all(&mut *tx)
    .await?)
}

/// Records that `event_id` was applied; false when it already was.
async fn record_event(db: impl PgExecutor<'_>, event_id: Uuid) -> Result<bool, Error> {
    Ok(sqlx::query(
        "insert into identity.processed_event (event_id) values ($1) on conflict (event_id) do nothing",
    )
    .bind(event_id)
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}

async fn names_of(db: impl PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<(Uuid, String)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, String)>(
        "select user_id, full_name from identity.app_user where user_id = any($1)",
    )
    .bind(ids)
    .fetch_all(db)
    .await?)
}

/// Schedules a session's reminder, unless the session was already called off (its tombstone).
async fn schedule_reminder(
    db: impl PgExecutor<'_>,
    subject_id: Uuid,
    due_at: DateTime<Utc>,
    notices: &[Notice],
) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.reminder (subject_id, notices, due_at) values ($1, $2, $3)
         on conflict (subject_id) do nothing",
    )
    .bind(subject_id)
    .bind(sqlx::types::Json(notices))
    .bind(due_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Makes sure a session's reminder is never sent (a tombstone when it was never scheduled).
async fn call_off_reminder(db: impl PgExecutor<'_>, subject_id: Uuid) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.reminder (subject_id, notices, due_at) values ($1, '[]'::jsonb, null)
         on conflict (subject_id) do update set due_at = null",
    )
    .bind(subject_id)
    .execute(db)
    .await?;
    Ok(())
}

/// Sends every reminder due at `now`: claims them (replicas skip each other's), writes their
/// notifications and marks them sent, in one transaction. Returns the new notifications.
pub async fn send_due_reminders(
    db: &PgPool,
    now: DateTime<Utc>,
    public_url: &str,
) -> Result<Vec<NotificationRow>, Error> {
    let mut tx = db.begin().await?;
    let due: Vec<sqlx::types::Json<Vec<Notice>>> = sqlx::query_scalar(
        "update identity.reminder set due_at = null
         where subject_id in (
             select subject_id from identity.reminder
             where due_at is not null and due_at <= $1
             order by due_at limit 100
             for update skip locked)
         returning notices",
    )
    .bind(now)
    .fetch_all(&mut *tx)
    .await?;
    let notices: Vec<Notice> = due.into_iter().flat_map(|n| n.0).collect();
    let rows = write(&mut tx, &notices, public_url).await?;
    tx.commit().await?;
    if !rows.is_empty() {
        tracing::info!(notifications = rows.len(), "reminders sent");
    }
    Ok(rows)
}

/// One page of the user's inbox, newest first.
pub async fn page(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    page: &Page<Key>,
) -> Result<Vec<NotificationRow>, Error> {
    let (after_at, after_id) = page.after.map_or((None, None), |(at, id)| (Some(at), Some(id)));
    Ok(sqlx::query_as::<_, NotificationRow>(
        "select notification_id, user_id, kind, category, title, body, link, created_at, read_at
         from identity.notification
         where user_id = $1
           and ($2::timestamptz is null or (created_at, notification_id) < ($2, $3))
         order by created_at desc, notification_id desc
         limit $4",
    )
    .bind(user_id)
    .bind(after_at)
    .bind(after_id)
    .bind(page.fetch())
    .fetch_all(db)
    .await?)
}

/// How many of the user's notifications are unread.
pub async fn unread_count(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<i64, Error> {
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(*) from identity.notification where user_id = $1 and read_at is null",
    )
    .bind(user_id)
    .fetch_one(db)
    .await?)
}

/// Marks one of the user's notifications read (kept as first read); false when the user has no
/// such notification.
pub async fn mark_read(db: impl PgExecutor<'_>, user_id: Uuid, notification_id: Uuid) -> Result<bool, Error> {
    Ok(sqlx::query(
        "update identity.notification set read_at = coalesce(read_at, now())
         where notification_id = $1 and user_id = $2",
    )
    .bind(notification_id)
    .bind(user_id)
    .execute(db)
    .await?
    .rows_affected()
        == 1)
}

/// Marks every unread notification of the user read.
pub async fn mark_all_read(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<u64, Error> {
    Ok(
        sqlx::query(
            "update identity.notification set read_at = now() where user_id = $1 and read_at is null",
        )
        .bind(user_id)
        .execute(db)
        .await?
        .rows_affected(),
    )
}

/// Which categories of notification a person also gets by email.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Preferences {
    pub email_bookings: bool,
    pub email_reminders: bool,
    pub email_account: bool,
    /// Unread messages of conversations (issue 36).
    pub email_messages: bool,
}

/// The user's email preferences (all on until changed).
pub async fn preferences(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Preferences, Error> {
    Ok(sqlx::query_as::<_, Preferences>(
        "select coalesce(p.email_bookings, true) as email_bookings,
                coalesce(p.email_reminders, true) as email_reminders,
                coalesce(p.email_account, true) as email_account,
                coalesce(p.email_messages, true) as email_messages
         from (select $1::uuid as user_id) me
         left join identity.notification_preference p on p.user_id = me.user_id",
    )
    .bind(user_id)
    .fetch_one(db)
    .await?)
}

/// Sets the user's email preferences.
pub async fn set_preferences(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    p: Preferences,
) -> Result<Preferences, Error> {
    Ok(sqlx::query_as::<_, Preferences>(
        "insert into identity.notification_preference
             (user_id, email_bookings, email_reminders, email_account, email_messages)
         values ($1, $2, $3, $4, $5)
         on conflict (user_id) do update set email_bookings = excluded.email_bookings,
             email_reminders = excluded.email_reminders, email_account = excluded.email_account,
             email_messages = excluded.email_messages
         returning email_bookings, email_reminders, email_account, email_messages",
    )
    .bind(user_id)
    .bind(p.email_bookings)
    .bind(p.email_reminders)
    .bind(p.email_account)
    .bind(p.email_messages)
    .fetch_one(db)
    .await?)
}
