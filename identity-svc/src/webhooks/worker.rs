//! The delivery worker. Each replica runs it every `WEBHOOK_INTERVAL_MS` and at once when a
//! fan-out, a replay or a test wakes it. A run claims due deliveries (pending, `next_attempt_at`
//! reached, no live lease, its webhook enabled, and no older pending delivery of the same record
//! to the same webhook, so one record's events arrive in order) with `for update skip locked`,
//! leases them for [`lease`] and commits; POSTs each outside any transaction (concurrently: a
//! claimed batch holds at most one delivery per record and webhook); then records the attempt in
//! one transaction per delivery. A worker that dies mid-way leaves its deliveries leased; once
//! the lease lapses another worker sends them again (at least once, with the same `webhook-id`).
//!
//! A failed attempt is tried again after 5 s × 2^(attempts − 1), at most an hour, until three
//! days after the delivery was made; then it is `failed`. A webhook whose attempts have failed,
//! with no success since, for a day is disabled and its owner emailed (once per disabling).

use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use futures::{FutureExt, StreamExt, stream};
use platform::host::Shutdown;
use reqwest::Url;
use uuid::Uuid;

use super::{Webhooks, guard, signing};
use crate::{error::Error, mail};

/// Deliveries claimed at a time.
const BATCH: i64 = 20;
/// Claims per run at most.
const ROUNDS: usize = 20;
/// Deliveries of one batch in flight at once.
const CONCURRENCY: usize = 8;
/// The first pause after a failed attempt, doubled after each, at most [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::seconds(5);
const MAX_PAUSE: Duration = Duration::hours(1);
/// How long a delivery is retried.
pub const GIVE_UP_AFTER: Duration = Duration::days(3);
/// How long a webhook may fail before it is disabled.
pub const DISABLE_AFTER: Duration = Duration::hours(24);

/// How long a claim keeps other workers off a delivery: well beyond one attempt's timeout.
fn lease(timeout: StdDuration) -> Duration {
    Duration::from_std(timeout * 4)
        .unwrap_or(Duration::minutes(1))
        .max(Duration::minutes(1))
}

/// The pause after the `attempts`-th failed attempt.
pub fn pause_after(attempts: i32) -> Duration {
    let doublings = u32::try_from(attempts.saturating_sub(1)).unwrap_or(0).min(20);
    (FIRST_PAUSE * 2i32.pow(doublings)).min(MAX_PAUSE)
}

#[derive(sqlx::FromRow)]
struct Claimed {
    delivery_id: Uuid,
    webhook_id: Uuid,
    event_id: Uuid,
    payload: String,
    attempts: i32,
    created_at: DateTime<Utc>,
    url: String,
    secret: String,
    previous_secret: Option<String>,
    previous_valid_until: Option<DateTime<Utc>>,
}

/// What one attempt came to.
struct Outcome {
    status_code: Option<i32>,
    latency_ms: i64,
    /// Empty when the receiver answered 2xx.
    error: String,
}

impl Webhooks {
    /// Runs the worker until `shutdown`: at once, then whenever woken or every interval. A round
    /// under way when `shutdown` comes is finished (at most one attempt's timeout), so what it
    /// sent is recorded rather than left leased; no round starts after it.
    pub async fn run(self, shutdown: Shutdown) {
        loop {
            if let Err(error) = self.rounds(Some(&shutdown)).await {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "the webhook worker failed; retrying next tick"
                );
            }
            tokio::select! {
                () = shutdown.clone() => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(self.settings.interval) => {}
            }
        }
    }

    /// Delivers what is due now, round after round until none is left or `shutdown` came;
    /// returns how many attempts were made.
    async fn rounds(&self, shutdown: Option<&Shutdown>) -> Result<usize, Error> {
        let mut made = 0;
        for _ in 0..ROUNDS {
            if shutdown.is_some_and(|s| s.clone().now_or_never().is_some()) {
                break;
            }
            let now = self.clock.now();
            let claimed = self.claim(now).await?;
            if claimed.is_empty() {
                break;
            }
            made += claimed.len();
            let results: Vec<Result<(), Error>> = stream::iter(claimed)
                .map(|d| async move {
                    let outcome = self.attempt(&d, now).await;
                    self.record(&d, outcome, self.clock.now()).await
                })
                .buffer_unordered(CONCURRENCY)
                .collect()
                .await;
            results.into_iter().collect::<Result<Vec<()>, Error>>()?;
        }
        Ok(made)
    }

    async fn claim(&self, now: DateTime<Utc>) -> Result<Vec<Claimed>, Error> {
        Ok(sqlx::query_as::<_, Claimed>(
            "update identity.webhook_delivery d set lease_until = $2
             from (select c.delivery_id from identity.webhook_delivery c
                   join identity.webhook cw on cw.webhook_id = c.webhook_id
                   where c.status = 'pending' and c.next_attempt_at <= $1
                     and (c.lease_until is null or c.lease_until <= $1)
                     and cw.enabled
                     and not exists (select 1 from identity.webhook_delivery o
                                     where o.webhook_id = c.webhook_id and o.record_key = c.record_key
                                       and o.status = 'pending' and o.seq < c.seq)
                   order by c.seq
                   limit $3
                   for update of c skip locked) due,
                  identity.webhook w
             where d.delivery_id = due.delivery_id and w.webhook_id = d.webhook_id
             returning d.delivery_id, d.webhook_id, d.event_id, d.payload::text as payload,
                       d.attempts, d.created_at, w.url, w.secret, w.previous_secret,
                       w.previous_valid_until",
        )
        .bind(now)
        .bind(now + lease(self.settings.timeout))
        .bind(BATCH)
        .fetch_all(&self.db)
        .await?)
    }

    /// POSTs `d`, signed, once.
    async fn attempt(&self, d: &Claimed, now: DateTime<Utc>) -> Outcome {
        let refused = |error: &str| Outcome {
            status_code: None,
            latency_ms: 0,
            error: error.to_owned(),
        };
        let allow_loopback = self.settings.allow_loopback;
        let Ok(url) = Url::parse(&d.url) else {
            return refused("the URL is not valid");
        };
        if !(url.scheme() == "https" || (url.scheme() == "http" && allow_loopback)) {
            return refused("refused: webhooks are only sent over HTTPS");
        }
        if !guard::literal_allowed(&url, allow_loopback) {
            return refused("refused: the address is not public");
        }
        let id = d.event_id.to_string();
        let timestamp = now.timestamp();
        let mut secrets = vec![d.secret.as_str()];
        if let (Some(previous), Some(until)) = (&d.previous_secret, d.previous_valid_until)
            && until > now
        {
            secrets.push(previous.as_str());
        }
        let signature = signing::header(&secrets, &id, timestamp, d.payload.as_bytes());
        let started = Instant::now();
        let sent = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header("user-agent", "Courtside-Webhooks/1")
            .header("webhook-id", &id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(d.payload.clone())
            .send()
            .await;
        let latency_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
        match sent {
            Ok(answer) => {
                let status = answer.status();
                Outcome {
                    status_code: Some(i32::from(status.as_u16())),
                    latency_ms,
                    error: if status.is_success() {
                        String::new()
                    } else if status.is_redirection() {
                        format!("the receiver answered {status} (redirects are not followed)")
                    } else {
                        format!("the receiver answered {status}")
                    },
                }
            }
            Err(e) => Outcome {
                status_code: None,
                latency_ms,
                error: if e.is_timeout() {
                    format!("no answer within {} ms", self.settings.timeout.as_millis())
                } else {
                    chain(&e)
                },
            },
        }
    }

    /// Records `outcome` of `d`'s attempt and what follows from it, in one transaction.
    async fn record(&self, d: &Claimed, outcome: Outcome, now: DateTime<Utc>) -> Result<(), Error> {
        let mut tx = self.db.begin().await?;
        // Its webhook may have been deleted meanwhile (and the delivery with it).
        let still_there =
            sqlx::query("select 1 from identity.webhook_delivery where delivery_id = $1 for update")
                .bind(d.delivery_id)
                .fetch_optional(&mut *tx)
                .await?;
        if still_there.is_none() {
            return Ok(());
        }
        sqlx::query(
            "insert into identity.webhook_attempt (delivery_id, attempted_at, status_code, latency_ms, error)
             values ($1, $2, $3, $4, $5)",
        )
        .bind(d.delivery_id)
        .bind(now)
        .bind(outcome.status_code)
        .bind(outcome.latency_ms)
        .bind(&outcome.error)
        .execute(&mut *tx)
        .await?;
        let attempts = d.attempts + 1;
        if outcome.error.is_empty() {
            sqlx::query(
                "update identity.webhook_delivery
                 set status = 'delivered', attempts = $2, next_attempt_at = null, lease_until = null
                 where delivery_id = $1",
            )
            .bind(d.delivery_id)
            .bind(attempts)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "update identity.webhook set failing_since = null
                 where webhook_id = $1 and failing_since is not null",
            )
            .bind(d.webhook_id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            return Ok(());
        }
        let give_up = now >= d.created_at + GIVE_UP_AFTER;
        sqlx::query(
            "update identity.webhook_delivery
             set attempts = $2, lease_until = null,
                 status = case when $3 then 'failed' else 'pending' end,
                 next_attempt_at = case when $3 then null else $4 end
             where delivery_id = $1",
        )
        .bind(d.delivery_id)
        .bind(attempts)
        .bind(give_up)
        .bind(now + pause_after(attempts))
        .execute(&mut *tx)
        .await?;
        let reason = format!(
            "its deliveries have failed for a day (the last one: {}).",
            outcome.error
        );
        // Failing since the first failure with no success after it; a day of that disables it.
        let (failing_since, enabled): (DateTime<Utc>, bool) = sqlx::query_as(
            "update identity.webhook set failing_since = coalesce(failing_since, $2)
             where webhook_id = $1
             returning failing_since, enabled",
        )
        .bind(d.webhook_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        let mut disabled: Option<(String, String, String, String)> = None;
        if enabled && failing_since <= now - DISABLE_AFTER {
            disabled = sqlx::query_as(
                "update identity.webhook w set enabled = false, disabled_reason = $2
                 from identity.app_user u
                 where w.webhook_id = $1 and w.enabled and u.user_id = w.user_id
                 returning u.email, u.full_name, u.role, w.url",
            )
            .bind(d.webhook_id)
            .bind(&reason)
            .fetch_optional(&mut *tx)
            .await?;
        }
        if let Some((email, name, role, url)) = &disabled {
            let letter = mail::webhook_disabled_letter(email, name, role, url, &reason, &self.public_url);
            mail::enqueue(&mut tx, &[letter]).await?;
        }
        tx.commit().await?;
        if disabled.is_some() {
            tracing::info!(webhook_id = %d.webhook_id, "a webhook failing for a day was disabled");
            self.mail_wake.notify_one();
        }
        Ok(())
    }
}

/// An error and its causes, for the delivery log (the resolver's refusal is among the causes).
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_doubles_from_five_seconds_to_an_hour() {
        assert_eq!(pause_after(1), Duration::seconds(5));
        assert_eq!(pause_after(2), Duration::seconds(10));
        assert_eq!(pause_after(3), Duration::seconds(20));
        assert_eq!(pause_after(10), Duration::seconds(2560));
        assert_eq!(pause_after(11), Duration::hours(1));
        assert_eq!(pause_after(500), Duration::hours(1));
    }
}
