//! Courtside's gRPC contract (generated from `proto/*/v1/*.proto`) and the few things every
//! process must agree on: token claims and their verification ([`auth`]), the one gRPC-status ↔
//! HTTP table ([`status`]), telemetry set-up ([`telemetry`]) and the cross-context events
//! ([`events`]).
//!
//! The `client` and `server` features gate the generated stubs, so the gateway compiles clients
//! and each service its server.

pub mod auth;
#[cfg(feature = "balance")]
pub mod balance;
pub mod config;
#[cfg(feature = "database")]
pub mod database;
pub mod events;
pub mod redis_link;
#[cfg(feature = "server")]
pub mod server;
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

/// identity.v1: users, tokens, client profiles, admin user management.
pub mod identity {
    pub mod v1 {
        tonic::include_proto!("identity.v1");
    }
}

/// coaching.v1: coach profiles, locations, availability slots, the directory.
pub mod coaching {
    pub mod v1 {
        tonic::include_proto!("coaching.v1");
    }
}

/// booking.v1: client bookings of coach slots.
pub mod booking {
    pub mod v1 {
        tonic::include_proto!("booking.v1");
    }
}

/// gym.v1: gym profiles, locations, courts, court availability and reservations.
pub mod gym {
    pub mod v1 {
        tonic::include_proto!("gym.v1");
    }
}
