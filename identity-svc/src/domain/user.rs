//! Parse-don't-validate newtypes for what a user types.

use platform::auth::Role;

use crate::error::Error;

/// A trimmed, lower-cased email address with one `@` and something on both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, Error> {
        let email = raw.trim().to_lowercase();
        let valid = match email.split_once('@') {
            Some((local, domain)) => {
                !local.is_empty()
                    && domain.contains('.')
                    && !domain.starts_with('.')
                    && !domain.ends_with('.')
                    && !domain.contains('@')
            }
            None => false,
        };
        if email.is_empty() {
            return Err(Error::Invalid("email is required".into()));
        }
        // The refused value is echoed only when short: a detail must fit a gRPC status header.
        if email.chars().count() > 254 {
            return Err(Error::Invalid("email must be at most 254 characters".into()));
        }
        if !valid || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(Error::Invalid(format!(
                "{:?} is not a valid email address",
                raw.trim()
            )));
        }
        Ok(Self(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A password a person chose: at least 10 characters, at most 128, and not easy to guess.
///
/// "Easy to guess" is zxcvbn's estimate (an offline port of Dropbox's estimator, with its own
/// lists of common and breached passwords, names and English words; no network): a score under
/// [`NewPassword::MIN_SCORE`] (about 10^8 guesses) is refused, with zxcvbn's feedback saying why.
/// The account's own email and name count as known words, so a password built from them is weak.
pub struct NewPassword(String);

impl NewPassword {
    pub const MIN_CHARS: usize = 10;
    pub const MAX_CHARS: usize = 128;
    /// zxcvbn's score (0 to 4) a password needs: 3 is "safely unguessable" against an online
    /// attack and a slow hash offline.
    pub const MIN_SCORE: u8 = 3;

    /// The refusal of a password shorter than [`NewPassword::MIN_CHARS`].
    pub const TOO_SHORT: &str = "Password must be at least 10 characters.";

    /// `raw` when it follows the rules; `known` are words of the account (its email, its name)
    /// a guesser would try first.
    pub fn parse(raw: &str, known: &[&str]) -> Result<Self, Error> {
        let chars = raw.chars().count();
        if chars == 0 {
            return Err(Error::Invalid("password is required".into()));
        }
        if chars < Self::MIN_CHARS {
            return Err(Error::Invalid(Self::TOO_SHORT.into()));
        }
        if chars > Self::MAX_CHARS {
            return Err(Error::Invalid("password must be at most 128 characters".into()));
        }
        // The email's local part and the name's words are what a guesser tries with it.
        let mut words: Vec<&str> = Vec::new();
        for value in known {
            words.push(value);
            words.extend(
                value
                    .split(|c: char| !c.is_alphanumeric())
                    .filter(|w| w.len() >= 3),
            );
        }
        let estimate = zxcvbn::zxcvbn(raw, &words);
        if (estimate.score() as u8) < Self::MIN_SCORE {
            let why = estimate
                .feedback()
                .map(ToString::to_string)
                .map(|f| f.trim().to_owned())
                .filter(|f| !f.is_empty())
                .unwrap_or_else(|| "Add another word or two. Uncommon words are better.".into());
            return Err(Error::Invalid(format!(
                "This password is too easy to guess: {why}"
            )));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// A full name: trimmed, not empty, at most 100 characters, no control characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullName(String);

impl FullName {
    pub fn parse(raw: &str) -> Result<Self, Error> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(Error::Invalid("full name is required".into()));
        }
        if name.chars().count() > 100 {
            return Err(Error::Invalid("full name must be at most 100 characters".into()));
        }
        if name.chars().any(char::is_control) {
            return Err(Error::Invalid(
                "full name must not contain control characters".into(),
            ));
        }
        Ok(Self(name.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An optional phone number: empty means none; at most 30 characters of digits, spaces and `+-().`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phone(Option<String>);

impl Phone {
    pub fn parse(raw: Option<&str>) -> Result<Self, Error> {
        let Some(phone) = raw.map(str::trim).filter(|p| !p.is_empty()) else {
            return Ok(Self(None));
        };
        if phone.chars().count() > 30 {
            return Err(Error::Invalid("phone must be at most 30 characters".into()));
        }
        let allowed = phone.chars().all(|c| c.is_ascii_digit() || " +-().".contains(c));
        if !allowed || !phone.chars().any(|c| c.is_ascii_digit()) {
            return Err(Error::Invalid(format!("{phone:?} is not a valid phone number")));
        }
        Ok(Self(Some(phone.to_owned())))
    }

    pub fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

/// The message SPEC.md shows when one of the three required account fields is missing.
pub const REQUIRED_FIELDS: &str = "Email, password, and full name are required";

/// Refuses a new account whose email, password or full name is empty (before any finer check,
/// so the person sees SPEC.md's one sentence for all three).
pub fn require_account_fields(email: &str, password: &str, full_name: &str) -> Result<(), Error> {
    if email.trim().is_empty() || password.is_empty() || full_name.trim().is_empty() {
        return Err(Error::Invalid(REQUIRED_FIELDS.into()));
    }
    Ok(())
}

/// A role name; empty means client.
pub fn parse_role(raw: &str) -> Result<Role, Error> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(Role::Client);
    }
    raw.parse()
        .map_err(|e: platform::auth::UnknownRole| Error::Invalid(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_trimmed_and_lower_cased() {
        assert_eq!(
            Email::parse("  Ann@Example.COM ").unwrap().as_str(),
            "ann@example.com"
        );
    }

    #[test]
    fn malformed_emails_are_refused() {
        for bad in [
            "",
            "ann",
            "ann@",
            "@example.com",
            "ann@example",
            "a b@example.com",
            "ann@.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_need_ten_characters() {
        let Err(Error::Invalid(detail)) = NewPassword::parse("Zq8#kW2!x", &[]) else {
            panic!("nine characters accepted")
        };
        assert_eq!(detail, "Password must be at least 10 characters.");
        assert!(NewPassword::parse("éééééééé", &[]).is_err());
        assert!(NewPassword::parse("Courtside-fixture-2026", &[]).is_ok());
    }

    #[test]
    fn a_common_or_trivial_password_is_refused_saying_why() {
        for weak in [
            "password123",
            "qwertyuiop",
            "aaaaaaaaaaaa",
            "1234567890",
            "iloveyou12",
        ] {
            let Err(Error::Invalid(detail)) = NewPassword::parse(weak, &[]) else {
                panic!("{weak:?} accepted")
            };
            assert!(
                detail.starts_with("This password is too easy to guess: ") && detail.len() > 40,
                "{weak:?}: {detail}"
            );
        }
    }

    #[test]
    fn a_password_made_of_the_accounts_own_name_and_email_is_refused() {
        let email = "bart.quist@mail.example";
        assert!(NewPassword::parse(email, &[]).is_ok());
        assert!(NewPassword::parse(email, &[email, "Bartholomew Quist"]).is_err());
        assert!(NewPassword::parse("bartholomewquist", &[]).is_ok());
        assert!(NewPassword::parse("bartholomewquist", &[email, "Bartholomew Quist"]).is_err());
    }

    #[test]
    fn names_are_required_and_bounded() {
        assert!(FullName::parse("   ").is_err());
        assert!(FullName::parse(&"x".repeat(101)).is_err());
        assert_eq!(FullName::parse(" Ann Lee ").unwrap().as_str(), "Ann Lee");
    }

    #[test]
    fn an_overlong_value_is_refused_without_being_echoed() {
        let long = "9".repeat(100_000);
        let Err(Error::Invalid(detail)) = Phone::parse(Some(&long)) else {
            panic!("refused")
        };
        assert!(detail.len() < 100);
        let Err(Error::Invalid(detail)) = Email::parse(&format!("{long}@example.com")) else {
            panic!("refused")
        };
        assert!(detail.len() < 100);
    }

    #[test]
    fn an_empty_phone_is_none() {
        assert_eq!(Phone::parse(Some("  ")).unwrap().as_deref(), None);
        assert_eq!(
            Phone::parse(Some("+1 (555) 010-9999")).unwrap().as_deref(),
            Some("+1 (555) 010-9999")
        );
        assert!(Phone::parse(Some("call me")).is_err());
    }

    #[test]
    fn a_missing_email_password_or_name_gets_one_message() {
        for (email, password, name) in [
            ("", "Courtside-fixture-2026", "Ann"),
            ("a@b.co", "", "Ann"),
            ("a@b.co", "Courtside-fixture-2026", "  "),
        ] {
            match require_account_fields(email, password, name) {
                Err(Error::Invalid(m)) => assert_eq!(m, REQUIRED_FIELDS),
                _ => panic!("accepted {email:?} {name:?}"),
            }
        }
        assert!(require_account_fields("a@b.co", "Courtside-fixture-2026", "Ann").is_ok());
    }

    #[test]
    fn an_empty_role_means_client() {
        assert_eq!(parse_role("").unwrap(), Role::Client);
        assert_eq!(parse_role("gym").unwrap(), Role::Gym);
        assert!(parse_role("superuser").is_err());
    }
}
