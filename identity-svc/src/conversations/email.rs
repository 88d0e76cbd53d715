//! The unread-message email (issue 36): a message unread for [`UNREAD_FOR`] is emailed to its
//! reader with a link into the thread, at most once per thread per [`AT_MOST_EVERY`], unless they
//! turned the `messages` email category off. Run by a scheduler on the service's clock
//! (`Host::every`); the claim (`emailed_at`) and the letters are written in one transaction, and
//! replicas skip the rows another one holds.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use platform::clock::SharedClock;
use sqlx::PgPool;
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{
    error::Error,
    mail::{self, Letter},
};

/// How long a message stays unread before it is emailed.
pub const UNREAD_FOR: Duration = Duration::minutes(15);
/// The least time between two emails about one thread to one person.
pub const AT_MOST_EVERY: Duration = Duration::hours(1);
/// How many threads one run emails about at most.
const BATCH: i64 = 100;

const TEXT: &str = "Hi {{name}},

{{other}} sent you {{count}} on Courtside that you have not read yet.

Read and reply: {{link}}

Choose which emails you get: {{preferences}}
";
const HTML: &str = "<p>Hi {{name}},</p>
<p>{{other}} sent you {{count}} on Courtside that you have not read yet.</p>
<p><a href=\"{{link}}\">Read and reply</a></p>
<p><a href=\"{{preferences}}\">Choose which emails you get</a></p>
";

/// The scheduler's state.
#[derive(Clone)]
pub struct Unread {
    pub db: PgPool,
    pub clock: SharedClock,
    pub public_url: String,
    pub mail_wake: Arc<Notify>,
}

#[derive(sqlx::FromRow)]
struct Due {
    conversation_id: Uuid,
    email: String,
    full_name: String,
    role: String,
    other_name: Option<String>,
    unread: i64,
}

impl Unread {
    /// Emails every reader whose thread has a message unread for 15 minutes and who was not
    /// emailed about it in the last hour (nor about these messages already).
    pub async fn run_due(&self) -> Result<(), Error> {
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let due = claim(&mut tx, now).await?;
        let letters: Vec<Letter> = due.iter().map(|d| self.letter(d)).collect();
        mail::enqueue(&mut tx, &letters).await?;
        tx.commit().await?;
        if !letters.is_empty() {
            tracing::info!(emails = letters.len(), "unread messages emailed");
            self.mail_wake.notify_one();
        }
        Ok(())
    }

    fn letter(&self, due: &Due) -> Letter {
        let link = format!("{}/messages/{}", self.public_url, due.conversation_id);
        let preferences = format!("{}{}", self.public_url, mail::preferences_link(&due.role));
        let other = due
            .other_name
            .clone()
            .unwrap_or_else(|| super::DELETED_USER.to_owned());
        let count = if due.unread == 1 {
            "a message".to_owned()
        } else {
            format!("{} messages", due.unread)
        };
        let values = [
            ("name", due.full_name.as_str()),
            ("other", other.as_str()),
            ("count", count.as_str()),
            ("link", link.as_str()),
            ("preferences", preferences.as_str()),
        ];
        Letter {
            mail_id: Uuid::new_v4(),
            to: due.email.clone(),
            subject: format!("New message from {other}"),
            text: mail::render(TEXT, &values, false),
            html: mail::render(HTML, &values, true),
            ics: None,
            reset_for: None,
        }
    }
}

/// Marks the due (thread, reader) pairs emailed at `now` and returns them with what the letter
/// says, in one statement.
async fn claim(tx: &mut sqlx::PgConnection, now: DateTime<Utc>) -> Result<Vec<Due>, Error> {
    Ok(sqlx::query_as::<_, Due>(
        "with due as (
             select m.conversation_id, m.user_id, m.other_id, m.read_at, m.emailed_at
             from identity.conversation_member m
             join identity.app_user u on u.user_id = m.user_id and u.suspended_at is null
             left join identity.notification_preference p on p.user_id = m.user_id
             where coalesce(p.email_messages, true)
               and (m.emailed_at is null or m.emailed_at <= $1 - $2::interval)
               and exists (
                   select 1 from identity.message g
                   where g.conversation_id = m.conversation_id and g.sender_id <> m.user_id
                     and g.created_at <= $1 - $3::interval
                     and (m.read_at is null or g.created_at > m.read_at)
                     -- Not yet due when the last email went.
                     and (m.emailed_at is null or g.created_at > m.emailed_at - $3::interval))
             order by m.conversation_id, m.user_id
             limit $4
             for update of m skip locked
         ),
         claimed as (
             update identity.conversation_member m set emailed_at = $1
             from due where m.conversation_id = due.conversation_id and m.user_id = due.user_id
             returning m.conversation_id, m.user_id, m.other_id, due.read_at
         )
         select c.conversation_id, u.email, u.full_name, u.role, o.full_name as other_name,
                (select count(*) from identity.message g
                 where g.conversation_id = c.conversation_id and g.sender_id <> c.user_id
                   and (c.read_at is null or g.created_at > c.read_at)) as unread
         from claimed c
         join identity.app_user u on u.user_id = c.user_id
         left join identity.app_user o on o.user_id = c.other_id",
    )
    .bind(now)
    .bind(pg_interval(AT_MOST_EVERY))
    .bind(pg_interval(UNREAD_FOR))
    .bind(BATCH)
    .fetch_all(tx)
    .await?)
}

fn pg_interval(d: Duration) -> String {
    format!("{} seconds", d.num_seconds())
}
