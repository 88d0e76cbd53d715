//! The coach's booking policy as booking applies it (coaching-svc keeps it; it travels with the
//! slot booking-svc reads, so a stale screen can never book around it), and the limits it puts on
//! when a session may be booked.

use chrono::{DateTime, Duration, Utc};

use super::{Session, Unbookable};
use crate::{
    error::Error,
    payments::money::{DEFAULT_LATE_FEE_PERCENT, DEFAULT_NO_SHOW_FEE_PERCENT},
};

/// The limits a coach sets on bookings of their slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// A session may not be booked sooner than this before it starts.
    pub min_notice: Duration,
    /// Nor later than this many days ahead.
    pub max_advance_days: i64,
    /// A pending booking nobody answered expires this long after it was made (or at its start).
    pub response_window: Duration,
    /// A client's cancel of a confirmed booking this close to its start is late.
    pub cancellation_window: Duration,
    /// A late cancel costs this percent of the price (0..=100; issue 33, default 50).
    pub late_cancellation_fee_percent: i32,
    /// A no-show costs this percent of the price (0..=100; default 100).
    pub no_show_fee_percent: i32,
}

impl Default for Policy {
    /// The defaults of issue 16: no notice, a year ahead, two days to answer, a day's free cancel.
    fn default() -> Self {
        Self::from_minutes(0, 365, 2880, 1440)
    }
}

impl Policy {
    /// From the minutes (and days) coaching-svc keeps, with the default fees.
    pub fn from_minutes(
        min_notice_minutes: i64,
        max_advance_days: i64,
        response_window_minutes: i64,
        cancellation_window_minutes: i64,
    ) -> Self {
        Self {
            min_notice: Duration::minutes(min_notice_minutes.max(0)),
            max_advance_days: max_advance_days.max(0),
            response_window: Duration::minutes(response_window_minutes.max(0)),
            cancellation_window: Duration::minutes(cancellation_window_minutes.max(0)),
            late_cancellation_fee_percent: DEFAULT_LATE_FEE_PERCENT,
            no_show_fee_percent: DEFAULT_NO_SHOW_FEE_PERCENT,
        }
    }

    /// With the coach's two fees (absent: the defaults, 50 % and 100 %), each kept within 0..=100.
    pub fn with_fees(self, late_cancellation: Option<i32>, no_show: Option<i32>) -> Self {
        Self {
            late_cancellation_fee_percent: late_cancellation
                .unwrap_or(DEFAULT_LATE_FEE_PERCENT)
                .clamp(0, 100),
            no_show_fee_percent: no_show.unwrap_or(DEFAULT_NO_SHOW_FEE_PERCENT).clamp(0, 100),
            ..self
        }
    }

    /// Why the policy (or the clock) does not let `session` be booked at `now`: it has started,
    /// it starts sooner than the minimum notice, or later than the maximum days ahead. None when
    /// it may be booked. The bookable calendar and [`Policy::check_bookable`] both ask this.
    pub fn judge(&self, session: &Session, now: DateTime<Utc>) -> Option<Unbookable> {
        if session.starts_at <= now {
            Some(Unbookable::Past)
        } else if session.starts_at < now + self.min_notice {
            Some(Unbookable::TooSoon)
        } else if session.starts_at > now + Duration::days(self.max_advance_days) {
            Some(Unbookable::TooFar)
        } else {
            None
        }
    }

    /// Ok when `session` may be booked at `now`; each refusal is a 409 whose detail names the
    /// limit.
    pub fn check_bookable(&self, session: &Session, now: DateTime<Utc>) -> Result<(), Error> {
        match self.judge(session, now) {
            None => Ok(()),
            Some(why) => Err(self.refusal(why, session)),
        }
    }

    /// The 409 that says why `session` cannot be booked under this policy.
    pub fn refusal(&self, why: Unbookable, session: &Session) -> Error {
        let when = session.describe();
        Error::Refused(match why {
            Unbookable::TooSoon => format!(
                "this coach asks to be booked at least {} ahead, and this session ({when}) starts \
                 sooner than that; please choose a later date",
                span(self.min_notice)
            ),
            Unbookable::TooFar => format!(
                "this coach takes bookings at most {} ahead, and this session ({when}) is further \
                 away; please choose an earlier date",
                days(self.max_advance_days)
            ),
            Unbookable::Past | Unbookable::TimeOff | Unbookable::Booked => {
                format!("this session ({when}) has already started or is over; please choose a later date")
            }
        })
    }

    /// When a booking made at `created_at` of a session starting at `starts_at` expires if nobody
    /// answers it: after the response window, and at the latest when the session starts.
    pub fn expires_at(&self, created_at: DateTime<Utc>, starts_at: DateTime<Utc>) -> DateTime<Utc> {
        (created_at + self.response_window).min(starts_at)
    }
}

/// A span in the largest whole unit a person reads ("2 hours", "90 minutes", "3 days").
pub fn span(span: Duration) -> String {
    let minutes = span.num_minutes();
    let (n, unit) = if minutes > 0 && minutes % 1440 == 0 {
        (minutes / 1440, "day")
    } else if minutes > 0 && minutes % 60 == 0 {
        (minutes / 60, "hour")
    } else {
        (minutes, "minute")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

fn days(n: i64) -> String {
    format!("{n} day{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, NaiveTime};
    use platform::instants::Zone;

    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    /// 09:00–10:00 on `date` in Chicago.
    fn session(date: &str) -> Session {
        Session::at(
            "America/Chicago".parse::<Zone>().unwrap(),
            date.parse::<NaiveDate>().unwrap(),
            NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
            NaiveTime::from_hms_opt(10, 0, 0).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn the_defaults_are_no_notice_a_year_two_days_to_answer_and_a_day_to_cancel() {
        let policy = Policy::default();
        assert_eq!(policy.min_notice, Duration::zero());
        assert_eq!(policy.max_advance_days, 365);
        assert_eq!(policy.response_window, Duration::hours(48));
        assert_eq!(policy.cancellation_window, Duration::hours(24));
        assert_eq!(policy.late_cancellation_fee_percent, 50);
        assert_eq!(policy.no_show_fee_percent, 100);
    }

    #[test]
    fn the_fees_default_to_50_and_100_percent_and_stay_within_0_to_100() {
        let policy = Policy::default().with_fees(None, None);
        assert_eq!(
            (policy.late_cancellation_fee_percent, policy.no_show_fee_percent),
            (50, 100)
        );
        let policy = Policy::default().with_fees(Some(0), Some(30));
        assert_eq!(
            (policy.late_cancellation_fee_percent, policy.no_show_fee_percent),
            (0, 30)
        );
        let policy = Policy::default().with_fees(Some(-1), Some(101));
        assert_eq!(
            (policy.late_cancellation_fee_percent, policy.no_show_fee_percent),
            (0, 100)
        );
    }

    #[test]
    fn a_session_that_starts_later_is_bookable_up_to_the_instant_before_it_starts() {
        // 09:00 CST on 2026-03-07 is 15:00 UTC.
        let session = session("2026-03-07");
        let policy = Policy::default();
        assert!(
            policy
                .check_bookable(&session, at("2026-03-07T14:59:59Z"))
                .is_ok()
        );
        let started = policy
            .check_bookable(&session, at("2026-03-07T15:00:00Z"))
            .unwrap_err();
        assert!(matches!(started, Error::Refused(_)));
        assert!(started.to_string().contains("already started"), "{started}");
    }

    #[test]
    fn a_date_that_is_still_today_where_the_coach_is_but_already_over_in_utc_is_bookable() {
        // 09:00 in Honolulu on 2026-06-01 is 19:00 UTC; at 18:00 UTC it is still ahead.
        let honolulu = Session::at(
            "Pacific/Honolulu".parse().unwrap(),
            "2026-06-01".parse().unwrap(),
            NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
            NaiveTime::from_hms_opt(10, 0, 0).unwrap(),
        )
        .unwrap();
        assert!(
            Policy::default()
                .check_bookable(&honolulu, at("2026-06-01T18:00:00Z"))
                .is_ok()
        );
    }

    #[test]
    fn a_session_sooner_than_the_minimum_notice_is_refused_naming_the_notice() {
        let policy = Policy {
            min_notice: Duration::hours(2),
            ..Policy::default()
        };
        let session = session("2026-03-07"); // 15:00 UTC
        assert!(
            policy
                .check_bookable(&session, at("2026-03-07T13:00:00Z"))
                .is_ok()
        );
        let refused = policy
            .check_bookable(&session, at("2026-03-07T13:00:01Z"))
            .unwrap_err();
        assert!(matches!(refused, Error::Refused(_)));
        assert!(
            refused.to_string().contains("at least 2 hours ahead"),
            "{refused}"
        );
    }

    #[test]
    fn a_session_further_ahead_than_the_maximum_is_refused_naming_the_days() {
        let policy = Policy {
            max_advance_days: 30,
            ..Policy::default()
        };
        let session = session("2026-03-07"); // 15:00 UTC
        assert!(
            policy
                .check_bookable(&session, at("2026-02-05T15:00:00Z"))
                .is_ok()
        );
        let refused = policy
            .check_bookable(&session, at("2026-02-05T14:59:59Z"))
            .unwrap_err();
        assert!(matches!(refused, Error::Refused(_)));
        assert!(refused.to_string().contains("at most 30 days ahead"), "{refused}");
    }

    #[test]
    fn a_pending_booking_expires_after_the_response_window_or_at_its_start_whichever_is_first() {
        let policy = Policy {
            response_window: Duration::hours(48),
            ..Policy::default()
        };
        let starts_at = at("2026-03-10T15:00:00Z");
        assert_eq!(
            policy.expires_at(at("2026-03-01T10:00:00Z"), starts_at),
            at("2026-03-03T10:00:00Z")
        );
        assert_eq!(
            policy.expires_at(at("2026-03-09T10:00:00Z"), starts_at),
            starts_at
        );
    }

    #[test]
    fn spans_read_in_their_largest_whole_unit() {
        assert_eq!(span(Duration::minutes(1440)), "1 day");
        assert_eq!(span(Duration::minutes(120)), "2 hours");
        assert_eq!(span(Duration::minutes(90)), "90 minutes");
        assert_eq!(span(Duration::minutes(1)), "1 minute");
    }
}
