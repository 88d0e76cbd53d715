//! A password-reset token: 256 random bits written as 43 URL-safe characters, sent in the reset
//! link and kept only as its SHA-256, so a copy of the database opens no account.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::Duration;
use rand::{RngCore, rngs::OsRng};
use sha2::{Digest, Sha256};

/// How long a reset link works.
pub const VALID_FOR: Duration = Duration::minutes(30);

/// A reset token as the link carries it.
pub struct ResetToken(String);

impl ResetToken {
    pub fn generate() -> Self {
        let mut bytes = [0_u8; 32];
        OsRng.fill_bytes(&mut bytes);
        ResetToken(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// `raw` when it has a token's shape (anything else is unknown without a lookup).
    pub fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim();
        let shaped = raw.len() == 43
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        shaped.then(|| ResetToken(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the database keeps: the SHA-256 of the token, in hex.
    pub fn hash(&self) -> String {
        Sha256::digest(self.0.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

// Never printed: a token in a log resets someone's password.
impl std::fmt::Debug for ResetToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ResetToken(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_token_parses_and_hashes_to_64_hex_digits_unlike_the_next() {
        let one = ResetToken::generate();
        let two = ResetToken::generate();
        assert!(ResetToken::parse(one.as_str()).is_some());
        assert_eq!(one.hash().len(), 64);
        assert_ne!(one.hash(), two.hash());
        assert_eq!(ResetToken::parse(one.as_str()).unwrap().hash(), one.hash());
    }

    #[test]
    fn a_malformed_token_does_not_parse() {
        assert!(ResetToken::parse("short").is_none());
        assert!(ResetToken::parse(&"!".repeat(43)).is_none());
    }
}
