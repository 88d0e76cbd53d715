//! Password reset (issue 18): a forgotten password is replaced through a link sent by email,
//! `{PUBLIC_URL}/reset-password#token=…`, valid 30 minutes and once. The token rides in the
//! fragment, which browsers never send: no server's access log keeps it (issue 32).
//!
//! Asking never tells whether the email has an account: the gateway answers 202 either way, and
//! the answer waits for the same work either way, one insert into `identity.reset_request`
//! ([`ask`]). The reset issuer ([`Issuer`]) turns the requests of real accounts into tokens and
//! letters moments later, and drops the others. A reset replaces the password, ends every session
//! (the token version moves, as an admin's password change does) and the calendar feed's address,
//! and deletes every reset token of the user, so an earlier link stops working with the one used.
//!
//! Limits (issue 32): at most `RESET_LETTERS_PER_EMAIL_PER_HOUR` letters go to one account in an
//! hour (the answer stays 202, the further requests are dropped); a reset looks its token up
//! before it hashes the new password, so a guessed token costs no argon2 time. Expired tokens,
//! stale requests and the records of old letters are purged on the reminder scheduler's tick
//! ([`purge_expired`]).

use std::{collections::HashMap, future::Future, sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor, PgPool};
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{
    domain::{
        NewPassword, notice,
        reset::{ResetToken, VALID_FOR},
    },
    error::Error,
    inbox::{self, NotificationRow},
    mail,
    store::{self, UserRow},
};

const NO_SUCH_LINK: &str =
    "This password reset link is invalid, was already used or has expired. Ask for a new one.";

/// Requests taken per transaction by the issuer.
const BATCH: i64 = 100;
/// How often the issuer looks for requests without being woken (another replica took them).
const POLL: Duration = Duration::from_secs(1);

/// Records a request for a reset link to `email`: the same one insert whether or not the email
/// has an account. Wake the [`Issuer`] afterwards.
pub async fn ask(db: &PgPool, email: &str) -> Result<(), Error> {
    sqlx::query("insert into identity.reset_request (email) values ($1)")
        .bind(email.trim())
        .execute(db)
        .await?;
    Ok(())
}

/// Turns the reset requests into links: a token and a letter in the mail outbox for each request
/// whose email has an account, nothing for the others. Every replica runs one; each takes its
/// batch with `for update skip locked`, so a request is answered once.
pub struct Issuer {
    pub db: PgPool,
    pub public_url: String,
    /// What [`ask`]'s caller notifies.
    pub wake: Arc<Notify>,
    /// The mail sender's, notified after letters were written.
    pub mail_wake: Arc<Notify>,
    /// The most reset letters one account gets in an hour.
    pub letters_per_hour: u32,
}

impl Issuer {
    /// Issues until `shutdown` resolves: at once when woken, else every [`POLL`].
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        tokio::pin!(shutdown);
        loop {
            match self.issue_waiting().await {
                Ok(0) => {}
                Ok(_) => self.mail_wake.notify_one(),
                Err(error) => tracing::warn!(%error, "reset requests not issued; will retry"),
            }
            tokio::select! {
                () = &mut shutdown => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// Issues batches until no request waits; returns how many letters were written.
    pub async fn issue_waiting(&self) -> Result<usize, Error> {
        let mut letters = 0;
        loop {
            let (taken, written) = issue_batch(&self.db, &self.public_url, self.letters_per_hour).await?;
            letters += written;
            if taken < BATCH as usize {
                return Ok(letters);
            }
        }
    }
}

/// One batch of requests, oldest first, in one transaction: (requests taken, letters written).
async fn issue_batch(db: &PgPool, public_url: &str, per_hour: u32) -> Result<(usize, usize), Error> {
    let mut tx = db.begin().await?;
    let emails: Vec<String> = sqlx::query_scalar(
        "delete from identity.reset_request where request_id in (
             select request_id from identity.reset_request
             order by request_id limit $1 for update skip locked)
         returning email",
    )
    .bind(BATCH)
    .fetch_all(&mut *tx)
    .await?;
    let users = store::users_by_emails(&mut *tx, &emails).await?;
    let ids: Vec<Uuid> = users.iter().map(|u| u.user_id).collect();
    let mut sent = letters_last_hour(&mut *tx, &ids).await?;
    // One link per request, up to the hourly limit per account.
    let mut letters = Vec::new();
    for email in &emails {
        let wanted = email.to_lowercase();
        let Some(user) = users.iter().find(|u| u.email.to_lowercase() == wanted) else {
            continue;
        };
        let count = sent.entry(user.user_id).or_insert(0);
        if *count >= i64::from(per_hour) {
            tracing::info!(user_id = %user.user_id, "password reset letter not sent: hourly limit reached");
            continue;
        }
        *count += 1;
        let token = ResetToken::generate();
        insert_token(&mut *tx, &token, user.user_id).await?;
        let link = format!("{public_url}/reset-password#token={}", token.as_str());
        letters.push(mail::reset_letter(
            &user.email,
            &user.full_name,
            &link,
            user.user_id,
        ));
        tracing::info!(user_id = %user.user_id, "password reset link sent");
    }
    mail::enqueue(&mut tx, &letters).await?;
    tx.commit().await?;
    Ok((emails.len(), letters.len()))
}

/// How many reset letters each of `users` was written in the last hour.
async fn letters_last_hour(db: impl PgExecutor<'_>, users: &[Uuid]) -> Result<HashMap<Uuid, i64>, Error> {
    let rows: Vec<(Uuid, i64)> = sqlx::query_as(
        "select reset_for, count(*) from identity.mail
         where reset_for = any($1) and created_at > now() - interval '1 hour'
         group by reset_for",
    )
    .bind(users)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().collect())
}

/// Deletes what no longer serves, as of `now`: reset tokens past their time, requests the issuers
/// never took within a day, and the records of reset letters older than the hourly limit looks
/// back (their links are long dead; an unsent one would carry a link that no longer works).
pub async fn purge_expired(db: &PgPool, now: DateTime<Utc>) -> Result<u64, Error> {
    let tokens = sqlx::query("delete from identity.password_reset where expires_at <= $1")
        .bind(now)
        .execute(db)
        .await?
        .rows_affected();
    let requests = sqlx::query("delete from identity.reset_request where asked_at <= $1 - interval '1 day'")
        .bind(now)
        .execute(db)
        .await?
        .rows_affected();
    let letters = sqlx::query(
        "delete from identity.mail where reset_for is not null and created_at <= $1 - interval '1 hour'",
    )
    .bind(now)
    .execute(db)
    .await?
    .rows_affected();
    Ok(tokens + requests + letters)
}

/// The account a reset token opens, while it is valid: looked up before the new password is
/// checked or hashed, so a wrong token costs one indexed read.
pub async fn token_owner(db: &PgPool, token: &str) -> Result<UserRow, Error> {
    let token = ResetToken::parse(token).ok_or_else(|| Error::Invalid(NO_SUCH_LINK.into()))?;
    let user_id: Option<Uuid> = sqlx::query_scalar(
        "select user_id from identity.password_reset where token_hash = $1 and expires_at > now()",
    )
    .bind(token.hash())
    .fetch_optional(db)
    .await?;
    let user = match user_id {
        Some(user_id) => store::user_by_id(db, user_id).await?,
        None => None,
    };
    user.ok_or_else(|| Error::Invalid(NO_SUCH_LINK.into()))
}

/// Replaces the password of the token's user with `password` (already hashed as `hash`) and ends
/// their sessions; the new notification to announce comes back with the user.
pub async fn reset(
    db: &PgPool,
    token: &str,
    hash: &str,
    public_url: &str,
) -> Result<(UserRow, Vec<NotificationRow>), Error> {
    let token = ResetToken::parse(token).ok_or_else(|| Error::Invalid(NO_SUCH_LINK.into()))?;
    let mut tx = db.begin().await?;
    let user_id = take_token(&mut *tx, &token)
        .await?
        .ok_or_else(|| Error::Invalid(NO_SUCH_LINK.into()))?;
    delete_tokens_of(&mut *tx, user_id).await?;
    let user = set_password(&mut tx, user_id, hash).await?;
    // The calendar feed's address ends with the sessions.
    crate::feeds::close(&mut *tx, user_id).await?;
    let rows = inbox::write(
        &mut tx,
        &[notice::password_changed(user.user_id, &user.role)],
        public_url,
    )
    .await?;
    tx.commit().await?;
    tracing::info!(%user_id, "password reset");
    Ok((user, rows))
}

/// The password's rules for `user`, checked before the slow hash.
pub fn check_password(password: &str, user: &UserRow) -> Result<NewPassword, Error> {
    NewPassword::parse(password, &[&user.email, &user.full_name])
}

async fn insert_token(db: impl PgExecutor<'_>, token: &ResetToken, user_id: Uuid) -> Result<(), Error> {
    sqlx::query("insert into identity.password_reset (token_hash, user_id, expires_at) values ($1, $2, $3)")
        .bind(token.hash())
        .bind(user_id)
        .bind(Utc::now() + VALID_FOR)
        .execute(db)
        .await?;
    Ok(())
}

/// Deletes the token, answering its user when it was still valid (of two concurrent uses, one
/// gets it).
async fn take_token(db: impl PgExecutor<'_>, token: &ResetToken) -> Result<Option<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "delete from identity.password_reset where token_hash = $1 and expires_at > now()
         returning user_id",
    )
    .bind(token.hash())
    .fetch_optional(db)
    .await?)
}

async fn delete_tokens_of(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<u64, Error> {
    Ok(
        sqlx::query("delete from identity.password_reset where user_id = $1")
            .bind(user_id)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

async fn set_password(tx: &mut PgConnection, user_id: Uuid, hash: &str) -> Result<UserRow, Error> {
    store::update_user(
        tx,
        user_id,
        store::UserUpdate {
            email: None,
            full_name: None,
            phone: &crate::domain::PhoneChange::Keep,
            role: None,
            password_hash: Some(hash),
            bump_token_version: true,
        },
    )
    .await
}
