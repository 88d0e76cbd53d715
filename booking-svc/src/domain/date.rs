//! The date a client books for, and the wire formats of dates and times.

use chrono::{NaiveDate, NaiveTime};

use crate::error::Error;

/// A real calendar date, as the client sends it. Whether the session on it is still ahead is
/// decided on its instant, in the place's zone ([`super::Policy::check_bookable`]), not here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BookingDate(NaiveDate);

impl BookingDate {
    /// Parses `YYYY-MM-DD` and refuses dates that do not exist.
    pub fn parse(raw: &str) -> Result<Self, Error> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(Error::Invalid("booking_date is required (YYYY-MM-DD)".into()));
        }
        let date = parse_date(raw).ok_or_else(|| {
            Error::Invalid(format!(
                "booking_date {raw:?} is not a date: use YYYY-MM-DD with a day that exists in that month"
            ))
        })?;
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

    #[test]
    fn a_date_parses_from_the_iso_form() {
        let date = BookingDate::parse(" 2026-03-02 ").unwrap();
        assert_eq!(date.get(), NaiveDate::from_ymd_opt(2026, 3, 2).unwrap());
    }

    #[test]
    fn a_missing_date_is_required() {
        let error = BookingDate::parse("  ").unwrap_err();
        assert_eq!(error.to_string(), "booking_date is required (YYYY-MM-DD)");
    }

    #[test]
    fn february_the_thirtieth_does_not_exist() {
        let error = BookingDate::parse("2026-02-30").unwrap_err();
        assert!(error.to_string().contains("YYYY-MM-DD"), "{error}");
    }

    #[test]
    fn a_leap_day_exists_only_in_leap_years() {
        assert!(BookingDate::parse("2028-02-29").is_ok());
        assert!(BookingDate::parse("2027-02-29").is_err());
    }

    #[test]
    fn only_the_strict_iso_form_is_a_date() {
        for raw in [
            "2026-3-05",
            "05/03/2026",
            "2026-03-05T10:00",
            "+2026-03-05",
            "",
            "tomorrow",
        ] {
            assert!(BookingDate::parse(raw).is_err(), "{raw:?}");
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
