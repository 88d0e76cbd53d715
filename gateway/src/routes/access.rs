//! Who may call a route: the [`Access`] each row of the route table pairs with its handler.

use platform::auth::Role;

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone, signed in or not.
    Public,
    /// Any signed-in user.
    SignedIn,
    /// Signed-in users with one of these roles.
    Roles(&'static [Role]),
}

impl Access {
    /// Whether a caller with `role` (None: anonymous) may call.
    pub fn allows(self, role: Option<Role>) -> bool {
        match (self, role) {
            (Access::Public, _) => true,
            (_, None) => false,
            (Access::SignedIn, Some(_)) => true,
            (Access::Roles(roles), Some(role)) => roles.contains(&role),
        }
    }
}

pub const ADMIN: Access = Access::Roles(&[Role::Admin]);
pub const COACH: Access = Access::Roles(&[Role::Coach]);
pub const CLIENT: Access = Access::Roles(&[Role::Client]);
pub const GYM: Access = Access::Roles(&[Role::Gym]);
/// Coaches and clients: the two sides of a booking.
pub const CLIENT_OR_COACH: Access = Access::Roles(&[Role::Client, Role::Coach]);
/// Clients, coaches and gyms: everyone who has sessions (and so a calendar feed).
pub const WITH_SESSIONS: Access = Access::Roles(&[Role::Client, Role::Coach, Role::Gym]);
/// Coaches, gyms and admins: who may hold API tokens and webhooks (issue 37).
pub const MANAGES_TOKENS: Access = Access::Roles(&[Role::Coach, Role::Gym, Role::Admin]);
pub(super) const PUBLIC: Access = Access::Public;
pub(super) const SIGNED_IN: Access = Access::SignedIn;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_allows_exactly_its_roles() {
        assert!(Access::Public.allows(None));
        assert!(!Access::SignedIn.allows(None));
        assert!(Access::SignedIn.allows(Some(Role::Gym)));
        assert!(COACH.allows(Some(Role::Coach)));
        assert!(!COACH.allows(Some(Role::Admin)));
        assert!(!COACH.allows(None));
    }
}
