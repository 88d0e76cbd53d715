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
mod tests {
    use uuid::Uuid;

    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    /// Booked at 2026-03-01 10:00Z for 2026-03-10 15:00–16:00Z: expires (48 h window) on
    /// 2026-03-03 10:00Z; a cancel after 2026-03-09 15:00Z (24 h window) is late.
    fn booking(status: Status) -> Booking {
        Booking {
            client_id: ClientId(Uuid::new_v4()),
            coach_id: CoachId(Uuid::new_v4()),
            status,
            starts_at: at("2026-03-10T15:00:00Z"),
            ends_at: at("2026-03-10T16:00:00Z"),
            expires_at: at("2026-03-03T10:00:00Z"),
            cancellation_window: Duration::hours(24),
        }
    }

    const EARLY: &str = "2026-03-02T09:00:00Z";

    fn coach(b: &Booking) -> Party {
        Party::Coach(b.coach_id)
    }

    fn client(b: &Booking) -> Party {
        Party::Client(b.client_id)
    }

    fn refused(result: Result<Move, Error>) -> String {
        match result {
            Err(Error::Transition(detail)) => detail,
            other => panic!("expected a refused transition, got {other:?}"),
        }
    }

    fn to(status: Status) -> Move {
        Move {
            to: status,
            late: false,
        }
    }

    #[test]
    fn the_coach_approves_or_denies_a_pending_booking() {
        let b = booking(Status::Pending);
        assert_eq!(
            b.apply(Action::Approve, coach(&b), at(EARLY)).unwrap(),
            to(Status::Confirmed)
        );
        assert_eq!(
            b.apply(Action::Deny, coach(&b), at(EARLY)).unwrap(),
            to(Status::Denied)
        );
    }

    #[test]
    fn only_a_pending_booking_can_be_approved_or_denied() {
        for status in Status::ALL.into_iter().filter(|s| *s != Status::Pending) {
            let b = booking(status);
            refused(b.apply(Action::Approve, coach(&b), at(EARLY)));
            refused(b.apply(Action::Deny, coach(&b), at(EARLY)));
        }
        let b = booking(Status::Confirmed);
        assert_eq!(
            refused(b.apply(Action::Approve, coach(&b), at(EARLY))),
            "only a pending booking can be approved (this one is confirmed)"
        );
    }

    #[test]
    fn a_pending_booking_cannot_be_approved_once_its_expiry_is_due_even_before_it_is_written() {
        let b = booking(Status::Pending);
        assert!(
            b.apply(Action::Approve, coach(&b), at("2026-03-03T09:59:59Z"))
                .is_ok()
        );
        assert_eq!(
            refused(b.apply(Action::Approve, coach(&b), at("2026-03-03T10:00:00Z"))),
            "only a pending booking can be approved (this one is expired)"
        );
    }

    #[test]
    fn another_coach_can_neither_approve_deny_cancel_nor_mark_no_show_and_learns_no_status() {
        for status in Status::ALL {
            let b = booking(status);
            let other = Party::Coach(CoachId(Uuid::new_v4()));
            for action in [
                Action::Approve,
                Action::Deny,
                Action::CoachCancel,
                Action::MarkNoShow,
            ] {
                assert!(
                    matches!(b.apply(action, other, at(EARLY)), Err(Error::Forbidden(_))),
                    "{action:?} on {status}"
                );
            }
        }
    }

    #[test]
    fn the_client_cancels_a_pending_or_confirmed_booking_before_it_starts() {
        for status in Status::ACTIVE {
            let b = booking(status);
            assert_eq!(
                b.apply(Action::Cancel, client(&b), at(EARLY)).unwrap(),
                to(Status::Cancelled)
            );
        }
    }

    #[test]
    fn a_client_cancel_of_a_confirmed_booking_inside_the_window_is_late() {
        let b = booking(Status::Confirmed);
        // Exactly 24 hours before the start is still free.
        assert_eq!(
            b.apply(Action::Cancel, client(&b), at("2026-03-09T15:00:00Z"))
                .unwrap(),
            to(Status::Cancelled)
        );
        assert_eq!(
            b.apply(Action::Cancel, client(&b), at("2026-03-09T15:00:01Z"))
                .unwrap(),
            Move {
                to: Status::Cancelled,
                late: true
            }
        );
    }

    #[test]
    fn a_cancel_is_never_late_with_a_zero_window_nor_for_a_pending_booking() {
        let b = Booking {
            cancellation_window: Duration::zero(),
            ..booking(Status::Confirmed)
        };
        assert!(
            !b.apply(Action::Cancel, client(&b), at("2026-03-10T14:59:59Z"))
                .unwrap()
                .late
        );
        // A booking made an hour before its start is still pending (expires at the start).
        let b = Booking {
            expires_at: at("2026-03-10T15:00:00Z"),
            ..booking(Status::Pending)
        };
        assert!(
            !b.apply(Action::Cancel, client(&b), at("2026-03-10T14:30:00Z"))
                .unwrap()
                .late
        );
    }

    #[test]
    fn a_session_that_has_started_can_no_longer_be_cancelled_by_either_side() {
        let b = booking(Status::Confirmed);
        let started = at("2026-03-10T15:00:00Z");
        let detail = refused(b.apply(Action::Cancel, client(&b), started));
        assert!(detail.contains("can no longer be cancelled"), "{detail}");
        refused(b.apply(Action::CoachCancel, coach(&b), started));
        // After its end it is completed.
        assert_eq!(
            refused(b.apply(Action::Cancel, client(&b), at("2026-03-10T16:00:00Z"))),
            "only a pending or confirmed booking can be cancelled (this one is completed)"
        );
    }

    #[test]
    fn a_finished_booking_cannot_be_cancelled() {
        for status in [
            Status::Denied,
            Status::Cancelled,
            Status::Expired,
            Status::Completed,
            Status::NoShow,
        ] {
            let b = booking(status);
            refused(b.apply(Action::Cancel, client(&b), at(EARLY)));
        }
    }

    #[test]
    fn the_coach_cancels_only_a_confirmed_booking_before_it_starts() {
        let b = booking(Status::Confirmed);
        assert_eq!(
            b.apply(Action::CoachCancel, coach(&b), at("2026-03-10T14:59:59Z"))
                .unwrap(),
            to(Status::Cancelled)
        );
        let b = booking(Status::Pending);
        assert_eq!(
            refused(b.apply(Action::CoachCancel, coach(&b), at(EARLY))),
            "only a confirmed booking can be cancelled by its coach (this one is pending)"
        );
    }

    #[test]
    fn a_client_cannot_coach_cancel_approve_or_mark_no_show_and_a_coach_cannot_client_cancel() {
        let b = booking(Status::Confirmed);
        for action in [
            Action::Approve,
            Action::Deny,
            Action::CoachCancel,
            Action::MarkNoShow,
        ] {
            assert!(matches!(
                b.apply(action, client(&b), at(EARLY)),
                Err(Error::Forbidden(_))
            ));
        }
        assert!(matches!(
            b.apply(Action::Cancel, coach(&b), at(EARLY)),
            Err(Error::Forbidden(_))
        ));
        assert!(matches!(
            b.apply(Action::Cancel, Party::Client(ClientId(Uuid::new_v4())), at(EARLY)),
            Err(Error::Forbidden(_))
        ));
    }

    #[test]
    fn the_coach_marks_a_completed_booking_no_show_within_seven_days_of_its_end() {
        let b = booking(Status::Completed);
        assert_eq!(
            b.apply(Action::MarkNoShow, coach(&b), at("2026-03-17T16:00:00Z"))
                .unwrap(),
            to(Status::NoShow)
        );
        let detail = refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-17T16:00:01Z")));
        assert!(detail.contains("within 7 days"), "{detail}");
    }

    #[test]
    fn a_confirmed_booking_past_its_end_is_completed_and_so_can_be_marked_no_show() {
        let b = booking(Status::Confirmed);
        assert_eq!(
            b.apply(Action::MarkNoShow, coach(&b), at("2026-03-10T16:00:00Z"))
                .unwrap(),
            to(Status::NoShow)
        );
    }

    #[test]
    fn a_no_show_before_the_end_or_on_another_status_is_refused() {
        let b = booking(Status::Confirmed);
        let detail = refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-10T15:30:00Z")));
        assert!(detail.contains("only once it has ended"), "{detail}");
        for status in [
            Status::Pending,
            Status::Denied,
            Status::Cancelled,
            Status::Expired,
            Status::NoShow,
        ] {
            let b = booking(status);
            refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-11T09:00:00Z")));
        }
        let b = booking(Status::Cancelled);
        assert_eq!(
            refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-11T09:00:00Z"))),
            "only a completed booking can be marked no-show (this one is cancelled)"
        );
    }

    #[test]
    fn a_pending_booking_is_due_to_expire_at_its_expiry_and_a_confirmed_one_to_complete_at_its_end() {
        let pending = booking(Status::Pending);
        assert_eq!(pending.due_at(), Some(at("2026-03-03T10:00:00Z")));
        assert_eq!(pending.due(at("2026-03-03T09:59:59Z")), None);
        assert_eq!(pending.due(at("2026-03-03T10:00:00Z")), Some(Timed::Expire));
        assert_eq!(pending.current(at("2026-03-03T10:00:00Z")), Status::Expired);

        let confirmed = booking(Status::Confirmed);
        assert_eq!(confirmed.due_at(), Some(at("2026-03-10T16:00:00Z")));
        assert_eq!(confirmed.due(at("2026-03-10T15:59:59Z")), None);
        assert_eq!(confirmed.due(at("2026-03-10T16:00:00Z")), Some(Timed::Complete));
        assert_eq!(confirmed.current(at("2026-03-11T00:00:00Z")), Status::Completed);
    }

    #[test]
    fn the_clock_never_moves_a_booking_that_is_over() {
        for status in [
            Status::Denied,
            Status::Cancelled,
            Status::Expired,
            Status::Completed,
            Status::NoShow,
        ] {
            let b = booking(status);
            assert_eq!(b.due_at(), None, "{status}");
            assert_eq!(b.due(at("2030-01-01T00:00:00Z")), None, "{status}");
        }
    }

    #[test]
    fn timed_transitions_go_from_an_active_status_to_a_final_one() {
        assert_eq!(
            (Timed::Expire.from(), Timed::Expire.to()),
            (Status::Pending, Status::Expired)
        );
        assert_eq!(
            (Timed::Complete.from(), Timed::Complete.to()),
            (Status::Confirmed, Status::Completed)
        );
    }

    #[test]
    fn a_reason_is_trimmed_blank_is_none_and_a_long_one_is_refused() {
        assert_eq!(parse_reason(None).unwrap(), None);
        assert_eq!(parse_reason(Some("   ".into())).unwrap(), None);
        assert_eq!(
            parse_reason(Some("  I am ill ".into())).unwrap().as_deref(),
            Some("I am ill")
        );
        assert!(parse_reason(Some("é".repeat(500))).is_ok());
        let error = parse_reason(Some("x".repeat(501))).unwrap_err();
        assert!(matches!(error, Error::Invalid(_)));
        assert!(error.to_string().contains("at most 500 characters"), "{error}");
    }

    #[test]
    fn statuses_round_trip_through_their_names() {
        for status in Status::ALL {
            assert_eq!(status.as_str().parse::<Status>().unwrap(), status);
        }
        assert_eq!(Status::NoShow.as_str(), "no_show");
        assert!("approved".parse::<Status>().is_err());
    }
}
