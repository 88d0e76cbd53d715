//! `/admin`: platform statistics, user management and payments, for admins only.
//!
//! identity-svc owns the users and enforces the rules. The gateway composes the views that span
//! contexts: the stats (identity + booking) and one user's totals (identity + booking + coaching
//! or gym), with independent calls made concurrently.

pub mod accounts;
pub mod audit;
pub mod payments;
pub mod stats;
pub mod users;
