//! Password reset (issue 18): a forgotten password is replaced through a link sent by email,
//! `{PUBLIC_URL}/reset-password?token=…`, valid 30 minutes and once.
//!
//! Asking never tells whether the email has an account: the gateway answers 202 either way, and
//! the answer waits for the same work either way, one insert into `identity.reset_request`
//! ([`ask`]). The reset issuer ([`Issuer`]) turns the requests of real accounts into tokens and
//! letters moments later, and drops the others. A reset replaces the password, ends every session
//! (the token version moves, as an admin's password change does) and deletes every reset token of
//! the user, so an earlier link stops working with the one used.

use std::{future::Future, sync::Arc, time::Duration};

use chrono::Utc;
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
            let (taken, written) = issue_batch(&self.db, &self.public_url).await?;
            letters += written;
            if taken < BATCH as usize {
                return Ok(letters);
            }
        }
    }
}

/// One batch of requests, oldest first, in one transaction: (requests taken, letters written).
async fn issue_batch(db: &PgPool, public_url: &str) -> Result<(usize, usize), Error> {
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
    // One link per request: asking twice mails two links, as it always did.
    let mut letters = Vec::new();
    for email in &emails {
        let wanted = email.to_lowercase();
        let Some(user) = users.iter().find(|u| u.email.to_lowercase() == wanted) else {
            continue;
        };
        let token = ResetToken::generate();
        insert_token(&mut *tx, &token, user.user_id).await?;
        let link = format!("{public_url}/reset-password?token={}", token.as_str());
        letters.push(mail::reset_letter(&user.email, &user.full_name, &link));
        tracing::info!(user_id = %user.user_id, "password reset link sent");
    }
    mail::enqueue(&mut tx, &letters).await?;
    tx.commit().await?;
    Ok((emails.len(), letters.len()))
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

/// The password's rules, checked before the slow hash.
pub fn check_password(password: &str) -> Result<NewPassword, Error> {
    NewPassword::parse(password)
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
