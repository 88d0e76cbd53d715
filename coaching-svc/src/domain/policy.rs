//! A coach's booking policy: the limits booking-svc holds every booking of the coach's slots to
//! (it reads them with the slot, `GetSlot`), the fees it charges of a late cancellation and a
//! no-show (kept on each booking when it is made), and what the web app shows beside the calendar.

use crate::error::Error;

/// How soon and how far ahead a session may be booked, how long a request waits for the coach's
/// answer, until when a client's cancel is free, and what a late cancel and a no-show cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookingPolicy {
    /// A booking must start at least this long after it is made.
    pub min_notice_minutes: i32,
    /// A booking may start at most this many days after it is made.
    pub max_advance_days: i32,
    /// A pending booking expires this long after it was made (or at its start, if sooner).
    pub response_window_minutes: i32,
    /// A client's cancel of a confirmed booking less than this long before its start is late.
    pub cancellation_window_minutes: i32,
    /// The share of the price (0..=100 %) a client's late cancel costs.
    pub late_cancellation_fee_percent: i32,
    /// The share of the price (0..=100 %) a no-show costs.
    pub no_show_fee_percent: i32,
}

/// Each limit's name and range, in the order of the fields.
const LIMITS: [(&str, i32, i32); 4] = [
    ("min_notice_minutes", 0, 43_200),
    ("max_advance_days", 1, 730),
    ("response_window_minutes", 1, 20_160),
    ("cancellation_window_minutes", 0, 20_160),
];

/// Each fee's name, in the order of the fields; a fee is a percentage of the price.
const FEES: [&str; 2] = ["late_cancellation_fee_percent", "no_show_fee_percent"];

impl BookingPolicy {
    /// What a coach who never set a policy has (the columns' defaults in the migrations say the
    /// same).
    pub const DEFAULT: BookingPolicy = BookingPolicy {
        min_notice_minutes: 0,
        max_advance_days: 365,
        response_window_minutes: 2880,
        cancellation_window_minutes: 1440,
        late_cancellation_fee_percent: 50,
        no_show_fee_percent: 100,
    };
}

impl Default for BookingPolicy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A coach's new policy as they sent it: every limit, and each fee they sent (a fee left out keeps
/// the coach's current one, or the default when they have none yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyUpdate {
    pub min_notice_minutes: i32,
    pub max_advance_days: i32,
    pub response_window_minutes: i32,
    pub cancellation_window_minutes: i32,
    pub late_cancellation_fee_percent: Option<i32>,
    pub no_show_fee_percent: Option<i32>,
}

impl PolicyUpdate {
    /// An update whose every limit and fee is within its range; the first one out of range is
    /// named, with its range.
    pub fn parse(
        min_notice_minutes: i32,
        max_advance_days: i32,
        response_window_minutes: i32,
        cancellation_window_minutes: i32,
        late_cancellation_fee_percent: Option<i32>,
        no_show_fee_percent: Option<i32>,
    ) -> Result<Self, Error> {
        let values = [
            min_notice_minutes,
            max_advance_days,
            response_window_minutes,
            cancellation_window_minutes,
        ];
        for ((field, min, max), value) in LIMITS.into_iter().zip(values) {
            if !(min..=max).contains(&value) {
                return Err(Error::Invalid(format!(
                    "{field} must be between {min} and {max}; {value} is not"
                )));
            }
        }
        let fees = [late_cancellation_fee_percent, no_show_fee_percent];
        for (field, value) in FEES.into_iter().zip(fees) {
            if let Some(value) = value
                && !(0..=100).contains(&value)
            {
                return Err(Error::Invalid(format!(
                    "{field} is a percentage of the price and must be between 0 and 100; {value} is not"
                )));
            }
        }
        Ok(Self {
            min_notice_minutes,
            max_advance_days,
            response_window_minutes,
            cancellation_window_minutes,
            late_cancellation_fee_percent,
            no_show_fee_percent,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<PolicyUpdate, Error>) -> String {
        match result {
            Err(Error::Invalid(m)) => m,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    fn limits(a: i32, b: i32, c: i32, d: i32) -> Result<PolicyUpdate, Error> {
        PolicyUpdate::parse(a, b, c, d, None, None)
    }

    #[test]
    fn the_defaults_are_a_valid_policy() {
        let d = BookingPolicy::DEFAULT;
        let update = PolicyUpdate::parse(
            d.min_notice_minutes,
            d.max_advance_days,
            d.response_window_minutes,
            d.cancellation_window_minutes,
            Some(d.late_cancellation_fee_percent),
            Some(d.no_show_fee_percent),
        )
        .unwrap();
        assert_eq!(
            (
                update.min_notice_minutes,
                update.max_advance_days,
                update.response_window_minutes,
                update.cancellation_window_minutes,
                update.late_cancellation_fee_percent,
                update.no_show_fee_percent
            ),
            (0, 365, 2880, 1440, Some(50), Some(100))
        );
    }

    #[test]
    fn every_limit_and_fee_may_sit_on_either_end_of_its_range() {
        assert!(PolicyUpdate::parse(0, 1, 1, 0, Some(0), Some(0)).is_ok());
        assert!(PolicyUpdate::parse(43_200, 730, 20_160, 20_160, Some(100), Some(100)).is_ok());
    }

    #[test]
    fn fees_left_out_stay_left_out() {
        let update = limits(0, 365, 2880, 1440).unwrap();
        assert_eq!(
            (update.late_cancellation_fee_percent, update.no_show_fee_percent),
            (None, None)
        );
    }

    #[test]
    fn a_limit_out_of_its_range_is_refused_naming_it() {
        assert_eq!(
            message(limits(-1, 365, 2880, 1440)),
            "min_notice_minutes must be between 0 and 43200; -1 is not"
        );
        assert_eq!(
            message(limits(43_201, 365, 2880, 1440)),
            "min_notice_minutes must be between 0 and 43200; 43201 is not"
        );
        assert_eq!(
            message(limits(0, 0, 2880, 1440)),
            "max_advance_days must be between 1 and 730; 0 is not"
        );
        assert_eq!(
            message(limits(0, 731, 2880, 1440)),
            "max_advance_days must be between 1 and 730; 731 is not"
        );
        assert_eq!(
            message(limits(0, 365, 0, 1440)),
            "response_window_minutes must be between 1 and 20160; 0 is not"
        );
        assert_eq!(
            message(limits(0, 365, 20_161, 1440)),
            "response_window_minutes must be between 1 and 20160; 20161 is not"
        );
        assert_eq!(
            message(limits(0, 365, 2880, -5)),
            "cancellation_window_minutes must be between 0 and 20160; -5 is not"
        );
        assert_eq!(
            message(limits(0, 365, 2880, 20_161)),
            "cancellation_window_minutes must be between 0 and 20160; 20161 is not"
        );
    }

    #[test]
    fn a_fee_out_of_its_range_is_refused_naming_it() {
        assert_eq!(
            message(PolicyUpdate::parse(0, 365, 2880, 1440, Some(101), Some(100))),
            "late_cancellation_fee_percent is a percentage of the price and must be between 0 and 100; 101 is not"
        );
        assert_eq!(
            message(PolicyUpdate::parse(0, 365, 2880, 1440, Some(50), Some(-1))),
            "no_show_fee_percent is a percentage of the price and must be between 0 and 100; -1 is not"
        );
        assert_eq!(
            message(PolicyUpdate::parse(0, 365, 2880, 1440, None, Some(250))),
            "no_show_fee_percent is a percentage of the price and must be between 0 and 100; 250 is not"
        );
    }
}
