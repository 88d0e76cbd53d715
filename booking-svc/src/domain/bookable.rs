//! Whether a session may be booked, and the bookable calendar: every occurrence of a coach's
//! slots over a range of dates, each bookable or not and why.
//!
//! One rule for both: [`Slot::judge`] says why a session cannot be booked (it has started, the
//! coach is away, too soon, too far ahead), CreateBooking refuses with it
//! ([`Slot::check_bookable`]) and the calendar shows it; the only other reason a date is not
//! bookable is an active booking that holds it (or overlaps it), which the calendar reads and
//! the database refuses. So a date the calendar calls bookable is refused only when someone books
//! it first.

use std::fmt;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

use super::{BookingDate, CoachId, Session, Slot, SlotId, date::parse_date};
use crate::error::Error;

/// A calendar covers at most this many days.
pub const MAX_CALENDAR_DAYS: i64 = 62;

/// Why a session cannot be booked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unbookable {
    /// An active booking holds it, or overlaps it.
    Booked,
    /// The coach is away that date.
    TimeOff,
    /// Sooner than the coach's minimum notice.
    TooSoon,
    /// Further ahead than the coach takes bookings.
    TooFar,
    /// It has started or is over.
    Past,
}

impl Unbookable {
    /// As the API names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Unbookable::Booked => "booked",
            Unbookable::TimeOff => "time_off",
            Unbookable::TooSoon => "too_soon",
            Unbookable::TooFar => "too_far",
            Unbookable::Past => "past",
        }
    }
}

impl fmt::Display for Unbookable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Dates (the coach's local dates, both inclusive) on which none of the coach's slots can be
/// booked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOff {
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
}

impl TimeOff {
    pub fn covers(&self, date: NaiveDate) -> bool {
        self.start_date <= date && date <= self.end_date
    }
}

impl Slot {
    /// Why `session` (of this slot) cannot be booked at `now`, taken or not: it has started, the
    /// coach is away that date, or the coach's policy puts it too soon or too far ahead. None
    /// when it may be booked.
    pub fn judge(&self, session: &Session, now: DateTime<Utc>) -> Option<Unbookable> {
        match self.policy.judge(session, now) {
            Some(Unbookable::Past) => Some(Unbookable::Past),
            _ if self.away_on(session.date).is_some() => Some(Unbookable::TimeOff),
            other => other,
        }
    }

    /// The coach's time off that covers `date`, if any.
    pub fn away_on(&self, date: NaiveDate) -> Option<&TimeOff> {
        self.time_off.iter().find(|off| off.covers(date))
    }

    /// The session of this slot on `date` when `coach_id`'s client may book it at `now` (unless
    /// someone holds it); otherwise the 400 (the date does not fit the slot) or 409 saying why.
    pub fn check_bookable(
        &self,
        coach_id: CoachId,
        date: BookingDate,
        now: DateTime<Utc>,
    ) -> Result<Session, Error> {
        let session = self.session(coach_id, date)?;
        match self.judge(&session, now) {
            None => Ok(session),
            Some(Unbookable::TimeOff) => {
                let off = self.away_on(session.date).copied().unwrap_or(TimeOff {
                    start_date: session.date,
                    end_date: session.date,
                });
                let away = if off.start_date == off.end_date {
                    format!("on {}", off.start_date)
                } else {
                    format!("from {} to {}", off.start_date, off.end_date)
                };
                Err(Error::Refused(format!(
                    "the coach is away {away} and takes no bookings then; please choose another date"
                )))
            }
            Some(why) => Err(self.policy.refusal(why, &session)),
        }
    }
}

/// The first and last date of a calendar, both inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CalendarRange {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl CalendarRange {
    /// `from` and `to` as `YYYY-MM-DD`, `to` not before `from`, at most [`MAX_CALENDAR_DAYS`]
    /// days in all; each refusal is a 400 naming the field.
    pub fn parse(from: &str, to: &str) -> Result<Self, Error> {
        let date = |raw: &str, field: &str| {
            parse_date(raw.trim()).ok_or_else(|| {
                Error::Invalid(format!(
                    "{field} must be a date as YYYY-MM-DD, such as 2026-07-04"
                ))
            })
        };
        let (from, to) = (date(from, "from")?, date(to, "to")?);
        if to < from {
            return Err(Error::Invalid(format!(
                "to ({to}) must not be before from ({from})"
            )));
        }
        if (to - from).num_days() + 1 > MAX_CALENDAR_DAYS {
            return Err(Error::Invalid(format!(
                "a calendar covers at most {MAX_CALENDAR_DAYS} days; please ask for a shorter range"
            )));
        }
        Ok(Self { from, to })
    }

    /// Every date of the range, in order.
    pub fn dates(self) -> impl Iterator<Item = NaiveDate> {
        let days = (self.to - self.from).num_days();
        (0..=days).map(move |n| self.from + Duration::days(n))
    }
}

/// The local date and times an active booking of the coach holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
}

impl Held {
    /// Whether a session of these times on this date would be refused beside this booking (the
    /// same slot, or times that overlap: what the database's constraints refuse).
    fn blocks(&self, session: &Session) -> bool {
        self.date == session.date && self.start_time < session.end_time && session.start_time < self.end_time
    }
}

/// One occurrence of a slot on one date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub slot_id: SlotId,
    pub session: Session,
    pub location_name: String,
    /// None when bookable.
    pub reason: Option<Unbookable>,
}

/// Every occurrence of `slots` in `range`, by date and start time, each judged at `now` beside
/// the coach's active bookings `held`. An occurrence the clocks skip (a daylight-saving gap
/// leaves nothing of it) does not happen, so it is not listed.
pub fn calendar(slots: &[Slot], range: CalendarRange, held: &[Held], now: DateTime<Utc>) -> Vec<Occurrence> {
    let mut days = Vec::new();
    for date in range.dates() {
        for slot in slots {
            if slot.when.check_fits(date).is_err() {
                continue;
            }
            let Ok(session) = Session::at(slot.time_zone, date, slot.start_time, slot.end_time) else {
                continue;
            };
            let reason = slot.judge(&session, now).or_else(|| {
                held.iter()
                    .any(|h| h.blocks(&session))
                    .then_some(Unbookable::Booked)
            });
            days.push(Occurrence {
                slot_id: slot.slot_id,
                session,
                location_name: slot.location_name.clone(),
                reason,
            });
        }
    }
    days.sort_by_key(|d| {
        (
            d.session.date,
            d.session.start_time,
            d.session.starts_at,
            d.slot_id.0,
        )
    });
    days
}

#[cfg(test)]
mod tests {
    use chrono::Weekday;
    use platform::instants::rfc3339;
    use uuid::Uuid;

    use super::*;
    use crate::domain::{Policy, SlotWhen};

    fn date(raw: &str) -> NaiveDate {
        parse_date(raw).unwrap()
    }

    fn time(raw: &str) -> NaiveTime {
        NaiveTime::parse_from_str(raw, "%H:%M").unwrap()
    }

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    /// Mondays 09:00–10:00 in Chicago, default policy, no time off.
    fn mondays() -> Slot {
        Slot {
            slot_id: SlotId(Uuid::new_v4()),
            coach_id: CoachId(Uuid::new_v4()),
            when: SlotWhen::Weekly(Weekday::Mon),
            start_time: time("09:00"),
            end_time: time("10:00"),
            location_name: "Main gym".into(),
            time_zone: "America/Chicago".parse().unwrap(),
            policy: Policy::default(),
            time_off: Vec::new(),
            hourly_rate_cents: 0,
        }
    }

    fn range(from: &str, to: &str) -> CalendarRange {
        CalendarRange::parse(from, to).unwrap()
    }

    fn reasons(days: &[Occurrence]) -> Vec<(String, Option<&'static str>)> {
        days.iter()
            .map(|d| (d.session.date.to_string(), d.reason.map(Unbookable::as_str)))
            .collect()
    }

    // 2026-03-02 is a Monday. "Now" is Sunday 2026-03-01 12:00 UTC unless a test says otherwise.
    const NOW: &str = "2026-03-01T12:00:00Z";

    #[test]
    fn a_weekly_slot_occurs_on_each_of_its_weekdays_in_the_range_and_is_bookable() {
        let days = calendar(&[mondays()], range("2026-03-01", "2026-03-16"), &[], at(NOW));
        assert_eq!(
            reasons(&days),
            vec![
                ("2026-03-02".into(), None),
                ("2026-03-09".into(), None),
                ("2026-03-16".into(), None),
            ]
        );
        assert_eq!(days[0].location_name, "Main gym");
    }

    #[test]
    fn a_one_time_slot_occurs_only_on_its_date() {
        let once = Slot {
            when: SlotWhen::Once(date("2026-03-04")),
            ..mondays()
        };
        let days = calendar(&[once], range("2026-03-01", "2026-03-31"), &[], at(NOW));
        assert_eq!(reasons(&days), vec![("2026-03-04".into(), None)]);
    }

    #[test]
    fn dates_of_the_coach_s_time_off_are_time_off_and_booking_them_is_refused() {
        let slot = Slot {
            time_off: vec![TimeOff {
                start_date: date("2026-03-08"),
                end_date: date("2026-03-10"),
            }],
            ..mondays()
        };
        let days = calendar(
            std::slice::from_ref(&slot),
            range("2026-03-01", "2026-03-16"),
            &[],
            at(NOW),
        );
        assert_eq!(
            reasons(&days),
            vec![
                ("2026-03-02".into(), None),
                ("2026-03-09".into(), Some("time_off")),
                ("2026-03-16".into(), None),
            ]
        );
        let refused = slot
            .check_bookable(slot.coach_id, BookingDate::parse("2026-03-09").unwrap(), at(NOW))
            .unwrap_err();
        assert!(matches!(refused, Error::Refused(_)));
        assert_eq!(
            refused.to_string(),
            "the coach is away from 2026-03-08 to 2026-03-10 and takes no bookings then; please choose another date"
        );
        assert!(
            slot.check_bookable(slot.coach_id, BookingDate::parse("2026-03-16").unwrap(), at(NOW))
                .is_ok()
        );
    }

    #[test]
    fn the_policy_makes_near_dates_too_soon_and_far_ones_too_far() {
        let slot = Slot {
            policy: Policy {
                min_notice: Duration::hours(48),
                max_advance_days: 10,
                ..Policy::default()
            },
            ..mondays()
        };
        // Monday 2026-03-02 09:00 CST is 15:00 UTC: 27 hours after NOW.
        let days = calendar(
            std::slice::from_ref(&slot),
            range("2026-03-01", "2026-03-16"),
            &[],
            at(NOW),
        );
        assert_eq!(
            reasons(&days),
            vec![
                ("2026-03-02".into(), Some("too_soon")),
                ("2026-03-09".into(), None),
                ("2026-03-16".into(), Some("too_far")),
            ]
        );
        // What the calendar says is what booking says.
        for day in &days {
            let booked = slot.check_bookable(
                slot.coach_id,
                BookingDate::parse(&day.session.date.to_string()).unwrap(),
                at(NOW),
            );
            assert_eq!(booked.is_ok(), day.reason.is_none(), "{}", day.session.date);
        }
    }

    #[test]
    fn a_session_that_has_started_is_past_even_in_time_off() {
        let slot = Slot {
            time_off: vec![TimeOff {
                start_date: date("2026-03-02"),
                end_date: date("2026-03-02"),
            }],
            ..mondays()
        };
        let days = calendar(
            &[slot],
            range("2026-03-02", "2026-03-02"),
            &[],
            at("2026-03-02T15:00:00Z"),
        );
        assert_eq!(reasons(&days), vec![("2026-03-02".into(), Some("past"))]);
    }

    #[test]
    fn an_active_booking_of_the_slot_or_an_overlapping_time_makes_the_date_booked() {
        let slot = mondays();
        let held = [
            Held {
                date: date("2026-03-02"),
                start_time: time("09:00"),
                end_time: time("10:00"),
            },
            // Another slot of the coach, 09:30–10:30 on the 9th, overlaps.
            Held {
                date: date("2026-03-09"),
                start_time: time("09:30"),
                end_time: time("10:30"),
            },
            // 10:00–11:00 on the 16th only touches it.
            Held {
                date: date("2026-03-16"),
                start_time: time("10:00"),
                end_time: time("11:00"),
            },
        ];
        let days = calendar(&[slot], range("2026-03-01", "2026-03-16"), &held, at(NOW));
        assert_eq!(
            reasons(&days),
            vec![
                ("2026-03-02".into(), Some("booked")),
                ("2026-03-09".into(), Some("booked")),
                ("2026-03-16".into(), None),
            ]
        );
    }

    #[test]
    fn each_occurrence_has_its_instants_in_its_place_s_zone_across_a_daylight_saving_change() {
        // Chicago springs forward on 2026-03-08: 09:00 is 15:00 UTC before, 14:00 UTC after.
        let days = calendar(&[mondays()], range("2026-03-02", "2026-03-09"), &[], at(NOW));
        assert_eq!(rfc3339(days[0].session.starts_at), "2026-03-02T15:00:00Z");
        assert_eq!(rfc3339(days[1].session.starts_at), "2026-03-09T14:00:00Z");
        assert_eq!(days[1].session.time_zone.name(), "America/Chicago");
        // The same wall time in Honolulu (no daylight saving) is 19:00 UTC both weeks.
        let honolulu = Slot {
            time_zone: "Pacific/Honolulu".parse().unwrap(),
            ..mondays()
        };
        let days = calendar(&[honolulu], range("2026-03-02", "2026-03-09"), &[], at(NOW));
        assert_eq!(rfc3339(days[1].session.starts_at), "2026-03-09T19:00:00Z");
    }

    #[test]
    fn a_date_still_ahead_in_the_coach_s_zone_is_bookable_though_utc_has_moved_on() {
        // 09:00 in Honolulu on Monday 2026-03-02 is 19:00 UTC; at 18:00 UTC it is still ahead.
        let honolulu = Slot {
            time_zone: "Pacific/Honolulu".parse().unwrap(),
            ..mondays()
        };
        let days = calendar(
            &[honolulu],
            range("2026-03-02", "2026-03-02"),
            &[],
            at("2026-03-02T18:00:00Z"),
        );
        assert_eq!(reasons(&days), vec![("2026-03-02".into(), None)]);
    }

    #[test]
    fn occurrences_of_several_slots_come_by_date_then_start_time() {
        let early = Slot {
            when: SlotWhen::Weekly(Weekday::Tue),
            start_time: time("07:00"),
            end_time: time("08:00"),
            ..mondays()
        };
        let late = Slot {
            when: SlotWhen::Weekly(Weekday::Tue),
            start_time: time("18:00"),
            end_time: time("19:00"),
            ..mondays()
        };
        let days = calendar(
            &[late, early, mondays()],
            range("2026-03-02", "2026-03-03"),
            &[],
            at(NOW),
        );
        let order: Vec<_> = days
            .iter()
            .map(|d| format!("{} {}", d.session.date, d.session.start_time.format("%H:%M")))
            .collect();
        assert_eq!(
            order,
            vec!["2026-03-02 09:00", "2026-03-03 07:00", "2026-03-03 18:00"]
        );
    }

    #[test]
    fn a_range_is_at_most_62_days_and_in_order() {
        assert_eq!(range("2026-03-01", "2026-05-01").dates().count(), 62);
        let too_long = CalendarRange::parse("2026-03-01", "2026-05-02").unwrap_err();
        assert!(matches!(too_long, Error::Invalid(_)));
        assert!(too_long.to_string().contains("at most 62 days"), "{too_long}");
        let backwards = CalendarRange::parse("2026-03-10", "2026-03-01").unwrap_err();
        assert_eq!(
            backwards.to_string(),
            "to (2026-03-01) must not be before from (2026-03-10)"
        );
        let malformed = CalendarRange::parse("2026-3-1", "2026-03-01").unwrap_err();
        assert!(
            malformed.to_string().starts_with("from must be a date"),
            "{malformed}"
        );
    }
}
