//! The date a client books for, and the wire formats of dates and times.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

use crate::error::Error;

/// A real calendar date that is not in the past: `date >= (now_utc - 12h).date()`, because it is
/// still that day somewhere (a person in Los Angeles in the evening can still pick their today).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BookingDate(NaiveDate);

impl BookingDate {
    /// Parses `YYYY-MM-DD` and refuses dates that do not exist or are already over everywhere.
    pub fn parse(raw: &str, now: DateTime<Utc>) -> Result<Self, Error> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(Error::Invalid("booking_date is required (YYYY-MM-DD)".into()));
        }
        let date = parse_date(raw).ok_or_else(|| {
            Error::Invalid(format!(
                "booking_date {raw:?} is not a date: use YYYY-MM-DD with a day that exists in that month"
            ))
        })?;
        let earliest = (now - Duration::hours(12)).date_naive();
        if date < earliest {
            return Err(Error::Invalid(format!(
                "booking_date {date} is in the past; please choose today or a later date"
            )));
        }
        Ok(Self(date))
    }

    pub fn get(self) -> NaiveDate {
        self.0
    }
}

/// A strict `YYYY-MM-DD` (zero-padded, nothing around it) that names a real day.
pub fn parse_date(raw: &str) -> Option<NaiveDate> {
    let bytes = raw.as_bytes();
    let shape = bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        });
    if !shape {
        return None;
    }
    NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()
}

/// `HH:MM` (or `HH:MM:SS`) 24-hour time.
pub fn parse_time(raw: &str) -> Option<NaiveTime> {
    let raw = raw.trim();
    NaiveTime::parse_from_str(raw, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(raw, "%H:%M:%S"))
        .ok()
}

/// A time as the API shows it: `HH:MM`.
pub fn format_time(time: NaiveTime) -> String {
    time.format("%H:%M").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn a_future_date_is_bookable() {
        let date = BookingDate::parse("2026-03-02", at("2026-03-01T09:00:00Z")).unwrap();
        assert_eq!(date.get(), NaiveDate::from_ymd_opt(2026, 3, 2).unwrap());
    }

    #[test]
    fn today_in_utc_is_bookable() {
        assert!(BookingDate::parse("2026-03-01", at("2026-03-01T23:59:00Z")).is_ok());
    }

    #[test]
    fn yesterday_in_utc_is_still_bookable_in_the_first_twelve_hours_of_today() {
        // 06:00 UTC is 22:00 the evening before in Los Angeles.
        assert!(BookingDate::parse("2026-02-28", at("2026-03-01T06:00:00Z")).is_ok());
    }

    #[test]
    fn yesterday_is_refused_once_it_is_over_everywhere() {
        let error = BookingDate::parse("2026-02-28", at("2026-03-01T12:00:01Z")).unwrap_err();
        assert!(error.to_string().contains("in the past"), "{error}");
    }

    #[test]
    fn february_the_thirtieth_does_not_exist() {
        let error = BookingDate::parse("2026-02-30", at("2026-01-01T00:00:00Z")).unwrap_err();
        assert!(error.to_string().contains("YYYY-MM-DD"), "{error}");
    }

    #[test]
    fn a_leap_day_exists_only_in_leap_years() {
        let now = at("2026-01-01T00:00:00Z");
        assert!(BookingDate::parse("2028-02-29", now).is_ok());
        assert!(BookingDate::parse("2027-02-29", now).is_err());
    }

    #[test]
    fn only_the_strict_iso_form_is_a_date() {
        let now = at("2026-01-01T00:00:00Z");
        for raw in [
            "2026-3-05",
            "05/03/2026",
            "2026-03-05T10:00",
            "+2026-03-05",
            "",
            "tomorrow",
        ] {
            assert!(BookingDate::parse(raw, now).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn times_read_and_print_as_hours_and_minutes() {
        let time = parse_time("07:30").unwrap();
        assert_eq!(format_time(time), "07:30");
        assert_eq!(parse_time("18:00:00").map(format_time).as_deref(), Some("18:00"));
        assert!(parse_time("25:00").is_none());
    }
}
