//! The admin's search of the users: what `q` and `role` may be, and the LIKE pattern that finds
//! `q` anywhere in a user's full name, email or id.

use platform::auth::Role;

use crate::error::Error;

/// The longest `q` searched for (an email is at most 254 characters).
const LONGEST_QUERY: usize = 254;

/// The filters of one list of users: both optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserFilter {
    /// `LIKE` pattern over the lower-cased "full name, email, id" text; `None`: everyone.
    pub pattern: Option<String>,
    /// Only users of this role; `None`: every role.
    pub role: Option<Role>,
}

impl UserFilter {
    /// Reads `q` (blank: no search; at most 254 characters, no NUL, which no text column holds)
    /// and `role` (blank: any). Other characters are searched for as they are.
    pub fn parse(q: &str, role: &str) -> Result<Self, Error> {
        let q = q.trim();
        if q.chars().count() > LONGEST_QUERY {
            return Err(Error::Invalid(format!(
                "q must be at most {LONGEST_QUERY} characters"
            )));
        }
        if q.contains('\0') {
            return Err(Error::Invalid("q cannot hold a NUL character".into()));
        }
        let role = match role.trim() {
            "" => None,
            raw => Some(
                raw.parse::<Role>()
                    .map_err(|e: platform::auth::UnknownRole| Error::Invalid(e.to_string()))?,
            ),
        };
        Ok(Self {
            pattern: (!q.is_empty()).then(|| contains(&q.to_lowercase())),
            role,
        })
    }

    /// Whether the number of users this filter matches is cheap to know (no search: a counter).
    pub fn counted(&self) -> bool {
        self.pattern.is_none()
    }
}

/// `LIKE` pattern matching `needle` anywhere, its wildcards and escape character taken literally.
fn contains(needle: &str) -> String {
    let mut pattern = String::with_capacity(needle.len() + 2);
    pattern.push('%');
    for c in needle.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_filters_match_everyone_and_are_counted() {
        let filter = UserFilter::parse("  ", "").unwrap();
        assert_eq!(filter, UserFilter::default());
        assert!(filter.counted());
    }

    #[test]
    fn q_is_lower_cased_and_its_wildcards_are_taken_literally() {
        let filter = UserFilter::parse(" Ann_100%\\ ", "coach").unwrap();
        assert_eq!(filter.pattern.as_deref(), Some("%ann\\_100\\%\\\\%"));
        assert_eq!(filter.role, Some(Role::Coach));
        assert!(!filter.counted());
    }

    #[test]
    fn an_unknown_role_a_long_q_or_a_nul_is_refused() {
        for (q, role) in [("", "owner"), ("a\0b", ""), (&*"x".repeat(255), "")] {
            assert!(
                matches!(UserFilter::parse(q, role), Err(Error::Invalid(_))),
                "{q:?} {role:?}"
            );
        }
        assert!(UserFilter::parse(&"x".repeat(254), "gym").is_ok());
    }
}
