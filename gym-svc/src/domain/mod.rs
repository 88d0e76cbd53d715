//! gym's rules: what valid profiles, locations, courts, court times and closures are, when a court time is
//! open to requests, and how a reservation may move between states. No sqlx, no tonic.

mod closure;
mod court;
mod location;
mod profile;
mod reservation;
mod schedule;

pub use closure::{NewClosure, closed_sentence, denial};
pub use court::NewCourt;
pub use location::NewLocation;
pub use profile::GymProfileFields;
pub use reservation::{
    CourtInstants, ReservationStatus, ensure_not_started, ensure_requestable, parse_reason,
};
pub use schedule::{CourtTime, earliest_open_date, format_date, format_time};
