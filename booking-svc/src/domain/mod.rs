//! booking's rules, free of sqlx and tonic: typed ids, what a bookable date is, whether a date
//! fits a slot, the coach's time off and the bookable calendar, a session's instants in its place's
//! zone, the coach's policy, who (or the clock) may move a booking from which status to which, and
//! who may review which session, and when.

mod bookable;
mod booking;
mod date;
mod ids;
mod policy;
pub mod review;
mod session;
mod slot;

pub use bookable::{CalendarRange, Held, TimeOff, Unbookable, calendar};
pub use booking::{Action, Booking, Party, REASON_MAX, Status, Timed, parse_reason};
pub use date::{BookingDate, format_time, parse_date, parse_time};
pub use ids::{BookingId, ClientId, CoachId, SlotId};
pub use policy::Policy;
pub use session::Session;
pub use slot::{Slot, SlotWhen};
