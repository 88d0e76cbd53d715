//! identity's rules: what a valid email, password, name and phone are, and password hashing.
//! No sqlx, no tonic.

mod password;
mod user;

pub use password::{Hasher, PasswordHash};
pub use user::{Email, FullName, NewPassword, Phone, parse_role};
