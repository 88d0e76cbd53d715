//! What every Courtside process shares besides the gRPC contract (`proto`): token claims and
//! their verification ([`auth`]), reading configuration ([`config`]), the cross-context events
//! ([`events`]), what a person types into a form ([`input`]: lines, text, a range of dates), keyset pages of the lists that grow ([`pages`]), the Redis link ([`redis_link`]) and change stamps ([`stamps`]), the one
//! gRPC-status ↔ HTTP table ([`status`]) and telemetry ([`telemetry`]).
//!
//! Features split it by who needs what: `balance` (client-side balancing, every gRPC client), `ops` (the ops HTTP port: the gateway and every service), `outbox` (the
//! transactional [`outbox`] and its relay), `time` (the injectable
//! [`clock`] and a place's wall clock to UTC, [`instants`]), `places` (the bundled gazetteer of US
//! places and the time zone of a location, [`places`]),
//! `database` (the services that own a PostgreSQL schema), `host` (the gRPC service host, which
//! brings both) and `testing` (the test kit, for dev-dependencies only).

pub mod auth;
#[cfg(feature = "balance")]
pub mod balance;
#[cfg(feature = "time")]
pub mod clock;
pub mod config;
#[cfg(feature = "database")]
pub mod database;
pub mod events;
#[cfg(feature = "host")]
pub mod host;
pub mod input;
#[cfg(feature = "time")]
pub mod instants;
#[cfg(feature = "ops")]
pub mod ops;
#[cfg(feature = "outbox")]
pub mod outbox;
pub mod pages;
#[cfg(feature = "places")]
pub mod places;
pub mod redis_link;
pub mod stamps;
pub mod status;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;

/// Resolves on SIGTERM or Ctrl-C: the signal every process drains on.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
