//! Dates and times of court availability: `YYYY-MM-DD` dates, `HH:MM` (24-hour) times, an end
//! after its start, and the shared "not in the past" rule.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

use crate::error::Error;

/// The earliest date that is not in the past: it is still that day somewhere, so a person in
/// Los Angeles in the evening can pick their today (`(now_utc - 12h).date()`).
pub fn earliest_open_date(now: DateTime<Utc>) -> NaiveDate {
    (now - Duration::hours(12)).date_naive()
}

/// `YYYY-MM-DD`.
pub fn format_date(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// `HH:MM`.
pub fn format_time(time: NaiveTime) -> String {
    time.format("%H:%M").to_string()
}

/// A date as exactly `YYYY-MM-DD` that exists on the calendar.
pub fn parse_date(raw: &str, field: &str) -> Result<NaiveDate, Error> {
    let raw = raw.trim();
    let shaped = raw.len() == 10
        && raw.char_indices().all(|(i, c)| match i {
            4 | 7 => c == '-',
            _ => c.is_ascii_digit(),
        });
    if !shaped {
        return Err(Error::Invalid(format!("{field} must be a date as YYYY-MM-DD")));
    }
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .map_err(|_| Error::Invalid(format!("{field} {raw} is not a date on the calendar")))
}

/// A time as `HH:MM` (24-hour); `HH:MM:00` is accepted too.
pub fn parse_time(raw: &str, field: &str) -> Result<NaiveTime, Error> {
    let raw = raw.trim();
    let invalid = || Error::Invalid(format!("{field} must be a time as HH:MM (24-hour)"));
    let shaped = |s: &str| {
        s.len() == 5
            && s.char_indices()
                .all(|(i, c)| if i == 2 { c == ':' } else { c.is_ascii_digit() })
    };
    let hhmm = match raw.strip_suffix(":00") {
        Some(hhmm) if raw.len() == 8 => hhmm,
        _ => raw,
    };
    if !shaped(hhmm) {
        return Err(invalid());
    }
    NaiveTime::parse_from_str(hhmm, "%H:%M").map_err(|_| invalid())
}

/// A stretch of one day a court is offered: on a date not in the past, ending after it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourtTime {
    pub date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
}

impl CourtTime {
    /// `today` is [`earliest_open_date`] of now.
    pub fn parse(date: &str, start_time: &str, end_time: &str, today: NaiveDate) -> Result<Self, Error> {
        let date = parse_date(date, "date")?;
        let start_time = parse_time(start_time, "start_time")?;
        let end_time = parse_time(end_time, "end_time")?;
        if end_time <= start_time {
            return Err(Error::Invalid("end_time must be after start_time".into()));
        }
        // A real date the clock has passed: the request is well-formed, the moment is gone.
        if date < today {
            return Err(Error::Precondition(format!(
                "date {} is in the past; choose today or a later date",
                format_date(date)
            )));
        }
        Ok(Self {
            date,
            start_time,
            end_time,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn today_is_still_yesterday_until_noon_utc() {
        assert_eq!(earliest_open_date(utc("2026-03-10T11:59:00Z")), day("2026-03-09"));
        assert_eq!(earliest_open_date(utc("2026-03-10T12:00:00Z")), day("2026-03-10"));
    }

    #[test]
    fn dates_must_be_real_and_shaped() {
        assert_eq!(parse_date("2026-02-28", "date").unwrap(), day("2026-02-28"));
        assert_eq!(
            parse_date("2026-02-30", "date").unwrap_err().to_string(),
            "date 2026-02-30 is not a date on the calendar"
        );
        for bad in ["2026-2-28", "28/02/2026", "", "2026-02-28T10:00"] {
            assert_eq!(
                parse_date(bad, "date").unwrap_err().to_string(),
                "date must be a date as YYYY-MM-DD",
                "{bad:?}"
            );
        }
    }

    #[test]
    fn times_are_24_hour_hh_mm() {
        assert_eq!(format_time(parse_time("09:30", "start_time").unwrap()), "09:30");
        assert_eq!(format_time(parse_time("23:59:00", "end_time").unwrap()), "23:59");
        for bad in ["9:30", "24:00", "12:60", "10:00:30", "noon", ""] {
            assert!(parse_time(bad, "start_time").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_court_time_ends_after_it_starts() {
        let today = day("2026-03-10");
        assert!(CourtTime::parse("2026-03-10", "10:00", "11:00", today).is_ok());
        let error = CourtTime::parse("2026-03-10", "11:00", "11:00", today).unwrap_err();
        assert_eq!(error.to_string(), "end_time must be after start_time");
        assert!(CourtTime::parse("2026-03-10", "11:00", "10:00", today).is_err());
    }

    #[test]
    fn a_court_time_is_not_in_the_past() {
        let today = day("2026-03-10");
        let error = CourtTime::parse("2026-03-09", "10:00", "11:00", today).unwrap_err();
        // A real date already gone is a conflict with the clock (409), not bad input.
        assert!(matches!(error, Error::Precondition(_)), "{error:?}");
        assert_eq!(
            error.to_string(),
            "date 2026-03-09 is in the past; choose today or a later date"
        );
    }
}
