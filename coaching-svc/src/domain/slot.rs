//! Availability slots: a weekly (recurring) slot on a weekday, or a one-time slot on a date, with
//! a start and an end time and an optional location.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Timelike, Utc};
use uuid::Uuid;

use super::parse_optional_id;
use crate::error::Error;

/// A day of the week, stored and shown capitalised ("Monday").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    pub const ALL: [Weekday; 7] = [
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
        Weekday::Sunday,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Weekday::Monday => "Monday",
            Weekday::Tuesday => "Tuesday",
            Weekday::Wednesday => "Wednesday",
            Weekday::Thursday => "Thursday",
            Weekday::Friday => "Friday",
            Weekday::Saturday => "Saturday",
            Weekday::Sunday => "Sunday",
        }
    }

    /// A day's full name, whatever its case.
    pub fn parse(raw: &str) -> Result<Self, Error> {
        let raw = raw.trim();
        Self::ALL
            .into_iter()
            .find(|d| d.as_str().eq_ignore_ascii_case(raw))
            .ok_or_else(|| Error::Invalid("day_of_week must be a day from Monday to Sunday".into()))
    }
}

/// When a slot recurs or happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// Every week on this day.
    Recurring(Weekday),
    /// Once, on this date.
    OneTime(NaiveDate),
}

impl SlotKind {
    /// The stored `slot_type`.
    pub fn slot_type(self) -> &'static str {
        match self {
            SlotKind::Recurring(_) => "recurring",
            SlotKind::OneTime(_) => "one-time",
        }
    }
}

/// A new slot, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct NewSlot {
    pub kind: SlotKind,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub location_id: Option<Uuid>,
}

/// The earliest date that is not in the past: it is still that day somewhere, so a person in Los
/// Angeles in the evening (already tomorrow in UTC) can still pick their today.
pub fn earliest_date(now: DateTime<Utc>) -> NaiveDate {
    (now - Duration::hours(12)).date_naive()
}

/// A time as `HH:MM`.
pub fn format_time(time: NaiveTime) -> String {
    time.format("%H:%M").to_string()
}

fn parse_time(raw: &str, field: &str) -> Result<NaiveTime, Error> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(Error::Invalid(format!("{field} is required")));
    }
    NaiveTime::parse_from_str(raw, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(raw, "%H:%M:%S"))
        .map(|t| t.with_second(0).unwrap_or(t).with_nanosecond(0).unwrap_or(t))
        .map_err(|_| Error::Invalid(format!("{field} must be a time as HH:MM (24-hour), e.g. 09:30")))
}

fn parse_date(raw: &str, today: NaiveDate) -> Result<NaiveDate, Error> {
    let date = NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d")
        .map_err(|_| Error::Invalid("specific_date must be a real date as YYYY-MM-DD".into()))?;
    if date < today {
        // A real date the clock has passed: the request is well-formed, the moment is gone.
        return Err(Error::Precondition(
            "specific_date must not be in the past".into(),
        ));
    }
    Ok(date)
}

fn present(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim).filter(|s| !s.is_empty())
}

impl NewSlot {
    /// A recurring slot needs `day_of_week` (its `specific_date` is ignored); a one-time slot
    /// needs `specific_date`, not before `today` (its `day_of_week` is ignored: the web form
    /// always sends its default day). The end must come after the start.
    pub fn parse(
        slot_type: &str,
        day_of_week: Option<&str>,
        specific_date: Option<&str>,
        start_time: &str,
        end_time: &str,
        location_id: Option<&str>,
        today: NaiveDate,
    ) -> Result<Self, Error> {
        let kind = match slot_type.trim().to_ascii_lowercase().as_str() {
            "recurring" => {
                SlotKind::Recurring(Weekday::parse(present(day_of_week).ok_or_else(|| {
                    Error::Invalid("day_of_week is required for a recurring slot".into())
                })?)?)
            }
            "one-time" | "one_time" | "onetime" => SlotKind::OneTime(parse_date(
                present(specific_date)
                    .ok_or_else(|| Error::Invalid("specific_date is required for a one-time slot".into()))?,
                today,
            )?),
            "" => {
                return Err(Error::Invalid(
                    "slot_type is required: recurring or one-time".into(),
                ));
            }
            _ => return Err(Error::Invalid("slot_type must be recurring or one-time".into())),
        };
        let start_time = parse_time(start_time, "start_time")?;
        let end_time = parse_time(end_time, "end_time")?;
        if end_time <= start_time {
            return Err(Error::Invalid("end_time must be after start_time".into()));
        }
        Ok(Self {
            kind,
            start_time,
            end_time,
            location_id: parse_optional_id(location_id, "location_id")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 10).unwrap()
    }

    fn recurring(day: Option<&str>, start: &str, end: &str) -> Result<NewSlot, Error> {
        NewSlot::parse("recurring", day, None, start, end, None, today())
    }

    fn one_time(date: Option<&str>) -> Result<NewSlot, Error> {
        NewSlot::parse("one-time", Some("Monday"), date, "09:00", "10:00", None, today())
    }

    fn message(result: Result<NewSlot, Error>) -> String {
        match result {
            Err(Error::Invalid(m)) => m,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn a_recurring_day_is_matched_whatever_its_case_and_stored_capitalised() {
        let slot = recurring(Some("  wEdNeSdAy "), "09:00", "10:30").unwrap();
        assert_eq!(slot.kind, SlotKind::Recurring(Weekday::Wednesday));
        assert_eq!(Weekday::Wednesday.as_str(), "Wednesday");
    }

    #[test]
    fn a_recurring_slot_needs_a_real_day() {
        assert_eq!(
            message(recurring(None, "09:00", "10:00")),
            "day_of_week is required for a recurring slot"
        );
        assert_eq!(
            message(recurring(Some("Funday"), "09:00", "10:00")),
            "day_of_week must be a day from Monday to Sunday"
        );
    }

    #[test]
    fn a_one_time_slot_needs_a_real_date_and_ignores_the_day() {
        let slot = one_time(Some("2026-03-12")).unwrap();
        assert_eq!(
            slot.kind,
            SlotKind::OneTime(NaiveDate::from_ymd_opt(2026, 3, 12).unwrap())
        );
        assert_eq!(
            message(one_time(None)),
            "specific_date is required for a one-time slot"
        );
        assert!(one_time(Some("2026-02-30")).is_err());
        assert!(one_time(Some("12/03/2026")).is_err());
    }

    #[test]
    fn a_one_time_slot_may_be_today_but_not_earlier() {
        assert!(one_time(Some("2026-03-10")).is_ok());
        // A real date already gone is a conflict with the clock (409), not bad input.
        match one_time(Some("2026-03-09")) {
            Err(Error::Precondition(m)) => assert_eq!(m, "specific_date must not be in the past"),
            other => panic!("expected Precondition, got {other:?}"),
        }
    }

    #[test]
    fn an_unknown_slot_type_is_refused() {
        assert_eq!(
            message(NewSlot::parse(
                "weekly",
                Some("Monday"),
                None,
                "09:00",
                "10:00",
                None,
                today()
            )),
            "slot_type must be recurring or one-time"
        );
    }

    #[test]
    fn the_end_must_come_after_the_start() {
        assert_eq!(
            message(recurring(Some("Monday"), "10:00", "10:00")),
            "end_time must be after start_time"
        );
        assert!(recurring(Some("Monday"), "10:00", "09:59").is_err());
    }

    #[test]
    fn times_are_24_hour_hh_mm() {
        let slot = recurring(Some("Monday"), "07:05", "23:59:59").unwrap();
        assert_eq!(format_time(slot.start_time), "07:05");
        assert_eq!(format_time(slot.end_time), "23:59");
        for bad in ["7pm", "25:00", "12:60", ""] {
            assert!(recurring(Some("Monday"), bad, "23:00").is_err(), "{bad}");
        }
    }

    #[test]
    fn a_malformed_location_id_is_refused() {
        let result = NewSlot::parse(
            "recurring",
            Some("Monday"),
            None,
            "09:00",
            "10:00",
            Some("x"),
            today(),
        );
        assert_eq!(message(result), "location_id must be a UUID");
    }

    #[test]
    fn the_earliest_date_is_still_today_somewhere() {
        let evening_in_la = "2026-03-11T03:00:00Z".parse::<DateTime<Utc>>().unwrap();
        assert_eq!(
            earliest_date(evening_in_la),
            NaiveDate::from_ymd_opt(2026, 3, 10).unwrap()
        );
        let noon_utc = "2026-03-11T12:00:00Z".parse::<DateTime<Utc>>().unwrap();
        assert_eq!(
            earliest_date(noon_utc),
            NaiveDate::from_ymd_opt(2026, 3, 11).unwrap()
        );
    }
}
