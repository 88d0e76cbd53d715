//! A coach's time off: a range of their local dates (both inclusive) on which none of their slots
//! can be booked, with an optional reason for the coach's own list.

use chrono::NaiveDate;

use super::text::single_line;
use crate::error::Error;

/// A reason is a line, at most this many characters.
const REASON_MAX: usize = 200;

/// A new time off as the coach asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTimeOff {
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub reason: Option<String>,
}

impl NewTimeOff {
    /// Dates as `YYYY-MM-DD`, the end not before the start nor before `earliest` (today somewhere
    /// on earth); a blank reason is none.
    pub fn parse(
        start_date: &str,
        end_date: &str,
        reason: Option<&str>,
        earliest: NaiveDate,
    ) -> Result<Self, Error> {
        let start = parse_date(start_date, "start_date")?;
        let end = parse_date(end_date, "end_date")?;
        if end < start {
            return Err(Error::Invalid(format!(
                "end_date ({end}) must not be before start_date ({start})"
            )));
        }
        if end < earliest {
            // A date the clock has passed: 409, as every past date of the API.
            return Err(Error::Precondition(format!(
                "this time off ends on {end}, which is in the past; please choose dates from {earliest} on"
            )));
        }
        let reason = match reason {
            Some(raw) => Some(single_line(raw, "reason", REASON_MAX, false)?).filter(|r| !r.is_empty()),
            None => None,
        };
        Ok(Self {
            start_date: start,
            end_date: end,
            reason,
        })
    }
}

/// A date as `YYYY-MM-DD`; `field` names it in the message.
pub fn parse_date(raw: &str, field: &str) -> Result<NaiveDate, Error> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(Error::Invalid(format!("{field} is required")));
    }
    NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|_| {
        Error::Invalid(format!(
            "{field} must be a date as YYYY-MM-DD, such as 2026-07-04"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(raw: &str) -> NaiveDate {
        raw.parse().unwrap()
    }

    fn invalid(result: Result<NewTimeOff, Error>) -> String {
        match result {
            Err(Error::Invalid(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_range_of_dates_with_a_reason_is_a_time_off() {
        let off =
            NewTimeOff::parse("2026-07-01", " 2026-07-04", Some(" Holiday "), date("2026-06-01")).unwrap();
        assert_eq!(off.start_date, date("2026-07-01"));
        assert_eq!(off.end_date, date("2026-07-04"));
        assert_eq!(off.reason.as_deref(), Some("Holiday"));
    }

    #[test]
    fn one_day_off_has_the_same_start_and_end_and_a_blank_reason_is_none() {
        let off = NewTimeOff::parse("2026-07-01", "2026-07-01", Some("  "), date("2026-06-01")).unwrap();
        assert_eq!(off.start_date, off.end_date);
        assert_eq!(off.reason, None);
    }

    #[test]
    fn an_end_before_the_start_is_refused_naming_both() {
        let m = invalid(NewTimeOff::parse(
            "2026-07-04",
            "2026-07-01",
            None,
            date("2026-06-01"),
        ));
        assert_eq!(
            m,
            "end_date (2026-07-01) must not be before start_date (2026-07-04)"
        );
    }

    #[test]
    fn a_time_off_that_has_ended_is_refused_as_a_moment_passed() {
        match NewTimeOff::parse("2026-05-01", "2026-05-31", None, date("2026-06-01")) {
            Err(Error::Precondition(m)) => assert!(m.contains("in the past"), "{m}"),
            other => panic!("{other:?}"),
        }
        // One that started before today but goes on is fine.
        assert!(NewTimeOff::parse("2026-05-01", "2026-06-01", None, date("2026-06-01")).is_ok());
    }

    #[test]
    fn malformed_dates_are_refused_and_a_long_range_is_fine() {
        let m = invalid(NewTimeOff::parse(
            "07/01/2026",
            "2026-07-04",
            None,
            date("2026-06-01"),
        ));
        assert!(m.starts_with("start_date must be a date"), "{m}");
        let m = invalid(NewTimeOff::parse("2026-07-01", "", None, date("2026-06-01")));
        assert_eq!(m, "end_date is required");
        assert!(NewTimeOff::parse("2026-07-01", "2027-07-02", None, date("2026-06-01")).is_ok());
    }
}
