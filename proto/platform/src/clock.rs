//! The clock the services read "now" from, injectable so that tests of timed behaviour (expiry,
//! completion, reminders) move time themselves instead of sleeping.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};

/// Where "now" comes from.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> DateTime<Utc>;
}

/// The system's clock: what every service runs on.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still until a test moves it; clones share the same time.
#[derive(Clone, Debug)]
pub struct ManualClock(Arc<Mutex<DateTime<Utc>>>);

impl ManualClock {
    pub fn at(now: DateTime<Utc>) -> Self {
        Self(Arc::new(Mutex::new(now)))
    }

    pub fn set(&self, now: DateTime<Utc>) {
        *self.0.lock().expect("the clock's lock is never poisoned") = now;
    }

    pub fn advance(&self, by: Duration) {
        *self.0.lock().expect("the clock's lock is never poisoned") += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().expect("the clock's lock is never poisoned")
    }
}

/// The clock a service holds.
pub type SharedClock = Arc<dyn Clock>;

/// The system clock, shared.
pub fn system() -> SharedClock {
    Arc::new(SystemClock)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told_and_its_clones_follow() {
        let start = DateTime::parse_from_rfc3339("2026-03-08T06:00:00Z")
            .unwrap()
            .to_utc();
        let clock = ManualClock::at(start);
        let seen_by_service = clock.clone();
        assert_eq!(seen_by_service.now(), start);
        clock.advance(Duration::minutes(90));
        assert_eq!(seen_by_service.now(), start + Duration::minutes(90));
    }
}
