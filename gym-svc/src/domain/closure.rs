//! A closure of a gym location: a range of its local dates (both inclusive) on which its court
//! time is not offered, with an optional reason that the coaches whose requests it denies read.

use chrono::NaiveDate;

use super::text::Line;
use crate::error::Error;

/// A reason is a line, at most this many characters.
const REASON_MAX: usize = 200;

/// A new closure as the gym asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewClosure {
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub reason: Option<String>,
}

impl NewClosure {
    /// Dates as `YYYY-MM-DD`, the end not before the start nor before `earliest` (today somewhere
    /// on earth); a blank reason is none.
    pub fn parse(
        start_date: &str,
        end_date: &str,
        reason: Option<&str>,
        earliest: NaiveDate,
    ) -> Result<Self, Error> {
        let start = date(start_date, "start_date")?;
        let end = date(end_date, "end_date")?;
        if end < start {
            return Err(Error::Invalid(format!(
                "end_date ({end}) must not be before start_date ({start})"
            )));
        }
        if end < earliest {
            // A date the clock has passed: 409, as every past date of the API.
            return Err(Error::Precondition(format!(
                "this closure ends on {end}, which is in the past; please choose dates from {earliest} on"
            )));
        }
        let reason = match reason {
            Some(raw) => {
                Some(Line::optional(raw, "reason", REASON_MAX)?.as_str().to_owned()).filter(|r| !r.is_empty())
            }
            None => None,
        };
        Ok(Self {
            start_date: start,
            end_date: end,
            reason,
        })
    }

    /// Why a request on its dates is denied or refused, for the coach who made it.
    pub fn denial(&self) -> String {
        closed_sentence(self.start_date, self.end_date, self.reason.as_deref())
    }
}

/// "this location is closed from 2026-07-01 to 2026-07-03 (Tournament)".
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

fn date(raw: &str, field: &str) -> Result<NaiveDate, Error> {
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

    fn day(raw: &str) -> NaiveDate {
        raw.parse().unwrap()
    }

    #[test]
    fn a_closure_is_a_range_of_dates_with_an_optional_reason() {
        let closure = NewClosure::parse(
            "2026-07-01",
            "2026-07-03",
            Some(" Tournament "),
            day("2026-06-01"),
        )
        .unwrap();
        assert_eq!(
            (closure.start_date, closure.end_date),
            (day("2026-07-01"), day("2026-07-03"))
        );
        assert_eq!(
            closure.denial(),
            "this location is closed from 2026-07-01 to 2026-07-03 (Tournament)"
        );
        let one_day = NewClosure::parse("2026-07-01", "2026-07-01", Some(""), day("2026-06-01")).unwrap();
        assert_eq!(one_day.denial(), "this location is closed on 2026-07-01");
    }

    #[test]
    fn reversed_past_and_malformed_closures_are_refused() {
        let refused = |s, e| match NewClosure::parse(s, e, None, day("2026-06-01")) {
            Err(Error::Invalid(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(refused("2026-07-03", "2026-07-01").contains("must not be before"));
        assert!(matches!(
            NewClosure::parse("2026-05-01", "2026-05-02", None, day("2026-06-01")),
            Err(Error::Precondition(m)) if m.contains("in the past")
        ));
        assert!(refused("tomorrow", "2026-07-01").starts_with("start_date must be a date"));
        assert!(NewClosure::parse("2026-07-01", "2027-07-02", None, day("2026-06-01")).is_ok());
    }
}
