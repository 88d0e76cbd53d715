//! What a person types into a form, as the services that own it accept it: single lines and free
//! text (trimmed, bounded in characters, no stray control characters; quotes, markup, SQL-looking
//! text and emoji are kept verbatim, as data), and, with the `time` feature, a range of local
//! dates (a coach's time off, a gym's closure).
//!
//! Each refusal is a [`Refusal`] whose message is for the person; a service turns it into its own
//! error (bad input, or a moment that has passed).

/// Why an input was refused. The message names the field and says what would be accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Malformed, missing or out of bounds (the gateway answers 400).
    #[error("{0}")]
    Invalid(String),
    /// Well-formed, but the moment has passed: a range that ended before today (409).
    #[error("{0}")]
    Passed(String),
}

/// A trimmed single-line field, at most its field's length, no control characters. May be empty
/// only when built with [`Line::optional`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line(String);

impl Line {
    /// A field that must not be empty.
    pub fn required(raw: &str, field: &str, max_chars: usize) -> Result<Self, Refusal> {
        let line = Self::optional(raw, field, max_chars)?;
        if line.0.is_empty() {
            return Err(Refusal::Invalid(format!("{field} is required")));
        }
        Ok(line)
    }

    /// A field that may be empty.
    pub fn optional(raw: &str, field: &str, max_chars: usize) -> Result<Self, Refusal> {
        let line = bounded(raw, field, max_chars)?;
        if line.chars().any(char::is_control) {
            return Err(Refusal::Invalid(format!(
                "{field} must be a single line without control characters"
            )));
        }
        Ok(Self(line.to_owned()))
    }

    /// An optional field whose blank means none.
    pub fn blank_is_none(raw: &str, field: &str, max_chars: usize) -> Result<Option<Self>, Refusal> {
        Ok(Some(Self::optional(raw, field, max_chars)?).filter(|line| !line.0.is_empty()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// Trimmed free text that may span lines (tabs and line breaks allowed, other control characters
/// not), at most its field's length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text(String);

impl Text {
    pub fn optional(raw: &str, field: &str, max_chars: usize) -> Result<Self, Refusal> {
        let text = bounded(raw, field, max_chars)?;
        if text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        {
            return Err(Refusal::Invalid(format!(
                "{field} must not contain control characters"
            )));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// `raw` trimmed, refused past `max_chars` characters (not bytes).
fn bounded<'a>(raw: &'a str, field: &str, max_chars: usize) -> Result<&'a str, Refusal> {
    let trimmed = raw.trim();
    if trimmed.chars().count() > max_chars {
        return Err(Refusal::Invalid(format!(
            "{field} must be at most {max_chars} characters"
        )));
    }
    Ok(trimmed)
}

#[cfg(feature = "time")]
pub use days::{LocalDays, parse_date};

#[cfg(feature = "time")]
mod days {
    use chrono::NaiveDate;

    use super::{Line, Refusal};

    /// A reason is a line, at most this many characters.
    const REASON_MAX: usize = 200;

    /// A range of a place's local dates, both inclusive, with an optional reason: a coach's time
    /// off (none of their slots can be booked) or a gym location's closure (none of its court time
    /// is offered).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct LocalDays {
        pub start_date: NaiveDate,
        pub end_date: NaiveDate,
        pub reason: Option<String>,
    }

    impl LocalDays {
        /// Dates as `YYYY-MM-DD`, the end not before the start nor before `earliest` (today
        /// somewhere on earth); a blank reason is none. `what` names the range in the refusal of
        /// one that has ended ("this time off", "this closure").
        pub fn parse(
            start_date: &str,
            end_date: &str,
            reason: Option<&str>,
            earliest: NaiveDate,
            what: &str,
        ) -> Result<Self, Refusal> {
            let start = parse_date(start_date, "start_date")?;
            let end = parse_date(end_date, "end_date")?;
            if end < start {
                return Err(Refusal::Invalid(format!(
                    "end_date ({end}) must not be before start_date ({start})"
                )));
            }
            if end < earliest {
                // A date the clock has passed: 409, as every past date of the API.
                return Err(Refusal::Passed(format!(
                    "{what} ends on {end}, which is in the past; please choose dates from {earliest} on"
                )));
            }
            let reason = match reason {
                Some(raw) => Line::blank_is_none(raw, "reason", REASON_MAX)?.map(Line::into_string),
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
    pub fn parse_date(raw: &str, field: &str) -> Result<NaiveDate, Refusal> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(Refusal::Invalid(format!("{field} is required")));
        }
        NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|_| {
            Refusal::Invalid(format!(
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

        fn parse(start: &str, end: &str, reason: Option<&str>) -> Result<LocalDays, Refusal> {
            LocalDays::parse(start, end, reason, day("2026-06-01"), "this time off")
        }

        fn invalid(result: Result<LocalDays, Refusal>) -> String {
            match result {
                Err(Refusal::Invalid(m)) => m,
                other => panic!("{other:?}"),
            }
        }

        #[test]
        fn a_range_of_dates_with_a_reason() {
            let days = parse("2026-07-01", " 2026-07-04", Some(" Holiday ")).unwrap();
            assert_eq!(
                (days.start_date, days.end_date, days.reason.as_deref()),
                (day("2026-07-01"), day("2026-07-04"), Some("Holiday"))
            );
        }

        #[test]
        fn one_day_has_the_same_start_and_end_and_a_blank_reason_is_none() {
            let days = parse("2026-07-01", "2026-07-01", Some("  ")).unwrap();
            assert_eq!(days.start_date, days.end_date);
            assert_eq!(days.reason, None);
        }

        #[test]
        fn an_end_before_the_start_is_refused_naming_both() {
            assert_eq!(
                invalid(parse("2026-07-04", "2026-07-01", None)),
                "end_date (2026-07-01) must not be before start_date (2026-07-04)"
            );
        }

        #[test]
        fn a_range_that_has_ended_is_refused_as_a_moment_passed() {
            match parse("2026-05-01", "2026-05-31", None) {
                Err(Refusal::Passed(m)) => assert!(m.starts_with("this time off ends on 2026-05-31"), "{m}"),
                other => panic!("{other:?}"),
            }
            // One that started before today but goes on is fine.
            assert!(parse("2026-05-01", "2026-06-01", None).is_ok());
        }

        #[test]
        fn malformed_dates_are_refused_and_a_long_range_is_fine() {
            assert!(
                invalid(parse("07/01/2026", "2026-07-04", None)).starts_with("start_date must be a date")
            );
            assert_eq!(invalid(parse("2026-07-01", "", None)), "end_date is required");
            assert!(parse("2026-07-01", "2027-07-02", None).is_ok());
        }

        #[test]
        fn a_reason_is_one_line() {
            assert!(
                invalid(parse("2026-07-01", "2026-07-02", Some("a\nb")))
                    .starts_with("reason must be a single line")
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_kept_verbatim() {
        let raw = "  Robert'); DROP TABLE coaching.slot;-- <script>🏀</script> ";
        assert_eq!(Line::required(raw, "name", 100).unwrap().as_str(), raw.trim());
    }

    #[test]
    fn a_required_line_refuses_blank_text_and_an_optional_one_keeps_it_empty() {
        let error = Line::required("   ", "gym_name", 100).unwrap_err();
        assert_eq!(error.to_string(), "gym_name is required");
        assert_eq!(Line::optional("  ", "phone", 30).unwrap().as_str(), "");
        assert_eq!(Line::blank_is_none("  ", "reason", 30).unwrap(), None);
    }

    #[test]
    fn length_is_counted_in_characters_not_bytes() {
        assert!(Line::required(&"é".repeat(100), "name", 100).is_ok());
        let error = Line::required(&"x".repeat(101), "name", 100).unwrap_err();
        assert_eq!(error.to_string(), "name must be at most 100 characters");
    }

    #[test]
    fn lines_refuse_control_characters_but_text_allows_line_breaks() {
        assert!(Line::required("Main\nStreet", "address", 200).is_err());
        assert!(Line::required("Main\u{7}Street", "address", 200).is_err());
        assert_eq!(
            Text::optional("Two courts.\nFree parking.", "description", 2000)
                .unwrap()
                .as_str(),
            "Two courts.\nFree parking."
        );
        assert_eq!(
            Text::optional("bell\u{7}", "description", 2000).unwrap_err(),
            Refusal::Invalid("description must not contain control characters".into())
        );
    }
}
