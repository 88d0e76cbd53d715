//! A coach's availability slot as booking sees it (coaching-svc owns it), and whether a date fits.

use chrono::{Datelike, NaiveDate, NaiveTime, Weekday};
use platform::instants::Zone;

use super::{BookingDate, CoachId, Policy, Session, SlotId, TimeOff, date::parse_date};
use crate::error::Error;

/// When a slot happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotWhen {
    /// Every week on this day.
    Weekly(Weekday),
    /// Once, on this date.
    Once(NaiveDate),
}

impl SlotWhen {
    /// From coaching-svc's fields. As SPEC.md says, any slot type other than `recurring` is a
    /// one-off date. `None` when the fields the type needs are missing or malformed.
    pub fn parse(slot_type: &str, day_of_week: Option<&str>, specific_date: Option<&str>) -> Option<Self> {
        if slot_type.trim().eq_ignore_ascii_case("recurring") {
            day_of_week?.trim().parse::<Weekday>().ok().map(SlotWhen::Weekly)
        } else {
            parse_date(specific_date?.trim()).map(SlotWhen::Once)
        }
    }

    /// Ok when a booking on `date` is a session of this slot; otherwise a sentence saying which
    /// date would fit.
    pub fn check_fits(self, date: NaiveDate) -> Result<(), Error> {
        match self {
            SlotWhen::Weekly(day) if date.weekday() == day => Ok(()),
            SlotWhen::Weekly(day) => Err(Error::Invalid(format!(
                "this slot is every {slot_day}, but {date} is a {date_day}; please pick a {slot_day}",
                slot_day = day_name(day),
                date_day = day_name(date.weekday()),
            ))),
            SlotWhen::Once(on) if date == on => Ok(()),
            SlotWhen::Once(on) => Err(Error::Invalid(format!(
                "this slot is only on {on}; please book it for that date"
            ))),
        }
    }
}

/// A slot with what a booking snapshots of it, and the coach's policy and time off it is booked
/// under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub slot_id: SlotId,
    pub coach_id: CoachId,
    pub when: SlotWhen,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    /// Empty when the slot has no location.
    pub location_name: String,
    /// The zone of its place (its location's, or the coach profile's when it has none).
    pub time_zone: Zone,
    pub policy: Policy,
    /// The coach's time off that has not ended (every date of it refuses bookings).
    pub time_off: Vec<TimeOff>,
    /// The coach's hourly rate now, whole cents (0: free).
    pub hourly_rate_cents: i64,
}

impl Slot {
    /// The session of this slot on `date` a client may ask `coach_id` for (whether it may be
    /// booked now is the policy's question).
    pub fn session(&self, coach_id: CoachId, date: BookingDate) -> Result<Session, Error> {
        if self.coach_id != coach_id {
            return Err(Error::Invalid("this slot does not belong to that coach".into()));
        }
        self.when.check_fits(date.get())?;
        Session::at(self.time_zone, date.get(), self.start_time, self.end_time)
    }

    /// What one session of it costs now: the hourly rate for its length on the wall clock.
    pub fn price_cents(&self) -> i64 {
        let minutes = (self.end_time - self.start_time).num_minutes();
        crate::payments::money::price_cents(self.hourly_rate_cents, minutes)
    }
}

/// `Monday`..`Sunday`.
pub fn day_name(day: Weekday) -> &'static str {
    match day {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    }
}

#[cfg(test)]
mod tests {
    use platform::instants::rfc3339;
    use uuid::Uuid;

    use super::*;

    fn date(raw: &str) -> NaiveDate {
        parse_date(raw).unwrap()
    }

    fn slot(coach_id: CoachId, when: SlotWhen) -> Slot {
        Slot {
            slot_id: SlotId(Uuid::new_v4()),
            coach_id,
            when,
            start_time: NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
            end_time: NaiveTime::from_hms_opt(10, 0, 0).unwrap(),
            location_name: String::new(),
            time_zone: "America/Chicago".parse().unwrap(),
            policy: Policy::default(),
            hourly_rate_cents: 0,
            time_off: Vec::new(),
        }
    }

    #[test]
    fn a_session_costs_the_hourly_rate_for_the_slot_length() {
        let coach = CoachId(Uuid::new_v4());
        let hour = Slot {
            hourly_rate_cents: 7500,
            ..slot(coach, SlotWhen::Weekly(Weekday::Mon))
        };
        assert_eq!(hour.price_cents(), 7500);
        let ninety = Slot {
            end_time: NaiveTime::from_hms_opt(10, 30, 0).unwrap(),
            ..hour.clone()
        };
        assert_eq!(ninety.price_cents(), 11_250);
        assert_eq!(slot(coach, SlotWhen::Weekly(Weekday::Mon)).price_cents(), 0);
    }

    #[test]
    fn a_recurring_slot_reads_its_weekday_whatever_the_case() {
        assert_eq!(
            SlotWhen::parse("recurring", Some("monday"), None),
            Some(SlotWhen::Weekly(Weekday::Mon))
        );
        assert_eq!(
            SlotWhen::parse("Recurring", Some("Sunday"), Some("2026-03-01")),
            Some(SlotWhen::Weekly(Weekday::Sun))
        );
    }

    #[test]
    fn any_other_slot_type_is_a_one_off_date() {
        assert_eq!(
            SlotWhen::parse("one-time", None, Some("2026-03-05")),
            Some(SlotWhen::Once(date("2026-03-05")))
        );
        assert_eq!(
            SlotWhen::parse("specific", Some("Monday"), Some("2026-03-05")),
            Some(SlotWhen::Once(date("2026-03-05")))
        );
    }

    #[test]
    fn a_slot_without_the_field_its_type_needs_is_unreadable() {
        assert_eq!(SlotWhen::parse("recurring", None, Some("2026-03-05")), None);
        assert_eq!(SlotWhen::parse("recurring", Some("Funday"), None), None);
        assert_eq!(SlotWhen::parse("one-time", Some("Monday"), None), None);
    }

    #[test]
    fn a_recurring_slot_fits_only_its_weekday() {
        let mondays = SlotWhen::Weekly(Weekday::Mon);
        assert!(mondays.check_fits(date("2026-03-02")).is_ok());
        assert!(mondays.check_fits(date("2026-03-09")).is_ok());
        let error = mondays.check_fits(date("2026-03-04")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "this slot is every Monday, but 2026-03-04 is a Wednesday; please pick a Monday"
        );
    }

    #[test]
    fn a_one_time_slot_fits_only_its_date() {
        let once = SlotWhen::Once(date("2026-03-05"));
        assert!(once.check_fits(date("2026-03-05")).is_ok());
        let error = once.check_fits(date("2026-03-12")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "this slot is only on 2026-03-05; please book it for that date"
        );
    }

    #[test]
    fn a_slot_of_another_coach_is_not_bookable_with_this_one() {
        let owner = CoachId(Uuid::new_v4());
        let slot = slot(owner, SlotWhen::Weekly(Weekday::Mon));
        let monday = BookingDate::parse("2026-03-02").unwrap();
        assert!(slot.session(owner, monday).is_ok());
        let error = slot.session(CoachId(Uuid::new_v4()), monday).unwrap_err();
        assert_eq!(error.to_string(), "this slot does not belong to that coach");
    }

    #[test]
    fn a_slot_s_session_is_its_times_on_that_date_in_its_place_s_zone() {
        let slot = slot(CoachId(Uuid::new_v4()), SlotWhen::Weekly(Weekday::Mon));
        let session = slot
            .session(slot.coach_id, BookingDate::parse("2026-03-02").unwrap())
            .unwrap();
        assert_eq!(rfc3339(session.starts_at), "2026-03-02T15:00:00Z");
        assert_eq!(rfc3339(session.ends_at), "2026-03-02T16:00:00Z");
        assert_eq!(session.time_zone.name(), "America/Chicago");
    }
}
