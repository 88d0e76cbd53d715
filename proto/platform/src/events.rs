//! Facts the contexts publish and the others react to: identity's about users, booking's about
//! bookings, gym's about court reservations.
//!
//! The owning service writes each [`Envelope`] to its transactional outbox in the same transaction
//! as the change, and a relay appends it to the Redis stream ([`stream_key`]) (at least once). Each
//! consuming service reads the stream in its own consumer group with [`consume`], and must be
//! idempotent: it records the `event_id`s it has applied in its own schema.

use std::{
    future::Future,
    time::{Duration, Instant},
};

use redis::{
    AsyncCommands, RedisResult,
    streams::{StreamAutoClaimOptions, StreamAutoClaimReply, StreamReadOptions, StreamReadReply},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::auth::Role;

/// The Redis stream every event goes to, under a key namespace (`REDIS_NAMESPACE`, default
/// `courtside`; tests use a namespace each so they never see one another's events).
pub fn stream_key(namespace: &str) -> String {
    format!("{namespace}:events")
}
/// The field of a stream entry that holds the JSON envelope.
pub const FIELD: &str = "event";

/// A fact about a user, a booking or a court reservation. Every transition of a booking or a
/// reservation, by a person or by the clock, is one of these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    UserDeleted {
        user_id: Uuid,
        role: Role,
    },
    UserRenamed {
        user_id: Uuid,
        full_name: String,
    },
    RoleChanged {
        user_id: Uuid,
        old_role: Role,
        new_role: Role,
    },
    BookingRequested {
        booking: BookingFact,
    },
    BookingConfirmed {
        booking: BookingFact,
    },
    BookingDenied {
        booking: BookingFact,
    },
    BookingCancelled {
        booking: BookingFact,
        by: Party,
        reason: Option<String>,
        /// A client's cancel inside the coach's cancellation window.
        late: bool,
    },
    /// Nobody answered a pending booking within the coach's response window (or before it began).
    BookingExpired {
        booking: BookingFact,
    },
    /// A confirmed booking reached its end.
    BookingCompleted {
        booking: BookingFact,
    },
    BookingNoShow {
        booking: BookingFact,
    },
    /// The hold of a booking's price was declined (or its card is gone): the client is asked to
    /// fix their card; the booking is released if it is still unpaid a day before it starts.
    PaymentFailed {
        booking: BookingFact,
        /// What the provider said, for the client.
        reason: String,
    },
    /// Money was captured for a booking (the session, or a late-cancellation or no-show fee): a
    /// receipt.
    PaymentCaptured {
        booking: BookingFact,
        amount_cents: i64,
        currency: String,
    },
    /// An admin refunded part or all of what a booking's client paid.
    PaymentRefunded {
        booking: BookingFact,
        amount_cents: i64,
        currency: String,
        reason: String,
    },
    ReservationRequested {
        reservation: ReservationFact,
    },
    ReservationApproved {
        reservation: ReservationFact,
    },
    ReservationDenied {
        reservation: ReservationFact,
        reason: Option<String>,
    },
    ReservationCancelled {
        reservation: ReservationFact,
        by: Party,
        reason: Option<String>,
    },
    /// A pending request nobody answered before its start.
    ReservationExpired {
        reservation: ReservationFact,
    },
    /// A client posted a review of a session that took place (issue 37's `review.posted`). Its
    /// edits and hiding change only the coach's figures ([`Event::CoachRatingChanged`]). A
    /// consumer built before this variant skips it as unreadable, which none of them needs.
    ReviewPosted {
        review: ReviewFact,
    },
    /// A coach's reviews changed (one posted, edited or hidden): the figures of their reviews that
    /// count now. `revision` grows with every change of one coach's reviews, so a consumer keeps
    /// the figures of the highest revision it has seen, whatever order they arrive in.
    CoachRatingChanged {
        coach_id: Uuid,
        rating_count: i64,
        rating_sum: i64,
        /// How many of the reviews gave one star, two, … five.
        #[serde(default)]
        stars: [i64; 5],
        revision: i64,
    },
}

/// Who did something to a booking or a reservation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Party {
    Client,
    Coach,
    Gym,
}

/// What every booking event says about the booking: enough for a notification or a calendar entry
/// without a call back to booking-svc.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BookingFact {
    pub booking_id: Uuid,
    pub coach_id: Uuid,
    pub client_id: Uuid,
    /// The place's wall clock: `YYYY-MM-DD`, `HH:MM`, `HH:MM`.
    pub booking_date: String,
    pub start_time: String,
    pub end_time: String,
    /// IANA name of the place's zone.
    pub time_zone: String,
    /// RFC 3339, UTC.
    pub starts_at: String,
    pub ends_at: String,
    pub location_name: String,
    /// The booking this one replaces, when a reschedule made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rescheduled_from: Option<Uuid>,
    /// The booking that replaced this one, when a reschedule cancelled it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rescheduled_to: Option<Uuid>,
}

/// What a posted review says, as the API shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewFact {
    pub review_id: Uuid,
    pub booking_id: Uuid,
    pub coach_id: Uuid,
    pub client_id: Uuid,
    /// 1 to 5 stars.
    pub rating: i16,
    pub comment: Option<String>,
    /// RFC 3339, UTC.
    pub created_at: String,
}

/// What every reservation event says about the reservation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReservationFact {
    pub reservation_id: Uuid,
    pub coach_id: Uuid,
    pub gym_id: Uuid,
    pub gym_name: String,
    pub location_name: String,
    pub court_name: String,
    /// The place's wall clock: `YYYY-MM-DD`, `HH:MM`, `HH:MM`.
    pub date: String,
    pub start_time: String,
    pub end_time: String,
    /// IANA name of the place's zone.
    pub time_zone: String,
    /// RFC 3339, UTC.
    pub starts_at: String,
    pub ends_at: String,
}

/// What a consumer's handling of one event did to its own data: whether what it serves changed
/// (then its change stamp is renewed, `platform::host`). Most events of the shared stream concern
/// another context and change nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The event changed the consumer's data.
    Changed,
    /// Not for this consumer, already applied, or nothing to do.
    Nothing,
}

/// An event with the id consumers de-duplicate on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    pub event_id: Uuid,
    /// RFC 3339, UTC.
    pub occurred_at: String,
    #[serde(flatten)]
    pub event: Event,
}

/// Appends one envelope to the stream.
pub async fn publish(conn: &mut impl AsyncCommands, stream: &str, envelope: &Envelope) -> RedisResult<()> {
    let json = serde_json::to_string(envelope).expect("an envelope serializes");
    let _: String = conn.xadd(stream, "*", &[(FIELD, json)]).await?;
    Ok(())
}

/// How long an entry may sit unacknowledged with one consumer of a group before another consumer
/// of the group takes it over: long enough that a live consumer, which re-reads (and so renews) its
/// own failed entries every half second, never loses one; short enough that what a replica was
/// handed before it went away for good (a pod replaced under another name) is applied soon after.
pub const CLAIM_AFTER: Duration = Duration::from_secs(30);

/// One replica's place in a consumer group of the event stream.
#[derive(Clone, Debug)]
pub struct Consumer {
    pub stream: String,
    pub group: String,
    /// This replica's name in the group.
    pub name: String,
    /// See [`CLAIM_AFTER`].
    pub claim_after: Duration,
}

impl Consumer {
    /// `service` reading the stream of `namespace` in the group named after it, under a name that
    /// is stable across restarts of one host or pod (so what it was handed but never acknowledged
    /// is read again when it comes back) and distinct between hosts.
    pub fn new(namespace: &str, service: &str) -> Self {
        let host = std::env::var("HOSTNAME").ok().filter(|h| !h.trim().is_empty());
        Self {
            stream: stream_key(namespace),
            group: service.to_owned(),
            name: match host {
                Some(host) => format!("{service}@{host}"),
                None => service.to_owned(),
            },
            claim_after: CLAIM_AFTER,
        }
    }
}

/// Reads the stream as `consumer` for ever, calling `handle` for each envelope and acknowledging
/// it only once `handle` succeeded, so a failed or interrupted delivery is retried. Entries another
/// consumer of the group was handed and left unacknowledged for [`Consumer::claim_after`] are taken
/// over and handled here. Redis being down is waited out with a back-off; nothing is lost.
pub async fn consume<F, Fut, E>(client: redis::Client, consumer: &Consumer, mut handle: F)
where
    F: FnMut(Envelope) -> Fut,
    Fut: Future<Output = Result<(), E>>,
    E: std::fmt::Display,
{
    let mut backoff = Duration::from_millis(100);
    loop {
        match consume_once(&client, consumer, &mut handle).await {
            Ok(()) => backoff = Duration::from_millis(100),
            Err(error) => {
                tracing::warn!(%error, group = consumer.group, "event stream unavailable; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

async fn consume_once<F, Fut, E>(
    client: &redis::Client,
    consumer: &Consumer,
    handle: &mut F,
) -> RedisResult<()>
where
    F: FnMut(Envelope) -> Fut,
    Fut: Future<Output = Result<(), E>>,
    E: std::fmt::Display,
{
    let Consumer {
        stream,
        group,
        name,
        claim_after,
    } = consumer;
    let mut conn = client.get_multiplexed_async_connection().await?;
    let created: RedisResult<()> = conn.xgroup_create_mkstream(stream, group, "0").await;
    if let Err(e) = created
        && e.code() != Some("BUSYGROUP")
    {
        return Err(e);
    }
    let claim_every = *claim_after / 2;
    let mut claimed_at: Option<Instant> = None;
    // First what was delivered to this consumer but never acknowledged, then new entries, with
    // what others abandoned taken over every half `claim_after`.
    let mut cursor = "0".to_owned();
    loop {
        let mut entries = Vec::new();
        if cursor == ">" && claimed_at.is_none_or(|at| at.elapsed() >= claim_every) {
            claimed_at = Some(Instant::now());
            let idle_ms = usize::try_from(claim_after.as_millis()).unwrap_or(usize::MAX);
            let options = StreamAutoClaimOptions::default().count(100);
            let reply: StreamAutoClaimReply = conn
                .xautoclaim_options(stream, group, name, idle_ms, "0-0", options)
                .await?;
            if !reply.claimed.is_empty() {
                tracing::info!(
                    count = reply.claimed.len(),
                    group,
                    "took over events another consumer left"
                );
            }
            entries = reply.claimed;
        }
        if entries.is_empty() {
            let options = StreamReadOptions::default()
                .group(group, name)
                .count(100)
                .block(2000);
            let reply: StreamReadReply = conn
                .xread_options(&[stream], &[cursor.as_str()], &options)
                .await?;
            entries = reply.keys.into_iter().flat_map(|k| k.ids).collect();
            if entries.is_empty() && cursor == "0" {
                cursor = ">".to_owned();
                continue;
            }
        }
        for entry in entries {
            let envelope = entry
                .get::<String>(FIELD)
                .and_then(|json| serde_json::from_str::<Envelope>(&json).ok());
            match envelope {
                Some(envelope) => {
                    if let Err(error) = handle(envelope).await {
                        tracing::warn!(%error, id = %entry.id, "event handling failed; will retry");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        // Re-read this consumer's pending entries, starting with this one.
                        cursor = "0".to_owned();
                        break;
                    }
                }
                None => tracing::error!(id = %entry.id, "unreadable event skipped"),
            }
            let _: i64 = conn.xack(stream, group, &[&entry.id]).await?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_envelope_round_trips_as_flat_json() {
        let envelope = Envelope {
            event_id: Uuid::nil(),
            occurred_at: "2026-01-01T00:00:00Z".into(),
            event: Event::UserRenamed {
                user_id: Uuid::nil(),
                full_name: "Ann".into(),
            },
        };
        let json = serde_json::to_value(&envelope).unwrap();
        assert_eq!(json["type"], "user_renamed");
        assert_eq!(json["full_name"], "Ann");
        assert_eq!(serde_json::from_value::<Envelope>(json).unwrap(), envelope);
    }
}
