//! What an API token (issue 37) needs to call a route: the route's area (a function of its
//! path, [`area`]) and read or write by its method (`GET` reads; every other method writes).
//! A route of no area (sign-in and sessions, tokens and webhooks, notifications, calendar feeds,
//! payment methods) refuses every token: those are a person's, not a script's.
//!
//! Every row of the route table is classified by [`RULES`] (a unit test sees to it), so a new
//! route is a decision: under a prefix here it inherits that prefix's area; anywhere else the
//! test fails until a rule names it. A route no rule names refuses tokens.

use axum::http::Method;

/// An area of the API a token's scopes are granted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    Bookings,
    Availability,
    CourtRequests,
    Profile,
    Admin,
}

impl Area {
    pub const ALL: [Area; 5] = [
        Area::Bookings,
        Area::Availability,
        Area::CourtRequests,
        Area::Profile,
        Area::Admin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Area::Bookings => "bookings",
            Area::Availability => "availability",
            Area::CourtRequests => "court_requests",
            Area::Profile => "profile",
            Area::Admin => "admin",
        }
    }

    /// The scope a call of `method` needs here: `<area>:read` for a GET, `<area>:write` else.
    pub fn scope(self, method: &Method) -> &'static str {
        let write = *method != Method::GET && *method != Method::HEAD;
        match (self, write) {
            (Area::Bookings, false) => "bookings:read",
            (Area::Bookings, true) => "bookings:write",
            (Area::Availability, false) => "availability:read",
            (Area::Availability, true) => "availability:write",
            (Area::CourtRequests, false) => "court_requests:read",
            (Area::CourtRequests, true) => "court_requests:write",
            (Area::Profile, false) => "profile:read",
            (Area::Profile, true) => "profile:write",
            (Area::Admin, false) => "admin:read",
            (Area::Admin, true) => "admin:write",
        }
    }
}

/// Every scope a token may hold, in the order the API lists them.
pub fn all_scopes() -> Vec<&'static str> {
    Area::ALL
        .iter()
        .flat_map(|a| [a.scope(&Method::GET), a.scope(&Method::POST)])
        .collect()
}

/// Path prefixes (route templates, relative to `/api`) and their area; `None`: not for tokens.
/// The first rule whose prefix the path starts with, at a segment's end, decides.
const RULES: &[(&str, Option<Area>)] = &[
    // A person's own: signing in, sessions, tokens, webhooks, their inbox, their calendar's
    // secret address, their cards. A token never opens these.
    ("/auth", None),
    ("/tokens", None),
    ("/webhooks", None),
    ("/notifications", None),
    ("/conversations", None),
    ("/users", None),
    ("/messages", None),
    ("/admin/reports", None),
    ("/admin/users/{user_id}/suspend", None),
    ("/calendar", None),
    ("/client/payment-methods", None),
    // Public: the gate never looks at a token there.
    ("/payments", None),
    ("/geocode", None),
    ("/coaches", Some(Area::Profile)),
    ("/admin", Some(Area::Admin)),
    ("/bookings", Some(Area::Bookings)),
    ("/coach/bookings", Some(Area::Bookings)),
    ("/coach/reviews", Some(Area::Bookings)),
    ("/coach/earnings", Some(Area::Bookings)),
    ("/availability", Some(Area::Availability)),
    ("/coach/exceptions", Some(Area::Availability)),
    ("/coach/policy", Some(Area::Availability)),
    ("/gym/court-availability", Some(Area::Availability)),
    (
        "/gym/locations/{location_id}/availability",
        Some(Area::Availability),
    ),
    ("/gym/locations/{location_id}/closures", Some(Area::Availability)),
    ("/gym/closures", Some(Area::Availability)),
    ("/coach/court-reservations", Some(Area::CourtRequests)),
    ("/gym/pending-reservations", Some(Area::CourtRequests)),
    ("/gym/reservations", Some(Area::CourtRequests)),
    ("/coach/profile", Some(Area::Profile)),
    ("/coach/{coach_id}/reviews", Some(Area::Profile)),
    ("/gym/profile", Some(Area::Profile)),
    ("/gym/locations", Some(Area::Profile)),
    ("/client/profile", Some(Area::Profile)),
    ("/client/upload-profile-picture", Some(Area::Profile)),
    ("/locations", Some(Area::Profile)),
];

/// The rule for `path` (a route template): `Some(area or None)`, or `None` when no rule names it.
fn rule(path: &str) -> Option<Option<Area>> {
    RULES.iter().find_map(|(prefix, area)| {
        let rest = path.strip_prefix(prefix)?;
        // At a segment's end: "/coach/earnings" covers "/coach/earnings.csv", "/locations"
        // does not cover "/locationsx".
        (rest.is_empty() || rest.starts_with('/') || rest.starts_with('.')).then_some(*area)
    })
}

/// The area of the route at `path` (a template such as `/coach/bookings/{booking_id}/approve`);
/// `None` when tokens cannot call it.
pub fn area(path: &str) -> Option<Area> {
    rule(path).flatten()
}

/// What a token needs on a route: the scope for `method` on `path`, or `None` (no token).
pub fn required(method: &Method, path: &str) -> Option<&'static str> {
    area(path).map(|a| a.scope(method))
}

/// The detail of a 403 for a route tokens cannot call.
pub const NOT_FOR_TOKENS: &str = "An API token cannot do this; sign in to do it.";
/// The detail of a 403 for a token management route called with a token.
pub const NOT_FOR_MANAGING: &str = "An API token cannot manage tokens or webhooks; sign in to do this.";

/// The detail of a 403 for a token without `scope`.
pub fn lacks(scope: &str) -> String {
    format!("This API token lacks the scope {scope}.")
}

/// The detail for a token refused on `path` (no area there).
pub fn refused_on(path: &str) -> &'static str {
    if path.starts_with("/tokens") || path.starts_with("/webhooks") {
        NOT_FOR_MANAGING
    } else {
        NOT_FOR_TOKENS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::rows;

    #[test]
    fn every_route_has_an_area_or_is_explicitly_not_for_tokens() {
        let unnamed: Vec<String> = rows()
            .iter()
            .filter(|row| rule(&row.path).is_none())
            .map(|row| format!("{} {}", row.method, row.path))
            .collect();
        assert!(
            unnamed.is_empty(),
            "no rule in routes/scopes.rs names these routes: {unnamed:?}"
        );
    }

    #[test]
    fn the_areas_are_the_issues() {
        let at = |m: Method, p: &str| required(&m, p);
        assert_eq!(at(Method::GET, "/bookings"), Some("bookings:read"));
        assert_eq!(
            at(Method::PATCH, "/coach/bookings/{booking_id}/approve"),
            Some("bookings:write")
        );
        assert_eq!(at(Method::GET, "/coach/earnings.csv"), Some("bookings:read"));
        assert_eq!(at(Method::POST, "/availability"), Some("availability:write"));
        assert_eq!(
            at(Method::GET, "/gym/locations/{location_id}/closures"),
            Some("availability:read")
        );
        assert_eq!(at(Method::POST, "/gym/locations"), Some("profile:write"));
        assert_eq!(
            at(Method::PATCH, "/gym/reservations/{reservation_id}/approve"),
            Some("court_requests:write")
        );
        assert_eq!(at(Method::DELETE, "/admin/users/{user_id}"), Some("admin:write"));
        for none in [
            "/auth/me",
            "/auth/sessions",
            "/tokens",
            "/tokens/{token_id}",
            "/webhooks/{webhook_id}/test",
            "/notifications",
            "/calendar/feed",
            "/client/payment-methods",
        ] {
            assert_eq!(at(Method::GET, none), None, "{none}");
        }
        assert_eq!(area("/locationsx"), None);
        assert_eq!(refused_on("/webhooks"), NOT_FOR_MANAGING);
        assert_eq!(refused_on("/auth/me"), NOT_FOR_TOKENS);
    }

    #[test]
    fn the_scopes_are_the_ones_identity_knows() {
        assert_eq!(
            all_scopes(),
            [
                "bookings:read",
                "bookings:write",
                "availability:read",
                "availability:write",
                "court_requests:read",
                "court_requests:write",
                "profile:read",
                "profile:write",
                "admin:read",
                "admin:write",
            ]
        );
    }
}
