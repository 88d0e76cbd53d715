//! A closure of a gym location: a range of its local dates (both inclusive) on which its court
//! time is not offered, with an optional reason that the coaches whose requests it denies read.
//! The range and its reason are parsed as a coach's time off is ([`platform::input::LocalDays`]).

use chrono::NaiveDate;

pub use platform::input::LocalDays as NewClosure;

/// What a closure answers a request on its dates: "this location is closed from 2026-07-01 to
/// 2026-07-03 (Tournament)", for the coach who made it.
pub fn closed_sentence(start: NaiveDate, end: NaiveDate, reason: Option<&str>) -> String {
    let when = if start == end {
        format!("on {start}")
    } else {
        format!("from {start} to {end}")
    };
    match reason {
        Some(reason) => format!("this location is closed {when} ({reason})"),
        None => format!("this location is closed {when}"),
    }
}

/// Why a request on a new closure's dates is denied.
pub fn denial(closure: &NewClosure) -> String {
    closed_sentence(closure.start_date, closure.end_date, closure.reason.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(raw: &str) -> NaiveDate {
        raw.parse().unwrap()
    }

    #[test]
    fn a_closure_tells_its_dates_and_reason() {
        let closure = NewClosure::parse(
            "2026-07-01",
            "2026-07-03",
            Some(" Tournament "),
            day("2026-06-01"),
            "this closure",
        )
        .unwrap();
        assert_eq!(
            denial(&closure),
            "this location is closed from 2026-07-01 to 2026-07-03 (Tournament)"
        );
        let one_day = NewClosure::parse(
            "2026-07-01",
            "2026-07-01",
            Some(""),
            day("2026-06-01"),
            "this closure",
        )
        .unwrap();
        assert_eq!(denial(&one_day), "this location is closed on 2026-07-01");
    }
}
