//! Coaching routes: the public directory and its searches, coach profiles, coach locations and
//! availability slots. Coach names come from identity-svc in one batched `GetUsers` call per
//! response (`crate::names`).

pub mod directory;
pub mod locations;
pub mod policy;
pub mod profile;
pub mod search;
pub mod slots;
pub mod time_off;

/// An optional text input: blank means absent.
fn blank_is_none(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}
