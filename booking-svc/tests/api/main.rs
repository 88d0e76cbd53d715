//! booking-svc's gRPC API against a real PostgreSQL (a fresh database per test) and the real
//! coaching-svc, both started in-process on free ports.

mod bookable;
mod calendar;
mod count;
mod create;
mod events;
mod helpers;
mod lifecycle;
mod list;
mod migration;
mod ops;
mod payment_cards;
mod payment_reconcile;
mod payment_webhook;
mod payments;
mod payments_admin;
mod payments_faults;
mod payments_moves;
mod pending_limit;
mod policy;
mod reschedule;
mod reviews;
mod scheduler;
mod slots;
mod transitions;
