//! A coach's request for court time and how it moves:
//! - pending → approved | denied by the gym (approving one denies the others pending for the same
//!   court time), pending → cancelled by the coach;
//! - pending → expired by the clock, at the court time's start, when nobody answered;
//! - approved → cancelled by the gym, before the court time starts (the time is open again);
//! - nothing leaves denied, cancelled or expired.
//!
//! Whether a move is allowed at this moment (before the start) is [`ensure_not_started`]'s; the
//! moves themselves know only the statuses.

use std::{fmt, str::FromStr};

use chrono::{DateTime, Utc};
use platform::instants::{Zone, rfc3339};

use crate::error::Error;
use platform::input::Text;

/// Why the gym cancels: trimmed free text of at most 500 characters; blank is none.
pub fn parse_reason(raw: Option<&str>) -> Result<Option<String>, Error> {
    let reason = Text::optional(raw.unwrap_or_default(), "reason", 500)?;
    Ok(Some(reason.as_str().to_owned()).filter(|r| !r.is_empty()))
}

/// Where a court reservation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReservationStatus {
    Pending,
    Approved,
    Denied,
    Cancelled,
    Expired,
}

impl ReservationStatus {
    pub const ALL: [ReservationStatus; 5] = [
        Self::Pending,
        Self::Approved,
        Self::Denied,
        Self::Cancelled,
        Self::Expired,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Denied => "denied",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
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

    /// Nobody answered a pending request before its start.
    pub fn expire(self) -> Result<Self, Error> {
        self.decide(Self::Expired, "expired")
    }

    /// The gym cancels an approved reservation.
    pub fn gym_cancel(self) -> Result<Self, Error> {
        match self {
            Self::Approved => Ok(Self::Cancelled),
            other => Err(Error::Precondition(format!(
                "this reservation is {other}; only an approved reservation can be cancelled by the gym"
            ))),
        }
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
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == s)
            .ok_or_else(|| Error::Other(anyhow::anyhow!("unknown reservation status {s:?}")))
    }
}

/// Court time as instants: its zone's wall clock date and times, read by [`Zone::instant`] (a start
/// inside a spring-forward gap lands as far after the jump; inside a fall-back repeat it is the
/// first occurrence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourtInstants {
    pub zone: Zone,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
}

impl CourtInstants {
    pub fn new(
        zone: Zone,
        date: chrono::NaiveDate,
        start: chrono::NaiveTime,
        end: chrono::NaiveTime,
    ) -> Self {
        Self {
            zone,
            starts_at: zone.instant(date, start),
            ends_at: zone.instant(date, end),
        }
    }

    /// Whether it starts after `now`.
    pub fn is_ahead(&self, now: DateTime<Utc>) -> bool {
        self.starts_at > now
    }
}

/// Refuses a move on court time that has started (at or after its start instant).
pub fn ensure_not_started(instants: &CourtInstants, now: DateTime<Utc>) -> Result<(), Error> {
    if instants.is_ahead(now) {
        return Ok(());
    }
    Err(Error::Precondition(format!(
        "this court time started at {} ({}); it can no longer be requested, approved or cancelled",
        rfc3339(instants.starts_at),
        instants.zone
    )))
}

/// Whether court time may be requested, or reserved by an approval: still offered, not reserved,
/// and not started.
pub fn ensure_requestable(
    instants: &CourtInstants,
    is_reserved: bool,
    withdrawn: bool,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    if withdrawn {
        return Err(Error::Precondition(
            "this court time is no longer offered by its gym".into(),
        ));
    }
    if is_reserved {
        return Err(Error::Precondition("this court time is already reserved".into()));
    }
    ensure_not_started(instants, now)
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, NaiveTime};

    use super::*;
    use ReservationStatus::*;

    #[test]
    fn a_pending_request_can_be_approved_denied_cancelled_or_expire() {
        assert_eq!(Pending.approve().unwrap(), Approved);
        assert_eq!(Pending.deny().unwrap(), Denied);
        assert_eq!(Pending.cancel().unwrap(), Cancelled);
        assert_eq!(Pending.expire().unwrap(), Expired);
    }

    #[test]
    fn only_an_approved_reservation_can_be_cancelled_by_the_gym() {
        assert_eq!(Approved.gym_cancel().unwrap(), Cancelled);
        for other in [Pending, Denied, Cancelled, Expired] {
            assert!(
                matches!(other.gym_cancel(), Err(Error::Precondition(_))),
                "{other}"
            );
        }
        assert_eq!(
            Pending.gym_cancel().unwrap_err().to_string(),
            "this reservation is pending; only an approved reservation can be cancelled by the gym"
        );
    }

    #[test]
    fn a_decided_or_expired_request_never_moves_again_but_by_the_gym_s_cancel_of_an_approval() {
        for done in [Approved, Denied, Cancelled, Expired] {
            assert!(matches!(done.approve(), Err(Error::Precondition(_))));
            assert!(matches!(done.deny(), Err(Error::Precondition(_))));
            assert!(matches!(done.cancel(), Err(Error::Precondition(_))));
            assert!(matches!(done.expire(), Err(Error::Precondition(_))));
        }
        assert_eq!(
            Approved.cancel().unwrap_err().to_string(),
            "this reservation is already approved; only a pending request can be cancelled"
        );
        assert_eq!(
            Expired.approve().unwrap_err().to_string(),
            "this reservation is already expired; only a pending request can be approved"
        );
    }

    #[test]
    fn a_cancel_reason_is_trimmed_bounded_and_blank_is_none() {
        assert_eq!(
            parse_reason(Some("  Flooded floor \n")).unwrap().as_deref(),
            Some("Flooded floor")
        );
        assert_eq!(parse_reason(Some("   ")).unwrap(), None);
        assert_eq!(parse_reason(None).unwrap(), None);
        assert_eq!(
            parse_reason(Some(&"x".repeat(501))).unwrap_err().to_string(),
            "reason must be at most 500 characters"
        );
    }

    #[test]
    fn statuses_round_trip_through_their_names() {
        for status in ReservationStatus::ALL {
            assert_eq!(status.as_str().parse::<ReservationStatus>().unwrap(), status);
        }
        assert!("done".parse::<ReservationStatus>().is_err());
    }

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    fn chicago(date: &str, start: &str, end: &str) -> CourtInstants {
        CourtInstants::new(
            "America/Chicago".parse().unwrap(),
            NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap(),
            NaiveTime::parse_from_str(start, "%H:%M").unwrap(),
            NaiveTime::parse_from_str(end, "%H:%M").unwrap(),
        )
    }

    #[test]
    fn court_time_is_its_place_s_wall_clock_on_both_sides_of_a_daylight_saving_change() {
        let before = chicago("2026-03-07", "18:00", "19:30");
        let after = chicago("2026-03-08", "18:00", "19:30");
        assert_eq!(rfc3339(before.starts_at), "2026-03-08T00:00:00Z");
        assert_eq!(rfc3339(before.ends_at), "2026-03-08T01:30:00Z");
        assert_eq!(rfc3339(after.starts_at), "2026-03-08T23:00:00Z");
    }

    #[test]
    fn court_time_inside_the_spring_gap_or_the_autumn_repeat_follows_the_shared_rule() {
        // 02:30 does not exist on 2026-03-08 in Chicago: read as 03:30 CDT.
        assert_eq!(
            rfc3339(chicago("2026-03-08", "02:30", "04:00").starts_at),
            "2026-03-08T08:30:00Z"
        );
        // 01:30 happens twice on 2026-11-01: the first, still CDT.
        assert_eq!(
            rfc3339(chicago("2026-11-01", "01:30", "03:00").starts_at),
            "2026-11-01T06:30:00Z"
        );
    }

    #[test]
    fn court_time_is_requestable_until_the_instant_it_starts() {
        let time = chicago("2026-03-05", "09:00", "10:00"); // CST: 15:00Z
        assert!(ensure_requestable(&time, false, false, utc("2026-03-05T14:59:59Z")).is_ok());
        let started = ensure_requestable(&time, false, false, utc("2026-03-05T15:00:00Z")).unwrap_err();
        assert_eq!(
            started.to_string(),
            "this court time started at 2026-03-05T15:00:00Z (America/Chicago); it can no longer be \
             requested, approved or cancelled"
        );
        assert!(matches!(started, Error::Precondition(_)));
    }

    #[test]
    fn reserved_or_withdrawn_court_time_is_not_requestable() {
        let time = chicago("2026-03-10", "09:00", "10:00");
        let early = utc("2026-03-01T00:00:00Z");
        assert_eq!(
            ensure_requestable(&time, true, false, early)
                .unwrap_err()
                .to_string(),
            "this court time is already reserved"
        );
        assert_eq!(
            ensure_requestable(&time, false, true, early)
                .unwrap_err()
                .to_string(),
            "this court time is no longer offered by its gym"
        );
    }
}
