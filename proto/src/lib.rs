//! Courtside's gRPC contract, generated from `proto/*/v1/*.proto`: the messages, and the client
//! and server stubs of the enabled features (`client`, `server`; see `build.rs`), so the gateway
//! compiles clients and each service its server. What the processes share besides the contract
//! lives in the `platform` crate beside it (`proto/platform`).

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
