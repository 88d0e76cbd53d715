//! gym-svc's gRPC API against a real PostgreSQL (a fresh database per test) and Redis, with
//! tokens minted in the test for any gym or coach.

mod availability;
mod calendar;
mod closures;
mod concurrency;
mod courts;
mod events;
mod helpers;
mod lifecycle;
mod locations;
mod pages;
mod profile;
mod reservations;
mod scheduler;
