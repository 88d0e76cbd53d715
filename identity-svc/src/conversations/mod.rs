//! Conversations (issue 36): threads between two people, their messages and read state, kept
//! beside the notifications because identity holds people and how to reach them.
//!
//! Who may talk: a client may write to any coach; a coach to a client they share a booking with;
//! a coach and a gym when they share a court request. Who shares what is a copy identity keeps
//! from the booking and reservation events it already consumes ([`record_shared`]): one row per
//! booking or court request, with its latest status. Other contexts never read these tables.
//!
//! Live: each new message is published on identity's notifications channel as
//! `{"user_id", "kind": "message", "message": {conversation_id, message}}`, once for the recipient
//! and once for the sender's other tabs; the gateways push it down the owner's open streams as an
//! SSE event named `message` (gateway/src/live.rs).
//!
//! Retention: a thread and its messages are kept for now as long as identity is (a deleted
//! account's messages stay, its name reading "Deleted user"). Issue 36 asks that they be kept as
//! long as the thread's bookings are; booking-svc states no retention yet, so nothing deletes
//! them — a purge by the newest shared record's date belongs here when it does.

pub mod email;
pub mod safety;
pub mod store;

use chrono::{DateTime, Utc};
use platform::{
    auth::Role,
    events::{Envelope, Event},
    redis_link::RedisLink,
};
use serde::Serialize;
use uuid::Uuid;

use crate::error::Error;

/// The most characters of a message.
pub const MAX_BODY: usize = 2000;
/// The most shared records a conversation shows.
pub const SHARED_SHOWN: i64 = 20;
/// Why a suspended account cannot sign in (or use its API tokens).
pub const SUSPENDED: &str =
    "This account is suspended after a report. Write to support if you think this is a mistake.";
/// The name a deleted account's messages read.
pub const DELETED_USER: &str = "Deleted user";

/// The two ids of a pair, the lesser first (the key of one thread per pair).
pub fn pair(one: Uuid, two: Uuid) -> (Uuid, Uuid) {
    if one < two { (one, two) } else { (two, one) }
}

/// What allows two people to talk, as the rules say it: `Ok` or the detail of a 403.
pub fn may_start(
    me: Role,
    other: Role,
    shares_booking: bool,
    shares_court_request: bool,
) -> Result<(), Error> {
    let refuse = |why: &str| Err(Error::Forbidden(why.to_owned()));
    match (me, other) {
        (Role::Client, Role::Coach) => Ok(()),
        (Role::Coach, Role::Client) if shares_booking => Ok(()),
        (Role::Coach, Role::Client) => refuse("You can message a client once they have booked with you."),
        (Role::Coach, Role::Gym) | (Role::Gym, Role::Coach) if shares_court_request => Ok(()),
        (Role::Coach, Role::Gym) => {
            refuse("You can message a gym once you have requested one of its courts.")
        }
        (Role::Gym, Role::Coach) => {
            refuse("You can message a coach once they have requested one of your courts.")
        }
        (Role::Admin, _) => {
            refuse("An admin cannot take part in conversations; reported messages are in the reports list.")
        }
        (_, Role::Admin) => refuse("Admins cannot be messaged here; use the reports to reach them."),
        (Role::Client, Role::Client) => refuse("Clients cannot message each other."),
        (Role::Client, Role::Gym) | (Role::Gym, Role::Client) => {
            refuse("Clients and gyms cannot message each other; talk through your coach.")
        }
        (Role::Coach, Role::Coach) | (Role::Gym, Role::Gym) => {
            refuse("You can only message clients, coaches or gyms you work with.")
        }
    }
}

/// A message's body as it is kept: trimmed, 1 to [`MAX_BODY`] characters.
pub fn body(raw: &str) -> Result<String, Error> {
    let body = raw.trim();
    if body.is_empty() {
        return Err(Error::Invalid("Write a message first.".into()));
    }
    let chars = body.chars().count();
    if chars > MAX_BODY {
        return Err(Error::Invalid(format!(
            "A message holds at most {MAX_BODY} characters; this one has {chars}."
        )));
    }
    Ok(body.to_owned())
}

/// A booking or court request as one of its events tells it.
struct Told<'a> {
    kind: &'static str,
    id: Uuid,
    one: Uuid,
    two: Uuid,
    when: (&'a str, &'a str, &'a str),
    status: &'static str,
}

/// What `event` tells of a booking or court request; payment and review events change no status.
fn told(event: &Event) -> Option<Told<'_>> {
    let (fact, status) = match event {
        Event::BookingRequested { booking } => (Ok(booking), "requested"),
        Event::BookingConfirmed { booking } => (Ok(booking), "confirmed"),
        Event::BookingDenied { booking } => (Ok(booking), "denied"),
        Event::BookingCancelled { booking, .. } => (Ok(booking), "cancelled"),
        Event::BookingExpired { booking } => (Ok(booking), "expired"),
        Event::BookingCompleted { booking } => (Ok(booking), "completed"),
        Event::BookingNoShow { booking } => (Ok(booking), "no_show"),
        Event::ReservationRequested { reservation } => (Err(reservation), "requested"),
        Event::ReservationApproved { reservation } => (Err(reservation), "approved"),
        Event::ReservationDenied { reservation, .. } => (Err(reservation), "denied"),
        Event::ReservationCancelled { reservation, .. } => (Err(reservation), "cancelled"),
        Event::ReservationExpired { reservation } => (Err(reservation), "expired"),
        _ => return None,
    };
    Some(match fact {
        Ok(b) => Told {
            kind: "booking",
            id: b.booking_id,
            one: b.coach_id,
            two: b.client_id,
            when: (&b.booking_date, &b.start_time, &b.end_time),
            status,
        },
        Err(r) => Told {
            kind: "court_request",
            id: r.reservation_id,
            one: r.coach_id,
            two: r.gym_id,
            when: (&r.date, &r.start_time, &r.end_time),
            status,
        },
    })
}

/// Keeps the booking or court request an event tells of (idempotent: the newest event wins,
/// whatever order they arrive in; a redelivery changes nothing).
pub async fn record_shared(db: &sqlx::PgPool, envelope: &Envelope) -> Result<(), Error> {
    let Some(told) = told(&envelope.event) else {
        return Ok(());
    };
    let occurred_at = DateTime::parse_from_rfc3339(&envelope.occurred_at)
        .map(|t| t.to_utc())
        .unwrap_or_else(|_| Utc::now());
    let (a, b) = pair(told.one, told.two);
    store::upsert_shared(db, told.kind, told.id, a, b, told.when, told.status, occurred_at).await
}

/// A message as the API shows it (and as the live channel carries it).
#[derive(Clone, Debug, Serialize)]
pub struct ShownMessage {
    pub message_id: Uuid,
    pub conversation_id: Uuid,
    pub sender: ShownSender,
    pub body: String,
    pub created_at: String,
    pub mine: bool,
    pub read: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ShownSender {
    pub user_id: Option<Uuid>,
    pub full_name: String,
}

/// What the RPCs need beyond the database: the live channel and the limits.
#[derive(Clone)]
pub struct Settings {
    pub live: Live,
    pub limits: crate::config::MessageSettings,
}

/// Publishes new messages on identity's live channel (best effort: the thread is the truth).
#[derive(Clone)]
pub struct Live {
    link: RedisLink,
    channel: String,
}

impl Live {
    pub fn new(link: RedisLink, namespace: &str) -> Self {
        Self {
            link,
            channel: crate::inbox::notifications_channel(namespace),
        }
    }

    /// Announces `message` to `user_id`'s open streams.
    pub async fn announce(&self, user_id: Uuid, message: &ShownMessage) {
        let payload = serde_json::json!({
            "user_id": user_id,
            "kind": "message",
            "message": { "conversation_id": message.conversation_id, "message": message },
        })
        .to_string();
        if let Err(error) = crate::inbox::publish(&self.link, &self.channel, payload).await {
            tracing::warn!(%error, "a message was not announced live");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_may_start() {
        assert!(may_start(Role::Client, Role::Coach, false, false).is_ok());
        assert!(may_start(Role::Coach, Role::Client, false, false).is_err());
        assert!(may_start(Role::Coach, Role::Client, true, false).is_ok());
        assert!(may_start(Role::Gym, Role::Coach, false, true).is_ok());
        assert!(may_start(Role::Coach, Role::Gym, false, false).is_err());
        assert!(may_start(Role::Client, Role::Client, true, true).is_err());
        assert!(may_start(Role::Client, Role::Gym, true, true).is_err());
        assert!(may_start(Role::Admin, Role::Coach, true, true).is_err());
    }

    #[test]
    fn bodies_are_trimmed_and_bounded() {
        assert_eq!(body("  hi  ").unwrap(), "hi");
        assert!(body("   ").is_err());
        assert!(body(&"é".repeat(MAX_BODY)).is_ok());
        assert!(body(&"a".repeat(MAX_BODY + 1)).is_err());
    }
}
