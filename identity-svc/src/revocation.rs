//! Writes to the revocation cache every gateway replica reads on each signed-in request, so a
//! change that ends tokens takes effect at once everywhere:
//!
//! - `{namespace}:tv:{user_id}` = the user's token version (`-1` once the user is deleted), kept
//!   for a day; a token whose `ver` differs is refused;
//! - `{namespace}:rv:{jti}` = `1` until the token's `exp`: the token was logged out.
//!
//! The database (`identity.app_user.token_version`, `identity.revoked_token`) is the truth, written
//! in the change's own transaction; the write here publishes it after the commit. It fails closed
//! (issue 32): when Redis does not take it within [`WRITE_LIMIT`], the RPC answers UNAVAILABLE
//! ([`UNCONFIRMED`], the gateway's 503) instead of reporting a success a gateway holding an older
//! cached version would contradict. The change stays recorded; trying again publishes it again.

use std::time::Duration;

use uuid::Uuid;

use platform::redis_link::RedisLink;

use crate::error::Error;

/// How long an RPC may wait for a cache write.
pub const WRITE_LIMIT: Duration = Duration::from_millis(500);

/// The detail of an action whose revocation was recorded but not published.
pub const UNCONFIRMED: &str = "The change was saved, but ending the affected sessions could not be confirmed on \
     every server just now. Please try again in a moment.";
/// How long a token version stays cached.
const VERSION_TTL_SECS: u64 = 24 * 3600;

/// Sets the version unless the cache already holds a newer one or the user's deletion (`-1`):
/// two changes to one user commit in order but their cache writes may arrive out of order.
const SET_VERSION: &str = r"
local current = tonumber(redis.call('GET', KEYS[1]))
local new = tonumber(ARGV[1])
if current ~= nil and (current < 0 or (new >= 0 and current > new)) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
";

/// The cache writer; cheap to clone.
#[derive(Clone)]
pub struct Revocations {
    link: RedisLink,
    namespace: String,
}

impl Revocations {
    pub fn new(link: RedisLink, namespace: String) -> Self {
        Self { link, namespace }
    }

    /// The user's role or password changed: tokens of older versions stop working.
    pub async fn token_version_changed(&self, user_id: Uuid, version: i64) -> Result<(), Error> {
        self.set_version(user_id, version).await
    }

    /// The user is gone: all their tokens stop working.
    pub async fn user_deleted(&self, user_id: Uuid) -> Result<(), Error> {
        self.set_version(user_id, -1).await
    }

    async fn set_version(&self, user_id: Uuid, version: i64) -> Result<(), Error> {
        let key = format!("{}:tv:{user_id}", self.namespace);
        let result = self
            .link
            .run(|mut conn| async move {
                redis::cmd("EVAL")
                    .arg(SET_VERSION)
                    .arg(1)
                    .arg(&key)
                    .arg(version)
                    .arg(VERSION_TTL_SECS)
                    .query_async::<i64>(&mut conn)
                    .await
            })
            .await;
        result.map(drop).map_err(|error| {
            tracing::warn!(%error, %user_id, "token version not published; the call fails");
            Error::Unavailable(UNCONFIRMED.into())
        })
    }

    /// The token `jti`, valid until `exp` (Unix seconds), was logged out.
    pub async fn token_revoked(&self, jti: Uuid, exp: i64) -> Result<(), Error> {
        let ttl = exp - platform::auth::now_secs();
        if ttl <= 0 {
            return Ok(());
        }
        let key = format!("{}:rv:{jti}", self.namespace);
        let result = self
            .link
            .run(|mut conn| async move {
                redis::cmd("SET")
                    .arg(&key)
                    .arg("1")
                    .arg("EX")
                    .arg(ttl)
                    .query_async::<()>(&mut conn)
                    .await
            })
            .await;
        result.map_err(|error| {
            tracing::warn!(%error, "revocation not published; the call fails");
            Error::Unavailable(UNCONFIRMED.into())
        })
    }
}
