//! A coach's booking policy: the limits booking-svc holds every booking of the coach's slots to
//! (it reads them with the slot, `GetSlot`), and the web app shows beside the calendar.

use crate::error::Error;

/// How soon and how far ahead a session may be booked, how long a request waits for the coach's
/// answer and until when a client's cancel is free.
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
}

/// Each limit's name and range, in the order of the fields.
const LIMITS: [(&str, i32, i32); 4] = [
    ("min_notice_minutes", 0, 43_200),
    ("max_advance_days", 1, 730),
    ("response_window_minutes", 1, 20_160),
    ("cancellation_window_minutes", 0, 20_160),
];

impl BookingPolicy {
    /// What a coach who never set a policy has (the columns' defaults in the migration say the same).
    pub const DEFAULT: BookingPolicy = BookingPolicy {
        min_notice_minutes: 0,
        max_advance_days: 365,
        response_window_minutes: 2880,
        cancellation_window_minutes: 1440,
    };

    /// A policy whose every limit is within its range; the first one out of range is named.
    pub fn parse(
        min_notice_minutes: i32,
        max_advance_days: i32,
        response_window_minutes: i32,
        cancellation_window_minutes: i32,
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
        Ok(Self {
            min_notice_minutes,
            max_advance_days,
            response_window_minutes,
            cancellation_window_minutes,
        })
    }
}

impl Default for BookingPolicy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<BookingPolicy, Error>) -> String {
        match result {
            Err(Error::Invalid(m)) => m,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn the_defaults_are_a_valid_policy() {
        let d = BookingPolicy::DEFAULT;
        assert_eq!(
            BookingPolicy::parse(
                d.min_notice_minutes,
                d.max_advance_days,
                d.response_window_minutes,
                d.cancellation_window_minutes
            )
            .unwrap(),
            d
        );
        assert_eq!((d.min_notice_minutes, d.max_advance_days), (0, 365));
        assert_eq!(
            (d.response_window_minutes, d.cancellation_window_minutes),
            (2880, 1440)
        );
    }

    #[test]
    fn every_limit_may_sit_on_either_end_of_its_range() {
        assert!(BookingPolicy::parse(0, 1, 1, 0).is_ok());
        assert!(BookingPolicy::parse(43_200, 730, 20_160, 20_160).is_ok());
    }

    #[test]
    fn a_limit_out_of_its_range_is_refused_naming_it() {
        assert_eq!(
            message(BookingPolicy::parse(-1, 365, 2880, 1440)),
            "min_notice_minutes must be between 0 and 43200; -1 is not"
        );
        assert_eq!(
            message(BookingPolicy::parse(43_201, 365, 2880, 1440)),
            "min_notice_minutes must be between 0 and 43200; 43201 is not"
        );
        assert_eq!(
            message(BookingPolicy::parse(0, 0, 2880, 1440)),
            "max_advance_days must be between 1 and 730; 0 is not"
        );
        assert_eq!(
            message(BookingPolicy::parse(0, 731, 2880, 1440)),
            "max_advance_days must be between 1 and 730; 731 is not"
        );
        assert_eq!(
            message(BookingPolicy::parse(0, 365, 0, 1440)),
            "response_window_minutes must be between 1 and 20160; 0 is not"
        );
        assert_eq!(
            message(BookingPolicy::parse(0, 365, 20_161, 1440)),
            "response_window_minutes must be between 1 and 20160; 20161 is not"
        );
        assert_eq!(
            message(BookingPolicy::parse(0, 365, 2880, -5)),
            "cancellation_window_minutes must be between 0 and 20160; -5 is not"
        );
        assert_eq!(
            message(BookingPolicy::parse(0, 365, 2880, 20_161)),
            "cancellation_window_minutes must be between 0 and 20160; 20161 is not"
        );
    }
}
