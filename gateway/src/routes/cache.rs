//! What the API remembers of its answers, keyed by what, and which writes clear it: the one
//! declaration of the cache, beside the route table it describes.
//!
//! **Remembered by the gateway** ([`REMEMBERED`]): each entry is an answer of a `GET` route, kept
//! in the gateway's memory ([`crate::memo`]) under its name and the route's path id, valid while
//! the change stamps of the data it **shows** read the same as when it was rendered (and never
//! past [`crate::memo::MAX_AGE`]). User names, which many answers compose, are remembered the same
//! way ([`NAMES`]). A stamp is a random value in Redis per kind of data ([`Data`]), shared by
//! every gateway replica.
//!
//! **Remembered behind the gateway** ([`BEHIND`]): booking-svc remembers the slots it books
//! against (with the coach's policy and time zone), under coaching's stamp, so that a weekly slot
//! booked week after week costs one Redis read instead of a call to coaching-svc. It is cleared
//! by exactly the writes that clear the gateway's coaching answers.
//!
//! **Cleared** ([`WRITES`]): every route that is not a `GET` is listed with the data it changes;
//! after it answers (success or not: a write may have committed before an error), the gateway
//! renews those stamps in Redis, before the answer leaves, so no replica serves the old answer to
//! a client that saw its change, and booking-svc books against the changed slot. A test fails when
//! a route of the table is missing here. Nothing else renews a stamp on a write of the API.
//!
//! Besides these writes, a stamp is renewed by the service owning the data for changes no route
//! makes: when it starts (the data may have changed while it was down), after every event it
//! applies (`platform::host`; e.g. coaching-svc removing a deleted coach's profile) and after its
//! own scheduled changes (gym-svc's expiries).

use axum::{
    extract::{Request, State},
    http::Method,
    middleware::Next,
    response::Response,
};
use platform::stamps::Context as Data;

use crate::state::AppState;

/// An answer the gateway remembers.
#[derive(Clone, Copy, Debug)]
pub struct Remembered {
    /// Its name in the memory.
    pub name: &'static str,
    /// The `GET` route it answers, as in the route table.
    pub route: &'static str,
    /// The path parameter that tells its answers apart (`None`: one answer for all).
    pub key: Option<&'static str>,
    /// The data it shows: a write to any of them clears it.
    pub shows: &'static [Data],
}

/// The public coach directory: profiles, their locations' cities and states, coach names.
pub const DIRECTORY: Remembered = Remembered {
    name: "directory",
    route: "/coaches",
    key: None,
    shows: &[Data::Coaching, Data::Names],
};

/// A coach's profile with the coach's name.
pub const COACH_PROFILE: Remembered = Remembered {
    name: "coach-profile",
    route: "/coach/profile/{coach_id}",
    key: Some("coach_id"),
    shows: &[Data::Coaching, Data::Names],
};

/// A coach's locations.
pub const COACH_LOCATIONS: Remembered = Remembered {
    name: "coach-locations",
    route: "/locations/coach/{coach_id}",
    key: Some("coach_id"),
    shows: &[Data::Coaching],
};

/// A coach's availability slots.
pub const COACH_SLOTS: Remembered = Remembered {
    name: "coach-slots",
    route: "/availability/coach/{coach_id}",
    key: Some("coach_id"),
    shows: &[Data::Coaching],
};

/// A coach's booking policy.
pub const COACH_POLICY: Remembered = Remembered {
    name: "coach-policy",
    route: "/coach/policy/{coach_id}",
    key: Some("coach_id"),
    shows: &[Data::Coaching],
};

/// The courts of a gym location.
pub const LOCATION_COURTS: Remembered = Remembered {
    name: "location-courts",
    route: "/gym/locations/{location_id}/courts",
    key: Some("location_id"),
    shows: &[Data::Gym],
};

/// Every answer the gateway remembers.
pub const REMEMBERED: &[Remembered] = &[
    DIRECTORY,
    COACH_PROFILE,
    COACH_LOCATIONS,
    COACH_SLOTS,
    COACH_POLICY,
    LOCATION_COURTS,
];

/// An answer a service behind the gateway remembers.
#[derive(Clone, Copy, Debug)]
pub struct Behind {
    /// Its name.
    pub name: &'static str,
    /// The service that keeps it, and where.
    pub kept_by: &'static str,
    /// What tells its entries apart.
    pub key: &'static str,
    /// The data it shows: a write to any of them clears it.
    pub shows: &'static [Data],
}

/// The slots booking-svc books against: coaching-svc's `GetSlot` answer (times, place, time zone
/// and the coach's booking policy).
pub const BOOKING_SLOTS: Behind = Behind {
    name: "booking-slots",
    kept_by: "booking-svc (booking-svc/src/slots.rs)",
    key: "slot_id",
    shows: &[Data::Coaching],
};

/// Every answer a service behind the gateway remembers.
pub const BEHIND: &[Behind] = &[BOOKING_SLOTS];

/// User names (from identity-svc) any answer composes, remembered by user id.
pub const NAMES: &[Data] = &[Data::Names];

/// Every route that is not a `GET`, with the data it changes (empty: nothing any remembered
/// answer shows).
pub const WRITES: &[(Method, &str, &[Data])] = &[
    // A new user is in no remembered answer until they write a profile or a location.
    (Method::POST, "/auth/register", &[]),
    (Method::POST, "/auth/login", &[]),
    (Method::POST, "/auth/logout", &[]),
    // Sessions are never remembered; ending one is a revocation, which every gateway reads.
    (Method::DELETE, "/auth/sessions/{session_id}", &[]),
    (Method::POST, "/auth/logout-all", &[]),
    (Method::POST, "/auth/forgot-password", &[]),
    (Method::POST, "/auth/reset-password", &[]),
    (Method::POST, "/coach/profile", &[Data::Coaching]),
    (Method::PUT, "/coach/profile", &[Data::Coaching]),
    (Method::POST, "/locations", &[Data::Coaching]),
    (Method::POST, "/availability", &[Data::Coaching]),
    (Method::DELETE, "/availability/{slot_id}", &[Data::Coaching]),
    // booking-svc reads the policy with the slot, under coaching's stamp.
    (Method::PUT, "/coach/policy", &[Data::Coaching]),
    // booking-svc reads the coach's time off with the slot, under coaching's stamp.
    (Method::POST, "/coach/exceptions", &[Data::Coaching]),
    (
        Method::DELETE,
        "/coach/exceptions/{exception_id}",
        &[Data::Coaching],
    ),
    // Bookings and court reservations are never remembered.
    (Method::POST, "/bookings", &[]),
    (Method::PATCH, "/bookings/{booking_id}/cancel", &[]),
    (Method::POST, "/bookings/{booking_id}/reschedule", &[]),
    (Method::PATCH, "/coach/bookings/{booking_id}/approve", &[]),
    (Method::PATCH, "/coach/bookings/{booking_id}/deny", &[]),
    (Method::PATCH, "/coach/bookings/{booking_id}/cancel", &[]),
    (Method::PATCH, "/coach/bookings/{booking_id}/no-show", &[]),
    // Reviews are never remembered. The ratings the directory and profiles show are coaching's
    // copy: coaching-svc renews its stamp when it applies the `coach_rating_changed` event each of
    // these writes (but a reply) sends.
    (Method::POST, "/bookings/{booking_id}/review", &[]),
    (Method::PUT, "/bookings/{booking_id}/review", &[]),
    (Method::POST, "/coach/reviews/{review_id}/reply", &[]),
    (Method::PATCH, "/admin/reviews/{review_id}/hide", &[]),
    (Method::POST, "/gym/profile", &[]),
    (Method::PUT, "/gym/profile", &[]),
    (Method::POST, "/gym/locations", &[]),
    (Method::POST, "/gym/locations/{location_id}/courts", &[Data::Gym]),
    (Method::POST, "/gym/court-availability", &[]),
    // Open court time and requests are never remembered.
    (Method::POST, "/gym/locations/{location_id}/closures", &[]),
    (Method::DELETE, "/gym/closures/{closure_id}", &[]),
    (Method::PATCH, "/gym/reservations/{reservation_id}/approve", &[]),
    (Method::PATCH, "/gym/reservations/{reservation_id}/deny", &[]),
    (Method::PATCH, "/gym/reservations/{reservation_id}/cancel", &[]),
    (Method::POST, "/coach/court-reservations", &[]),
    (Method::DELETE, "/coach/court-reservations/{reservation_id}", &[]),
    // A new user is in no remembered answer yet.
    (Method::POST, "/admin/users", &[]),
    // A new name, or a role whose names other contexts show.
    (Method::PUT, "/admin/users/{user_id}", &[Data::Names]),
    // The name goes at once; the coach's profile and locations go when coaching-svc applies the
    // deletion event (it renews its stamp then).
    (Method::DELETE, "/admin/users/{user_id}", &[Data::Names]),
    (Method::POST, "/client/profile", &[]),
    (Method::PUT, "/client/profile", &[]),
    (Method::POST, "/client/upload-profile-picture", &[]),
    // A feed's secret is in no remembered answer.
    (Method::POST, "/calendar/feed", &[]),
    // Notifications are never remembered.
    (Method::POST, "/notifications/{notification_id}/read", &[]),
    (Method::POST, "/notifications/read-all", &[]),
    (Method::PUT, "/notifications/preferences", &[]),
    // Payments, cards, receipts and earnings are never remembered.
    (Method::POST, "/payments/webhook", &[]),
    (Method::POST, "/client/payment-methods/setup", &[]),
    (
        Method::PUT,
        "/client/payment-methods/{payment_method_id}/default",
        &[],
    ),
    (Method::DELETE, "/client/payment-methods/{payment_method_id}", &[]),
    (Method::POST, "/admin/bookings/{booking_id}/refund", &[]),
    // API tokens are never remembered; a revocation is one every gateway reads.
    (Method::POST, "/tokens", &[]),
    (Method::DELETE, "/tokens/{token_id}", &[]),
    // Webhooks are identity's and never remembered by a gateway.
    (Method::POST, "/webhooks", &[]),
    (Method::PUT, "/webhooks/{webhook_id}", &[]),
    (Method::DELETE, "/webhooks/{webhook_id}", &[]),
    (Method::POST, "/webhooks/{webhook_id}/rotate-secret", &[]),
    (Method::POST, "/webhooks/{webhook_id}/test", &[]),
    (
        Method::POST,
        "/webhooks/{webhook_id}/deliveries/{delivery_id}/replay",
        &[],
    ),
    // Conversations are identity's and never remembered by a gateway.
    (Method::POST, "/conversations", &[]),
    (Method::POST, "/conversations/{conversation_id}/messages", &[]),
    (Method::POST, "/conversations/{conversation_id}/read", &[]),
    (Method::POST, "/users/{user_id}/block", &[]),
    (Method::DELETE, "/users/{user_id}/block", &[]),
    (Method::POST, "/messages/{message_id}/report", &[]),
    // A suspension ends the user's tokens (as a role change does); their name stays.
    (Method::POST, "/admin/users/{user_id}/suspend", &[]),
];

/// The data the write `method` `path` changes; `None` when the route is not declared.
pub fn changes(method: &Method, path: &str) -> Option<&'static [Data]> {
    WRITES
        .iter()
        .find(|(m, p, _)| m == method && *p == path)
        .map(|(_, _, data)| *data)
}

/// Renews the stamps of the data a write changes once the handler has answered, whatever it
/// answered, before the answer leaves (mounted by [`super::api`] from [`WRITES`]).
pub async fn renew_after(
    State((state, data)): State<(AppState, &'static [Data])>,
    request: Request,
    next: Next,
) -> Response {
    let response = next.run(request).await;
    state.redis.renew(data).await;
    response
}

#[cfg(test)]
mod tests;
