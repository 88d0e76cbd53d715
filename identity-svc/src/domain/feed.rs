//! A calendar feed's secret: 256 random bits written as 43 URL-safe characters (base64url without
//! padding), the part of the feed's address that stands in for a token. The database keeps only
//! its SHA-256 ([`FeedSecret::hash`]): a copy of it opens no one's calendar.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::{RngCore, rngs::OsRng};
use sha2::{Digest, Sha256};

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

    /// What the database keeps and looks feeds up by: the SHA-256 of the secret, in hex. A
    /// 256-bit random secret needs no salt nor slow hash: it cannot be guessed from its hash.
    pub fn hash(&self) -> String {
        Sha256::digest(self.0.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
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
        assert_eq!(one.clone().into_string().as_str().len(), SECRET_LEN);
        assert_eq!(
            FeedSecret::parse(one.clone().into_string().as_str()),
            Some(one.clone())
        );
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
    fn the_hash_is_64_hex_digits_and_differs_per_secret() {
        let one = FeedSecret::generate();
        assert_eq!(one.hash().len(), 64);
        assert_eq!(
            FeedSecret::parse(one.clone().into_string().as_str())
                .unwrap()
                .hash(),
            one.hash()
        );
        assert_ne!(one.hash(), FeedSecret::generate().hash());
        assert!(!one.hash().contains(&one.clone().into_string()));
    }

    #[test]
    fn debug_shows_only_the_start() {
        let secret = FeedSecret::generate();
        assert!(!format!("{secret:?}").contains(&secret.clone().into_string()));
    }
}
