//! A booking's life. People move it: the coach approves or denies a pending booking, the client
//! cancels a pending or confirmed one until it starts, the coach cancels a confirmed one before it
//! starts and marks a completed one no-show within [`NO_SHOW_WINDOW`] of its end. The clock moves
//! it too ([`Timed`]): a pending booking nobody answered expires at its `expires_at` (the earlier
//! of the response window's end and its start), a confirmed one is completed at its end.
//!
//! Every rule takes "now" as an argument. A move is judged on the booking as the clock has left
//! it ([`Booking::current`]): a pending booking whose expiry is due is expired even in the seconds
//! before the scheduler writes it down, so nobody approves it then. The store applies the due
//! timed transition first, with its own event, then the move.

use std::{fmt, str::FromStr};

use chrono::{DateTime, Duration, Utc};
use platform::instants::rfc3339;

use super::{ClientId, CoachId};
use crate::error::Error;

/// How long after a session's end its coach may still record that the client did not come.
pub const NO_SHOW_WINDOW: Duration = Duration::days(7);

/// The longest cancellation reason kept, in characters.
pub const REASON_MAX: usize = 500;

/// A cancel's optional reason: trimmed, blank is none, at most [`REASON_MAX`] characters.
pub fn parse_reason(raw: Option<String>) -> Result<Option<String>, Error> {
    let Some(reason) = raw.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    if reason.chars().count() > REASON_MAX {
        return Err(Error::Invalid(format!(
            "reason must be at most {REASON_MAX} characters (this one has {})",
            reason.chars().count()
        )));
    }
    Ok(Some(reason))
}

/// Where a booking stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Pending,
    Confirmed,
    Denied,
    Cancelled,
    Expired,
    Completed,
    NoShow,
}

impl Status {
    /// Pending and confirmed bookings hold their slot; every other status frees it.
    pub const ACTIVE: [Status; 2] = [Status::Pending, Status::Confirmed];

    pub const ALL: [Status; 7] = [
        Status::Pending,
        Status::Confirmed,
        Status::Denied,
        Status::Cancelled,
        Status::Expired,
        Status::Completed,
        Status::NoShow,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Confirmed => "confirmed",
            Status::Denied => "denied",
            Status::Cancelled => "cancelled",
            Status::Expired => "expired",
            Status::Completed => "completed",
            Status::NoShow => "no_show",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::NoShow => "no-show",
            other => other.as_str(),
        })
    }
}

impl FromStr for Status {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Status::ALL
            .into_iter()
            .find(|status| status.as_str() == s)
            .ok_or_else(|| Error::Other(anyhow::anyhow!("unknown booking status {s:?}")))
    }
}

/// A move a person can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The coach accepts a pending booking.
    Approve,
    /// The coach turns a pending booking down.
    Deny,
    /// The client withdraws a pending or confirmed booking before it starts.
    Cancel,
    /// The coach calls off a confirmed booking before it starts.
    CoachCancel,
    /// The coach records that the client did not come to a completed session.
    MarkNoShow,
}

impl Action {
    /// The statuses this move starts from.
    pub fn from(self) -> &'static [Status] {
        match self {
            Action::Approve | Action::Deny => &[Status::Pending],
            Action::Cancel => &Status::ACTIVE,
            Action::CoachCancel => &[Status::Confirmed],
            Action::MarkNoShow => &[Status::Completed],
        }
    }

    /// The status this move ends in.
    pub fn to(self) -> Status {
        match self {
            Action::Approve => Status::Confirmed,
            Action::Deny => Status::Denied,
            Action::Cancel | Action::CoachCancel => Status::Cancelled,
            Action::MarkNoShow => Status::NoShow,
        }
    }

    fn participle(self) -> &'static str {
        match self {
            Action::Approve => "approved",
            Action::Deny => "denied",
            Action::Cancel => "cancelled",
            Action::CoachCancel => "cancelled by its coach",
            Action::MarkNoShow => "marked no-show",
        }
    }
}

/// A transition the clock makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timed {
    /// A pending booking nobody answered in time.
    Expire,
    /// A confirmed booking reached its end.
    Complete,
}

impl Timed {
    pub fn from(self) -> Status {
        match self {
            Timed::Expire => Status::Pending,
            Timed::Complete => Status::Confirmed,
        }
    }

    pub fn to(self) -> Status {
        match self {
            Timed::Expire => Status::Expired,
            Timed::Complete => Status::Completed,
        }
    }
}

/// Someone asking for a move: the booking's coach or its client, as their token says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Coach(CoachId),
    Client(ClientId),
}

impl Party {
    /// `client` or `coach`, as `cancelled_by` records it.
    pub fn as_str(self) -> &'static str {
        match self {
            Party::Coach(_) => "coach",
            Party::Client(_) => "client",
        }
    }
}

/// What an allowed move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub to: Status,
    /// A client's cancel of a confirmed booking inside the cancellation window.
    pub late: bool,
}

/// Who a booking is between, where it stands and when: all a transition needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Booking {
    pub client_id: ClientId,
    pub coach_id: CoachId,
    pub status: Status,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    /// When it expires if it is still pending.
    pub expires_at: DateTime<Utc>,
    /// The coach's cancellation window when it was booked: a client's cancel of the confirmed
    /// booking closer to its start than this is late.
    pub cancellation_window: Duration,
}

impl Booking {
    /// When the clock moves this booking next: a pending one at its expiry, a confirmed one at
    /// its end; never, in any other status.
    pub fn due_at(&self) -> Option<DateTime<Utc>> {
        match self.status {
            Status::Pending => Some(self.expires_at),
            Status::Confirmed => Some(self.ends_at),
            _ => None,
        }
    }

    /// The timed transition due at `now`, if any.
    pub fn due(&self, now: DateTime<Utc>) -> Option<Timed> {
        match self.due_at() {
            Some(at) if at <= now => Some(match self.status {
                Status::Pending => Timed::Expire,
                _ => Timed::Complete,
            }),
            _ => None,
        }
    }

    /// The status once every transition due at `now` is applied.
    pub fn current(&self, now: DateTime<Utc>) -> Status {
        self.due(now).map_or(self.status, Timed::to)
    }

    /// What `action` by `by` at `now` does, or why it is refused. Whose booking it is comes
    /// first, so someone else's attempt learns nothing of its status.
    pub fn apply(&self, action: Action, by: Party, now: DateTime<Utc>) -> Result<Move, Error> {
        let theirs = match (action, by) {
            (Action::Cancel, Party::Client(client)) => client == self.client_id,
            (Action::Cancel, Party::Coach(_)) | (_, Party::Client(_)) => false,
            (_, Party::Coach(coach)) => coach == self.coach_id,
        };
        if !theirs {
            return Err(Error::Forbidden(match action {
                Action::Cancel => "only the client who made this booking can cancel it".into(),
                Action::Approve => "only the coach of this booking can approve it".into(),
                Action::Deny => "only the coach of this booking can deny it".into(),
                Action::CoachCancel => "only the coach of this booking can cancel it as its coach".into(),
                Action::MarkNoShow => "only the coach of this booking can mark it no-show".into(),
            }));
        }
        let status = self.current(now);
        if !action.from().contains(&status) {
            let allowed = action
                .from()
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" or ");
            let detail = format!(
                "only a {allowed} booking can be {} (this one is {status})",
                action.participle()
            );
            // A confirmed session that has begun is neither cancellable nor over yet.
            return Err(Error::Transition(match (action, status) {
                (Action::MarkNoShow, Status::Confirmed) => format!(
                    "a session can be marked no-show only once it has ended (this one ends at {})",
                    rfc3339(self.ends_at)
                ),
                _ => detail,
            }));
        }
        match action {
            Action::Cancel | Action::CoachCancel if now >= self.starts_at => Err(Error::Transition(format!(
                "this session started at {}, so it can no longer be cancelled",
                rfc3339(self.starts_at)
            ))),
            Action::MarkNoShow if now > self.ends_at + NO_SHOW_WINDOW => Err(Error::Transition(format!(
                "a no-show can be recorded only within 7 days of the session's end (this one ended \
                 at {})",
                rfc3339(self.ends_at)
            ))),
            Action::Cancel => Ok(Move {
                to: action.to(),
                late: status == Status::Confirmed && now > self.starts_at - self.cancellation_window,
            }),
            _ => Ok(Move {
                to: action.to(),
                late: false,
            }),
        }
    }
}

#[cfg(test)]
mod tests;
