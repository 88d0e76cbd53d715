//! A calendar feed's secret: 256 random bits written as 43 URL-safe characters (base64url without
//! padding), the part of the feed's address that stands in for a token.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::{RngCore, rngs::OsRng};

/// How many characters a secret has.
pub const SECRET_LEN: usize = 43;

/// A feed secret, made here or read back from the database.
#[derive(Clone, PartialEq, Eq)]
pub struct FeedSecret(String);

impl FeedSecret {
    /// A new secret from the operating system's random source.
    pub fn generate() -> Self {
        let mut bytes = [0_u8; 32];
        OsRng.fill_bytes(&mut bytes);
        FeedSecret(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// `raw` when it has a secret's shape; anything else opens no feed, so it is never looked up.
    pub fn parse(raw: &str) -> Option<Self> {
        let shaped = raw.len() == SECRET_LEN
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        shaped.then(|| FeedSecret(raw.to_owned()))
    }

    /// A secret the database holds (made by [`FeedSecret::generate`]).
    pub fn stored(secret: String) -> Self {
        FeedSecret(secret)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

// Never printed whole: a secret in a log opens someone's calendar.
impl std::fmt::Debug for FeedSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FeedSecret({}…)", &self.0[..self.0.len().min(4)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_secret_has_the_shape_parse_accepts_and_differs_from_the_next() {
        let one = FeedSecret::generate();
        let two = FeedSecret::generate();
        assert_eq!(one.as_str().len(), SECRET_LEN);
        assert_eq!(FeedSecret::parse(one.as_str()), Some(one.clone()));
        assert_ne!(one, two);
    }

    #[test]
    fn anything_else_is_no_secret() {
        let good = FeedSecret::generate().into_string();
        for bad in [
            String::new(),
            good[1..].to_owned(),
            format!("{good}A"),
            format!("{}+", &good[1..]),
            format!("{}/", &good[1..]),
            format!("{}é", &good[2..]),
        ] {
            assert_eq!(FeedSecret::parse(&bad), None, "{bad:?}");
        }
    }

    #[test]
    fn debug_shows_only_the_start() {
        let secret = FeedSecret::generate();
        assert!(!format!("{secret:?}").contains(secret.as_str()));
    }
}
