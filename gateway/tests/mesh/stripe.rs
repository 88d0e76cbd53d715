//! Webhook events signed as Stripe signs them, for the mesh's booking-svc (whose provider is the
//! mesh's own `platform::testing::Localstripe`).

use sha2::{Digest, Sha256};

/// The secret the mesh's booking-svc checks webhook signatures with.
pub const WEBHOOK_SECRET: &str = "whsec_mesh_test_secret";

/// HMAC-SHA256 (RFC 2104) of `message` under `key`, in lower-case hex.
fn hmac_sha256(key: &[u8], message: &[u8]) -> String {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.iter().map(|b| b ^ byte).collect::<Vec<u8>>();
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    let outer = Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize();
    outer.iter().map(|b| format!("{b:02x}")).collect()
}

/// A `Stripe-Signature` header for `payload` made at `at` (unix seconds) with `secret`.
pub fn signature(secret: &str, at: i64, payload: &str) -> String {
    let v1 = hmac_sha256(secret.as_bytes(), format!("{at}.{payload}").as_bytes());
    format!("t={at},v1={v1}")
}

#[test]
fn hmac_matches_rfc_4231_case_2() {
    assert_eq!(
        hmac_sha256(b"Jefe", b"what do ya want for nothing?"),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
}
