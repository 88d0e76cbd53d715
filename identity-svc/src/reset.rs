//! Password reset (issue 18): a forgotten password is replaced through a link sent by email,
//! `{PUBLIC_URL}/reset-password?token=…`, valid 30 minutes and once.
//!
//! Asking never tells whether the email has an account (the gateway answers 202 either way). A
//! reset replaces the password, ends every session (the token version moves, as an admin's
//! password change does) and deletes every reset token of the user, so an earlier link stops
//! working with the one used.

use chrono::Utc;
use sqlx::{PgConnection, PgExecutor, PgPool};
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

/// Writes a reset token for the account of `email`, if there is one, and its letter to the mail
/// outbox; nothing (and no error) when there is none.
pub async fn ask(db: &PgPool, email: &str, public_url: &str) -> Result<bool, Error> {
    let Some(user) = store::user_by_email(db, email.trim()).await? else {
        return Ok(false);
    };
    let token = ResetToken::generate();
    let link = format!("{public_url}/reset-password?token={}", token.as_str());
    let mut tx = db.begin().await?;
    insert_token(&mut *tx, &token, user.user_id).await?;
    mail::enqueue(
        &mut tx,
        &[mail::reset_letter(&user.email, &user.full_name, &link)],
    )
    .await?;
    tx.commit().await?;
    tracing::info!(user_id = %user.user_id, "password reset link sent");
    Ok(true)
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
