//! booking's rules, free of sqlx and tonic: typed ids, what a bookable date is, whether a date
//! fits a slot, and which party may move a booking from which status to which.

mod booking;
mod date;
mod ids;
mod slot;

pub use booking::{Action, Booking, Party, Status};
pub use date::{BookingDate, format_time, parse_time};
pub use ids::{BookingId, ClientId, CoachId, SlotId};
pub use slot::{Slot, SlotWhen};
