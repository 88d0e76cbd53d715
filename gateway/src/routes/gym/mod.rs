//! Gym routes: gym profiles, gym locations, courts, court availability, and court reservations
//! from both sides (a coach requests and cancels, the gym approves or denies). Coach names on
//! reservations come from identity-svc in one batched call; gym, location and court names are
//! gym-svc's own.

pub mod availability;
pub mod closures;
pub mod courts;
pub mod locations;
pub mod profile;
pub mod reservations;
