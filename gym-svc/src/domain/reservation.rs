//! A coach's request for court time and how it moves: pending → approved | denied by the gym,
//! pending → cancelled by the coach; nothing leaves approved, denied or cancelled.

use std::{fmt, str::FromStr};

use chrono::NaiveDate;

use crate::error::Error;

/// Where a court reservation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReservationStatus {
    Pending,
    Approved,
    Denied,
    Cancelled,
}

impl ReservationStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Denied => "denied",
            Self::Cancelled => "cancelled",
        }
    }

    /// The gym accepts a pending request.
    pub fn approve(self) -> Result<Self, Error> {
        self.decide(Self::Approved, "approved")
    }

    /// The gym turns down a pending request.
    pub fn deny(self) -> Result<Self, Error> {
        self.decide(Self::Denied, "denied")
    }

    /// The coach withdraws a pending request.
    pub fn cancel(self) -> Result<Self, Error> {
        self.decide(Self::Cancelled, "cancelled")
    }

    fn decide(self, to: Self, verb: &str) -> Result<Self, Error> {
        match self {
            Self::Pending => Ok(to),
            done => Err(Error::Precondition(format!(
                "this reservation is already {done}; only a pending request can be {verb}"
            ))),
        }
    }
}

impl fmt::Display for ReservationStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReservationStatus {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "pending" => Ok(Self::Pending),
            "approved" => Ok(Self::Approved),
            "denied" => Ok(Self::Denied),
            "cancelled" => Ok(Self::Cancelled),
            other => Err(Error::Other(anyhow::anyhow!(
                "unknown reservation status {other:?}"
            ))),
        }
    }
}

/// Whether court time may be requested, or reserved by an approval: still offered, not reserved,
/// and not in the past (`today` is the shared earliest open date).
pub fn ensure_requestable(
    date: NaiveDate,
    is_reserved: bool,
    withdrawn: bool,
    today: NaiveDate,
) -> Result<(), Error> {
    if withdrawn {
        return Err(Error::Precondition(
            "this court time is no longer offered by its gym".into(),
        ));
    }
    if is_reserved {
        return Err(Error::Precondition("this court time is already reserved".into()));
    }
    if date < today {
        return Err(Error::Precondition("this court time is in the past".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ReservationStatus::*;

    #[test]
    fn a_pending_request_can_be_approved_denied_or_cancelled() {
        assert_eq!(Pending.approve().unwrap(), Approved);
        assert_eq!(Pending.deny().unwrap(), Denied);
        assert_eq!(Pending.cancel().unwrap(), Cancelled);
    }

    #[test]
    fn a_decided_request_never_moves_again() {
        for done in [Approved, Denied, Cancelled] {
            assert!(matches!(done.approve(), Err(Error::Precondition(_))));
            assert!(matches!(done.deny(), Err(Error::Precondition(_))));
            assert!(matches!(done.cancel(), Err(Error::Precondition(_))));
        }
        assert_eq!(
            Approved.cancel().unwrap_err().to_string(),
            "this reservation is already approved; only a pending request can be cancelled"
        );
    }

    #[test]
    fn statuses_round_trip_through_their_names() {
        for status in [Pending, Approved, Denied, Cancelled] {
            assert_eq!(status.as_str().parse::<ReservationStatus>().unwrap(), status);
        }
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn only_offered_unreserved_court_time_from_today_on_is_requestable() {
        let today = day("2026-03-10");
        assert!(ensure_requestable(today, false, false, today).is_ok());
        for (date, reserved, withdrawn) in [
            (today, true, false),
            (today, false, true),
            (day("2026-03-09"), false, false),
        ] {
            assert!(matches!(
                ensure_requestable(date, reserved, withdrawn, today),
                Err(Error::Precondition(_))
            ));
        }
    }
}
