//! A booking's life: pending → confirmed | denied by its coach; pending | confirmed → cancelled
//! by its client; nothing else.
//!
//! The store applies a transition with one conditional UPDATE built from [`Action::from`] and
//! [`Action::to`], so concurrent moves cannot both win; [`Booking::apply`] is the rule itself and
//! says why a move was refused.

use std::{fmt, str::FromStr};

use super::{ClientId, CoachId};
use crate::error::Error;

/// Where a booking stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pending,
    Confirmed,
    Denied,
    Cancelled,
}

impl Status {
    /// Pending and confirmed bookings hold their slot; denied and cancelled ones free it.
    pub const ACTIVE: [Status; 2] = [Status::Pending, Status::Confirmed];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Confirmed => "confirmed",
            Status::Denied => "denied",
            Status::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Status {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "pending" => Ok(Status::Pending),
            "confirmed" => Ok(Status::Confirmed),
            "denied" => Ok(Status::Denied),
            "cancelled" => Ok(Status::Cancelled),
            other => Err(Error::Other(anyhow::anyhow!("unknown booking status {other:?}"))),
        }
    }
}

/// A move a party can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The coach accepts a pending booking.
    Approve,
    /// The coach turns a pending booking down.
    Deny,
    /// The client withdraws a pending or confirmed booking.
    Cancel,
}

impl Action {
    /// The statuses this move starts from.
    pub fn from(self) -> &'static [Status] {
        match self {
            Action::Approve | Action::Deny => &[Status::Pending],
            Action::Cancel => &Status::ACTIVE,
        }
    }

    /// The status this move ends in.
    pub fn to(self) -> Status {
        match self {
            Action::Approve => Status::Confirmed,
            Action::Deny => Status::Denied,
            Action::Cancel => Status::Cancelled,
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Action::Approve => "approve",
            Action::Deny => "deny",
            Action::Cancel => "cancel",
        }
    }

    fn participle(self) -> &'static str {
        match self {
            Action::Approve => "approved",
            Action::Deny => "denied",
            Action::Cancel => "cancelled",
        }
    }
}

/// Someone asking for a move: the booking's coach or its client, as their token says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Coach(CoachId),
    Client(ClientId),
}

/// Who a booking is between and where it stands: all a transition needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Booking {
    pub client_id: ClientId,
    pub coach_id: CoachId,
    pub status: Status,
}

impl Booking {
    /// The status `action` by `by` leads to, or why it is refused: the coach approves or denies
    /// a pending booking, the client cancels a pending or confirmed one. Whose booking it is
    /// comes first, so someone else's attempt learns nothing of its status.
    pub fn apply(&self, action: Action, by: Party) -> Result<Status, Error> {
        let theirs = match (action, by) {
            (Action::Approve | Action::Deny, Party::Coach(coach)) => coach == self.coach_id,
            (Action::Cancel, Party::Client(client)) => client == self.client_id,
            _ => false,
        };
        if !theirs {
            return Err(Error::Forbidden(match action {
                Action::Cancel => "only the client who made this booking can cancel it".into(),
                _ => format!("only the coach of this booking can {} it", action.verb()),
            }));
        }
        self.transition(action)
    }

    fn transition(&self, action: Action) -> Result<Status, Error> {
        if action.from().contains(&self.status) {
            return Ok(action.to());
        }
        let allowed = action
            .from()
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(" or ");
        Err(Error::Transition(format!(
            "only a {allowed} booking can be {} (this one is {})",
            action.participle(),
            self.status
        )))
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    fn booking(status: Status) -> Booking {
        Booking {
            client_id: ClientId(Uuid::new_v4()),
            coach_id: CoachId(Uuid::new_v4()),
            status,
        }
    }

    #[test]
    fn the_coach_approves_a_pending_booking() {
        let b = booking(Status::Pending);
        assert_eq!(
            b.apply(Action::Approve, Party::Coach(b.coach_id)).unwrap(),
            Status::Confirmed
        );
    }

    #[test]
    fn the_coach_denies_a_pending_booking() {
        let b = booking(Status::Pending);
        assert_eq!(
            b.apply(Action::Deny, Party::Coach(b.coach_id)).unwrap(),
            Status::Denied
        );
    }

    #[test]
    fn only_a_pending_booking_can_be_approved_or_denied() {
        for status in [Status::Confirmed, Status::Denied, Status::Cancelled] {
            let b = booking(status);
            assert!(
                matches!(
                    b.apply(Action::Approve, Party::Coach(b.coach_id)),
                    Err(Error::Transition(_))
                ),
                "{status}"
            );
            assert!(
                matches!(
                    b.apply(Action::Deny, Party::Coach(b.coach_id)),
                    Err(Error::Transition(_))
                ),
                "{status}"
            );
        }
        let b = booking(Status::Confirmed);
        assert_eq!(
            b.apply(Action::Approve, Party::Coach(b.coach_id))
                .unwrap_err()
                .to_string(),
            "only a pending booking can be approved (this one is confirmed)"
        );
    }

    #[test]
    fn another_coach_can_neither_approve_nor_deny() {
        let b = booking(Status::Pending);
        let other = CoachId(Uuid::new_v4());
        assert!(matches!(
            b.apply(Action::Approve, Party::Coach(other)),
            Err(Error::Forbidden(_))
        ));
        assert!(matches!(
            b.apply(Action::Deny, Party::Coach(other)),
            Err(Error::Forbidden(_))
        ));
    }

    #[test]
    fn another_coach_learns_nothing_about_the_status() {
        let b = booking(Status::Cancelled);
        assert!(matches!(
            b.apply(Action::Approve, Party::Coach(CoachId(Uuid::new_v4()))),
            Err(Error::Forbidden(_))
        ));
    }

    #[test]
    fn the_client_cancels_a_pending_or_confirmed_booking() {
        for status in [Status::Pending, Status::Confirmed] {
            let b = booking(status);
            assert_eq!(
                b.apply(Action::Cancel, Party::Client(b.client_id)).unwrap(),
                Status::Cancelled
            );
        }
    }

    #[test]
    fn a_cancelled_or_denied_booking_cannot_be_cancelled() {
        let b = booking(Status::Denied);
        assert_eq!(
            b.apply(Action::Cancel, Party::Client(b.client_id))
                .unwrap_err()
                .to_string(),
            "only a pending or confirmed booking can be cancelled (this one is denied)"
        );
        let b = booking(Status::Cancelled);
        assert!(matches!(
            b.apply(Action::Cancel, Party::Client(b.client_id)),
            Err(Error::Transition(_))
        ));
    }

    #[test]
    fn a_coach_cannot_cancel_and_a_client_cannot_approve() {
        let b = booking(Status::Pending);
        let as_coach = Party::Coach(b.coach_id);
        let as_client = Party::Client(b.client_id);
        assert!(matches!(
            b.apply(Action::Cancel, as_coach),
            Err(Error::Forbidden(_))
        ));
        assert!(matches!(
            b.apply(Action::Approve, as_client),
            Err(Error::Forbidden(_))
        ));
        assert!(matches!(
            b.apply(Action::Deny, as_client),
            Err(Error::Forbidden(_))
        ));
    }

    #[test]
    fn another_client_cannot_cancel() {
        let b = booking(Status::Pending);
        assert!(matches!(
            b.apply(Action::Cancel, Party::Client(ClientId(Uuid::new_v4()))),
            Err(Error::Forbidden(_))
        ));
    }

    #[test]
    fn statuses_round_trip_through_their_names() {
        for status in [
            Status::Pending,
            Status::Confirmed,
            Status::Denied,
            Status::Cancelled,
        ] {
            assert_eq!(status.as_str().parse::<Status>().unwrap(), status);
        }
        assert!("approved".parse::<Status>().is_err());
    }
}
