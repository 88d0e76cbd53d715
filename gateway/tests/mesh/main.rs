//! The mesh: all four services and the gateway started in-process on free ports against a fresh
//! PostgreSQL database and the real Redis, driven over HTTP through `/api`.

mod helpers;
mod stripe;

mod admin;
mod audit;
mod auth;
mod booking;
mod calendar;
mod client;
mod coaching;
mod contract;
mod conversations;
mod conversations_deleted;
mod events;
mod finding;
mod gym;
mod hostile;
mod idempotency;
mod lifecycle;
mod limits;
mod matrix;
mod memo;
mod notifications;
mod password_reset;
mod payments;
mod places;
mod reviews;
mod security;
mod sessions;
mod time_off;
mod tokens;
mod webhooks;
