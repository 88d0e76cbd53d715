//! coaching-svc's gRPC API against a real PostgreSQL (a fresh database per test) and Redis.

mod directory;
mod events;
mod geocode;
mod helpers;
mod locations;
mod policy;
mod profile;
mod search;
mod slots;
mod time_off;
mod zones;
