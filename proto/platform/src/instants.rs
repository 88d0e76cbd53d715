//! A place's wall clock to instants. Sessions and court time are written as the place's local date
//! and times (`2026-03-08`, `09:00`–`10:00` in `America/Chicago`); everything timed (expiry,
//! completion, notice, cancellation windows) works on the UTC instants computed here, from the
//! IANA database (chrono-tz), never from offsets written by hand.
//!
//! Two local times are not one instant each, and the rule for them is the one calendar software
//! shares (RFC 5545 §3.3.5, JavaScript Temporal's `"compatible"`):
//! - **a time inside a spring-forward gap** (02:30 on the night clocks jump from 02:00 to 03:00)
//!   never appears on a wall clock; it is read with the offset in force before the jump, so it
//!   lands as far after the jump as it was after its start: 02:30 becomes 03:30 daylight time.
//! - **a time inside a fall-back repeat** (01:30 on the night clocks go from 02:00 back to 01:00)
//!   appears twice; it means the first, still daylight-time, occurrence.

use std::{fmt, str::FromStr};

use chrono::{DateTime, Duration, LocalResult, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeZone, Utc};
use chrono_tz::Tz;

/// A valid IANA time zone name (`America/Chicago`, `UTC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Zone(Tz);

/// A zone name the IANA database does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("time_zone must be an IANA time zone name such as \"America/Chicago\"; \"{0}\" is not one")]
pub struct UnknownZone(pub String);

impl Zone {
    pub const UTC: Zone = Zone(Tz::UTC);

    pub fn tz(self) -> Tz {
        self.0
    }

    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// The instant a wall-clock date and time of this zone stands for (see the module's rule for
    /// gaps and repeats).
    pub fn instant(self, date: NaiveDate, time: NaiveTime) -> DateTime<Utc> {
        let local = NaiveDateTime::new(date, time);
        match self.0.from_local_datetime(&local) {
            LocalResult::Single(at) => at.to_utc(),
            LocalResult::Ambiguous(earlier, _later) => earlier.to_utc(),
            LocalResult::None => {
                // In a gap: use the offset in force a day before (transitions are months apart).
                let before = self.0.offset_from_utc_datetime(&(local - Duration::days(1)));
                let offset = before.fix().local_minus_utc();
                (local - Duration::seconds(i64::from(offset))).and_utc()
            }
        }
    }

    /// The wall-clock date of an instant in this zone ("today" where the place is).
    pub fn date_of(self, at: DateTime<Utc>) -> NaiveDate {
        at.with_timezone(&self.0).date_naive()
    }
}

impl FromStr for Zone {
    type Err = UnknownZone;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        name.parse::<Tz>()
            .map(Zone)
            .map_err(|_| UnknownZone(name.to_owned()))
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// RFC 3339 in UTC, to the second (`2026-03-08T15:00:00Z`): how every instant leaves a service.
pub fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(name: &str) -> Zone {
        name.parse().unwrap()
    }
    fn date(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }
    fn time(s: &str) -> NaiveTime {
        NaiveTime::parse_from_str(s, "%H:%M").unwrap()
    }

    #[test]
    fn nine_o_clock_in_chicago_is_nine_local_on_both_sides_of_the_spring_change() {
        let chicago = zone("America/Chicago");
        // Saturday before the change: CST, UTC-6.
        assert_eq!(
            rfc3339(chicago.instant(date("2026-03-07"), time("09:00"))),
            "2026-03-07T15:00:00Z"
        );
        // Sunday of the change (02:00 → 03:00): CDT, UTC-5.
        assert_eq!(
            rfc3339(chicago.instant(date("2026-03-08"), time("09:00"))),
            "2026-03-08T14:00:00Z"
        );
    }

    #[test]
    fn a_time_inside_the_spring_forward_gap_lands_as_far_after_the_jump() {
        let new_york = zone("America/New_York");
        // 02:30 does not exist on 2026-03-08 in New York; it is read as 03:30 EDT.
        let at = new_york.instant(date("2026-03-08"), time("02:30"));
        assert_eq!(rfc3339(at), "2026-03-08T07:30:00Z");
        assert_eq!(
            at.with_timezone(&new_york.tz()).format("%H:%M").to_string(),
            "03:30"
        );
    }

    #[test]
    fn a_time_inside_the_fall_back_repeat_is_its_first_occurrence() {
        let new_york = zone("America/New_York");
        // 01:30 happens twice on 2026-11-01; the first is still EDT (UTC-4).
        assert_eq!(
            rfc3339(new_york.instant(date("2026-11-01"), time("01:30"))),
            "2026-11-01T05:30:00Z"
        );
        // A session from 01:00 to 02:00 that night lasts two hours of real time.
        let start = new_york.instant(date("2026-11-01"), time("01:00"));
        let end = new_york.instant(date("2026-11-01"), time("02:00"));
        assert_eq!(end - start, Duration::hours(2));
    }

    #[test]
    fn zones_without_daylight_saving_keep_one_offset() {
        let phoenix = zone("America/Phoenix");
        assert_eq!(
            rfc3339(phoenix.instant(date("2026-07-01"), time("09:00"))),
            "2026-07-01T16:00:00Z"
        );
        assert_eq!(
            rfc3339(Zone::UTC.instant(date("2026-07-01"), time("09:00"))),
            "2026-07-01T09:00:00Z"
        );
    }

    #[test]
    fn an_unknown_zone_name_is_refused_with_a_sentence_naming_it() {
        let err = "Mars/Olympus_Mons".parse::<Zone>().unwrap_err();
        assert!(
            err.to_string().contains("\"Mars/Olympus_Mons\" is not one"),
            "{err}"
        );
        assert!("".parse::<Zone>().is_err());
        assert_eq!(zone("America/Chicago").to_string(), "America/Chicago");
    }

    #[test]
    fn the_local_date_of_an_instant_is_the_place_s() {
        let honolulu = zone("Pacific/Honolulu");
        let at = DateTime::parse_from_rfc3339("2026-06-02T05:00:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(honolulu.date_of(at), date("2026-06-01"));
    }
}
