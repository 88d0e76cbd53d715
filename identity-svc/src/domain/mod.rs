//! identity's rules: what a valid email, password, name, phone and client profile are, what an
//! admin's change to a user sets in motion, password hashing and calendar-feed secrets. No sqlx, no
//! tonic.

mod admin;
mod feed;
pub mod notice;
mod password;
mod profile;
pub mod reset;
mod search;
mod user;

pub use admin::{PhoneChange, RawUserChanges, Target, UserChanges, check_deletable, plan_update};
pub use feed::FeedSecret;
pub use password::{Hasher, PasswordHash};
pub use profile::{ProfileFields, RawProfileFields};
pub use search::UserFilter;
pub use user::{Email, FullName, NewPassword, Phone, parse_role, require_account_fields};
