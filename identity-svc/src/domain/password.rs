//! Password hashing with argon2id at OWASP's parameters (19 MiB, 2 iterations, 1 lane), off the
//! async threads and bounded by a semaphore so a login storm cannot starve everything else.

use std::sync::Arc;

use argon2::{
    Algorithm, Argon2, Params, Version,
    password_hash::{PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng},
};
use tokio::sync::Semaphore;

/// A PHC-format argon2id hash string.
#[derive(Clone, Debug)]
pub struct PasswordHash(pub String);

/// Hashes and verifies passwords on the blocking pool, at most `permits` at a time.
#[derive(Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    /// A real hash of a random password: verifying an unknown email's login against it costs
    /// the same time as a wrong password for a known one.
    dummy: PasswordHash,
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("OWASP argon2id parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

fn hash_blocking(password: &str) -> PasswordHash {
    let salt = SaltString::generate(&mut OsRng);
    let hash = argon2()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2id hashing cannot fail");
    PasswordHash(hash.to_string())
}

fn verify_blocking(password: &str, hash: &PasswordHash) -> bool {
    argon2::PasswordHash::new(&hash.0)
        .is_ok_and(|parsed| argon2().verify_password(password.as_bytes(), &parsed).is_ok())
}

impl Hasher {
    pub fn new(permits: usize) -> Self {
        let dummy = hash_blocking(&uuid::Uuid::new_v4().to_string());
        Self {
            permits: Arc::new(Semaphore::new(permits.max(1))),
            dummy,
        }
    }

    pub async fn hash(&self, password: &str) -> anyhow::Result<PasswordHash> {
        let _permit = self.permits.acquire().await?;
        let password = password.to_owned();
        Ok(tokio::task::spawn_blocking(move || hash_blocking(&password)).await?)
    }

    /// Verifies `password` against `hash`, or against the dummy hash when there is none.
    pub async fn verify(&self, password: &str, hash: Option<&PasswordHash>) -> anyhow::Result<bool> {
        let _permit = self.permits.acquire().await?;
        let password = password.to_owned();
        let known = hash.is_some();
        let hash = hash.cloned().unwrap_or_else(|| self.dummy.clone());
        let ok = tokio::task::spawn_blocking(move || verify_blocking(&password, &hash)).await?;
        Ok(ok && known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_password_verifies_against_its_own_hash_only() {
        let hasher = Hasher::new(2);
        let hash = hasher.hash("s3cret!").await.unwrap();
        assert!(hash.0.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(hasher.verify("s3cret!", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("wrong", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("s3cret!", None).await.unwrap());
    }
}
