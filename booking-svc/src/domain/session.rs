//! A booked session in its place's time: the local date and wall-clock times as the coach's slot
//! gives them, the place's zone, and the two UTC instants everything timed works on.
//!
//! The instants come from [`platform::instants`], whose rule for the two nights a year when wall
//! clocks jump is what a slot inside them means here:
//! - a slot whose start or end falls in a **spring-forward gap** (02:30 on the night 02:00 becomes
//!   03:00) is read with the offset before the jump, so 02:30 is 03:30 daylight time: a 02:00–04:00
//!   slot that night runs 03:00–04:00, one real hour; a slot wholly inside the gap (02:15–02:45)
//!   runs an hour later on the clock (03:15–03:45). A slot that starts inside the gap and ends
//!   soon after it (02:30–03:15) would end before it starts: it does not happen that night and
//!   cannot be booked for it (409).
//! - a time in a **fall-back repeat** (01:30 on the night 02:00 becomes 01:00 again) is its first
//!   occurrence, so a 01:00–02:00 slot that night lasts two real hours.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use platform::instants::Zone;

use super::format_time;
use crate::error::Error;

/// When a session happens, on the place's clock and in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Session {
    pub time_zone: Zone,
    pub date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
}

impl Session {
    /// The session of a slot from `start_time` to `end_time` on `date` where the clocks are
    /// `zone`'s; refused (409) when the daylight-saving change of that date leaves nothing of it.
    pub fn at(
        zone: Zone,
        date: NaiveDate,
        start_time: NaiveTime,
        end_time: NaiveTime,
    ) -> Result<Self, Error> {
        let starts_at = zone.instant(date, start_time);
        let ends_at = zone.instant(date, end_time);
        if ends_at <= starts_at {
            return Err(Error::Refused(format!(
                "{}–{} does not happen on {date} in {zone}: the clocks skip that hour for \
                 daylight-saving time; please choose another date",
                format_time(start_time),
                format_time(end_time)
            )));
        }
        Ok(Self {
            time_zone: zone,
            date,
            start_time,
            end_time,
            starts_at,
            ends_at,
        })
    }

    /// `2026-03-07 09:00–10:00 America/Chicago`, for details a person reads.
    pub fn describe(&self) -> String {
        format!(
            "{} {}–{} {}",
            self.date,
            format_time(self.start_time),
            format_time(self.end_time),
            self.time_zone
        )
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;
    use platform::instants::rfc3339;

    use super::*;

    fn session(zone: &str, date: &str, start: &str, end: &str) -> Result<Session, Error> {
        Session::at(
            zone.parse().unwrap(),
            date.parse().unwrap(),
            NaiveTime::parse_from_str(start, "%H:%M").unwrap(),
            NaiveTime::parse_from_str(end, "%H:%M").unwrap(),
        )
    }

    #[test]
    fn a_nine_o_clock_session_in_austin_is_nine_local_on_both_sides_of_the_spring_change() {
        let before = session("America/Chicago", "2026-03-07", "09:00", "10:00").unwrap();
        let after = session("America/Chicago", "2026-03-08", "09:00", "10:00").unwrap();
        assert_eq!(rfc3339(before.starts_at), "2026-03-07T15:00:00Z");
        assert_eq!(rfc3339(before.ends_at), "2026-03-07T16:00:00Z");
        assert_eq!(rfc3339(after.starts_at), "2026-03-08T14:00:00Z");
        assert_eq!(rfc3339(after.ends_at), "2026-03-08T15:00:00Z");
    }

    #[test]
    fn a_slot_across_the_spring_forward_gap_is_one_real_hour_shorter() {
        let night = session("America/New_York", "2026-03-08", "01:00", "04:00").unwrap();
        assert_eq!(rfc3339(night.starts_at), "2026-03-08T06:00:00Z");
        assert_eq!(rfc3339(night.ends_at), "2026-03-08T08:00:00Z");
        assert_eq!(night.ends_at - night.starts_at, Duration::hours(2));
    }

    #[test]
    fn a_slot_starting_inside_the_gap_starts_as_far_after_the_jump() {
        let night = session("America/New_York", "2026-03-08", "02:30", "04:00").unwrap();
        // 02:30 is read as 03:30 EDT.
        assert_eq!(rfc3339(night.starts_at), "2026-03-08T07:30:00Z");
        assert_eq!(night.ends_at - night.starts_at, Duration::minutes(30));
    }

    #[test]
    fn a_slot_wholly_inside_the_gap_runs_an_hour_later_on_the_clock() {
        let night = session("America/New_York", "2026-03-08", "02:15", "02:45").unwrap();
        // 03:15–03:45 EDT.
        assert_eq!(rfc3339(night.starts_at), "2026-03-08T07:15:00Z");
        assert_eq!(rfc3339(night.ends_at), "2026-03-08T07:45:00Z");
    }

    #[test]
    fn a_slot_from_inside_the_gap_to_just_after_it_does_not_happen_that_night() {
        // 02:30 is read as 03:30, after the 03:15 end.
        let refused = session("America/New_York", "2026-03-08", "02:30", "03:15").unwrap_err();
        assert!(matches!(refused, Error::Refused(_)));
        assert!(
            refused.to_string().contains("does not happen on 2026-03-08"),
            "{refused}"
        );
        // The same slot a week later is an ordinary three quarters of an hour.
        assert!(session("America/New_York", "2026-03-15", "02:30", "03:15").is_ok());
    }

    #[test]
    fn a_slot_across_the_fall_back_repeat_is_one_real_hour_longer() {
        let night = session("America/New_York", "2026-11-01", "01:00", "02:00").unwrap();
        // 01:00 is its first occurrence (EDT); 02:00 is after the repeat (EST).
        assert_eq!(rfc3339(night.starts_at), "2026-11-01T05:00:00Z");
        assert_eq!(rfc3339(night.ends_at), "2026-11-01T07:00:00Z");
    }

    #[test]
    fn a_session_describes_itself_on_the_place_s_clock() {
        let s = session("America/Chicago", "2026-03-07", "09:00", "10:00").unwrap();
        assert_eq!(s.describe(), "2026-03-07 09:00–10:00 America/Chicago");
    }
}
