//! Standard Webhooks signatures: a secret is `whsec_` and the base64 of 24 random bytes; a
//! delivery is signed with HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` keyed by the
//! secret's decoded bytes, and the `webhook-signature` header carries `v1,<base64>` for every
//! secret in force (two during a rotation's overlap), separated by spaces.

use base64::{Engine, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use rand::{RngCore, rngs::OsRng};
use sha2::Sha256;

/// What every secret starts with.
pub const PREFIX: &str = "whsec_";

/// A new secret, to show once.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 24];
    OsRng.fill_bytes(&mut bytes);
    format!("{PREFIX}{}", STANDARD.encode(bytes))
}

/// The key a secret stands for: its base64 part decoded (a secret this module did not make, used
/// as it is).
fn key_of(secret: &str) -> Vec<u8> {
    let encoded = secret.strip_prefix(PREFIX).unwrap_or(secret);
    STANDARD
        .decode(encoded)
        .unwrap_or_else(|_| encoded.as_bytes().to_vec())
}

/// One `v1,<base64>` signature of `body` sent as message `id` at `timestamp` (unix seconds).
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(&key_of(secret)).expect("HMAC takes any key");
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

/// The `webhook-signature` header: one signature per secret in force.
pub fn header(secrets: &[&str], id: &str, timestamp: i64, body: &[u8]) -> String {
    secrets
        .iter()
        .map(|secret| sign(secret, id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_prefixed_and_carries_24_bytes() {
        let secret = new_secret();
        assert!(secret.starts_with(PREFIX));
        assert_eq!(key_of(&secret).len(), 24);
        assert_ne!(secret, new_secret());
    }

    // The example of the Standard Webhooks specification (its reference libraries' test vector).
    #[test]
    fn the_specifications_example_signs_as_it_says() {
        let signature = sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            br#"{"test": 2432232314}"#,
        );
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn a_rotation_signs_with_both_secrets() {
        let header = header(&["whsec_AAAA", "whsec_BBBB"], "id", 1, b"{}");
        let parts: Vec<_> = header.split(' ').collect();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0], sign("whsec_AAAA", "id", 1, b"{}"));
        assert_eq!(parts[1], sign("whsec_BBBB", "id", 1, b"{}"));
    }
}
