//! identity-svc's gRPC API against a real PostgreSQL (a fresh database per test) and Redis (a
//! namespace per test), the service in-process on free ports.

mod admin;
mod auth;
mod conversations;
mod email;
mod events;
mod feeds;
mod helpers;
mod notifications;
mod pages;
mod payments;
mod profiles;
mod reset;
mod revocation;
mod tokens;
mod webhooks;
mod webhooks_receiver;
mod webhooks_safety;
