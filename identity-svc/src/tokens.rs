//! Personal API tokens (issue 37): a coach's, a gym's or an admin's Bearer credential for a
//! script, limited to its scopes. The secret (`cst_` and 43 URL-safe characters, 256 random bits)
//! is shown once; the database keeps its SHA-256 only, and finds a token by it.
//!
//! The gateway trades a secret for a short-lived JWT of the token's person ([`exchange`]); that
//! JWT's `jti` is the token's id, so a revocation is recorded and published exactly as a logout's
//! (`identity.revoked_token`, the Redis `rv:` key): every gateway refuses the token at once.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Duration, Utc};
use rand::{RngCore, rngs::OsRng};
use sha2::{Digest, Sha256};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::error::Error;

/// What every secret starts with, so a scanner (and the gateway) knows one when it sees one.
pub const SECRET_PREFIX: &str = "cst_";
/// How many characters of the secret after [`SECRET_PREFIX`] a list shows.
const PREFIX_CHARS: usize = 4;
/// The longest name.
pub const MAX_NAME: usize = 80;
/// How many live (neither revoked nor expired) tokens one person may hold.
pub const MAX_LIVE: i64 = 20;
/// How often `last_used_at` moves at most.
const LAST_USED_GRAIN: Duration = Duration::minutes(1);

/// Every scope; the `admin:` ones are for admins only.
pub const SCOPES: [&str; 10] = [
    "bookings:read",
    "bookings:write",
    "availability:read",
    "availability:write",
    "court_requests:read",
    "court_requests:write",
    "profile:read",
    "profile:write",
    "admin:read",
    "admin:write",
];

/// Why a new token is refused, each with a sentence for the person.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A value no token takes (a name too long, a word that is no scope): 400.
    #[error("{0}")]
    Invalid(String),
    /// A scope the person may not grant (an admin's, asked by anyone else): 403.
    #[error("{0}")]
    NotYours(String),
    /// A moment already past, or one token too many: 409.
    #[error("{0}")]
    State(String),
}

/// A new token's fields, checked.
#[derive(Debug, PartialEq, Eq)]
pub struct NewToken {
    pub name: String,
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
}

impl NewToken {
    /// Checks a request: a name of 1 to [`MAX_NAME`] characters, known scopes (at least one;
    /// `admin:` ones only for an admin), and an expiry, if any, after `now`.
    pub fn parse(
        name: &str,
        scopes: &[String],
        expires_at: Option<&str>,
        admin: bool,
        now: DateTime<Utc>,
    ) -> Result<NewToken, Refused> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(Refused::Invalid(format!(
                "A token's name must have 1 to {MAX_NAME} characters."
            )));
        }
        if scopes.is_empty() {
            return Err(Refused::Invalid(
                "Choose at least one scope for the token.".to_owned(),
            ));
        }
        let mut chosen: Vec<String> = Vec::new();
        for scope in scopes {
            let scope = scope.trim();
            if !SCOPES.contains(&scope) {
                return Err(Refused::Invalid(format!(
                    "{scope:?} is not a scope; the scopes are {}.",
                    SCOPES.join(", ")
                )));
            }
            if scope.starts_with("admin:") && !admin {
                return Err(Refused::NotYours(format!(
                    "Only an admin's token can have the scope {scope}."
                )));
            }
            if !chosen.iter().any(|c| c == scope) {
                chosen.push(scope.to_owned());
            }
        }
        chosen.sort_by_key(|s| SCOPES.iter().position(|k| k == s));
        let expires_at = match expires_at.map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(raw) => {
                let at = DateTime::parse_from_rfc3339(raw)
                    .map_err(|_| {
                        Refused::Invalid(format!(
                            "expires_at must be an RFC 3339 time such as 2027-01-31T00:00:00Z, not {raw:?}."
                        ))
                    })?
                    .with_timezone(&Utc);
                if at <= now {
                    return Err(Refused::State(
                        "A token's expiry must be in the future.".to_owned(),
                    ));
                }
                Some(at)
            }
        };
        Ok(NewToken {
            name: name.to_owned(),
            scopes: chosen,
            expires_at,
        })
    }
}

/// A token's secret, made here or as it came from a script.
pub struct Secret(String);

impl Secret {
    pub fn generate() -> Secret {
        let mut bytes = [0_u8; 32];
        OsRng.fill_bytes(&mut bytes);
        Secret(format!("{SECRET_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes)))
    }

    /// `raw` when it has a secret's shape; anything else is no token, never looked up.
    pub fn parse(raw: &str) -> Option<Secret> {
        let body = raw.strip_prefix(SECRET_PREFIX)?;
        let shaped = body.len() == 43
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        shaped.then(|| Secret(raw.to_owned()))
    }

    /// The SHA-256 of the secret: a 256-bit random secret needs no salt nor slow hash.
    pub fn hash(&self) -> Vec<u8> {
        Sha256::digest(self.0.as_bytes()).to_vec()
    }

    /// What a list shows of it: `cst_` and four characters.
    pub fn prefix(&self) -> String {
        self.0.chars().take(SECRET_PREFIX.len() + PREFIX_CHARS).collect()
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

// Never printed whole: a secret in a log is a working credential.
impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({}…)", self.prefix())
    }
}

/// A token as it is listed.
#[derive(Debug, sqlx::FromRow)]
pub struct TokenRow {
    pub token_id: Uuid,
    pub name: String,
    pub scopes: Vec<String>,
    pub prefix: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
}

/// Records a new token of `user_id`, unless they hold [`MAX_LIVE`] live tokens already (checked
/// under a lock of the person's row, so two creations cannot both pass the count).
pub async fn create(
    db: &PgPool,
    user_id: Uuid,
    token: &NewToken,
    secret: &Secret,
    now: DateTime<Utc>,
) -> Result<Result<TokenRow, Refused>, Error> {
    let mut tx = db.begin().await?;
    sqlx::query("select 1 from identity.app_user where user_id = $1 for update")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let live: i64 = sqlx::query_scalar(
        "select count(*) from identity.api_token
          where user_id = $1 and revoked_at is null and (expires_at is null or expires_at > $2)",
    )
    .bind(user_id)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    if live >= MAX_LIVE {
        return Ok(Err(Refused::State(format!(
            "You have {MAX_LIVE} API tokens already; revoke one you no longer use first."
        ))));
    }
    let row = sqlx::query_as::<_, TokenRow>(
        "insert into identity.api_token
             (token_id, user_id, name, scopes, prefix, secret_hash, created_at, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         returning token_id, name, scopes, prefix, created_at, expires_at, last_used_at",
    )
    .bind(Uuid::now_v7())
    .bind(user_id)
    .bind(&token.name)
    .bind(&token.scopes)
    .bind(secret.prefix())
    .bind(secret.hash())
    .bind(now)
    .bind(token.expires_at)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Ok(row))
}

/// The person's tokens that are not revoked, newest first (expired ones included: the list says
/// when they expired).
pub async fn list(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Vec<TokenRow>, Error> {
    Ok(sqlx::query_as::<_, TokenRow>(
        "select token_id, name, scopes, prefix, created_at, expires_at, last_used_at
           from identity.api_token
          where user_id = $1 and revoked_at is null
          order by created_at desc, token_id desc",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?)
}

/// Marks the person's token revoked and records its revocation as a logout's (its id is the
/// `jti` of every JWT minted for it) until `jwt_until`, in one transaction. False when the person
/// has no such token (revoked already included).
pub async fn revoke(
    db: &PgPool,
    user_id: Uuid,
    token_id: Uuid,
    jwt_until: DateTime<Utc>,
) -> Result<bool, Error> {
    let mut tx = db.begin().await?;
    let revoked = sqlx::query(
        "update identity.api_token set revoked_at = now()
          where token_id = $1 and user_id = $2 and revoked_at is null",
    )
    .bind(token_id)
    .bind(user_id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if revoked {
        crate::store::revoke_token(&mut *tx, token_id, jwt_until).await?;
    }
    tx.commit().await?;
    Ok(revoked)
}

/// A token found by its secret, with its person as they are now.
#[derive(Debug, sqlx::FromRow)]
pub struct Holder {
    pub token_id: Uuid,
    pub name: String,
    pub scopes: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub user_id: Uuid,
    pub role: String,
    pub token_version: i64,
}

/// The token whose secret hashes to `hash`, with its person (None: no such token).
pub async fn holder(db: impl PgExecutor<'_>, hash: &[u8]) -> Result<Option<Holder>, Error> {
    Ok(sqlx::query_as::<_, Holder>(
        "select t.token_id, t.name, t.scopes, t.expires_at, t.last_used_at, t.revoked_at,
                u.user_id, u.role, u.token_version
           from identity.api_token t join identity.app_user u using (user_id)
          where t.secret_hash = $1",
    )
    .bind(hash)
    .fetch_optional(db)
    .await?)
}

/// Whether `last_used_at` should move to `now`: at most once a [`LAST_USED_GRAIN`].
pub fn due_for_touch(last_used_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    last_used_at.is_none_or(|at| now - at >= LAST_USED_GRAIN)
}

/// Moves `last_used_at` to `now` unless another exchange moved it within the grain meanwhile.
pub async fn touch(db: impl PgExecutor<'_>, token_id: Uuid, now: DateTime<Utc>) -> Result<(), Error> {
    sqlx::query(
        "update identity.api_token set last_used_at = $2
          where token_id = $1 and (last_used_at is null or last_used_at <= $2 - interval '1 minute')",
    )
    .bind(token_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scopes(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_request_is_checked_field_by_field() {
        let now = Utc::now();
        let ok = NewToken::parse(
            " CRM ",
            &scopes(&["bookings:write", "bookings:read", "bookings:read"]),
            None,
            false,
            now,
        )
        .unwrap();
        assert_eq!(ok.name, "CRM");
        assert_eq!(ok.scopes, ["bookings:read", "bookings:write"]);
        let refused = |name: &str, list: &[&str], exp: Option<&str>, admin: bool| {
            NewToken::parse(name, &scopes(list), exp, admin, now)
                .unwrap_err()
                .to_string()
        };
        assert!(refused("", &["profile:read"], None, false).contains("name"));
        assert!(refused(&"x".repeat(81), &["profile:read"], None, false).contains("name"));
        assert!(refused("a", &[], None, false).contains("at least one scope"));
        assert!(refused("a", &["bookings:delete"], None, false).contains("not a scope"));
        assert!(refused("a", &["admin:read"], None, false).contains("admin"));
        assert!(NewToken::parse("a", &scopes(&["admin:read"]), None, true, now).is_ok());
        let past = (now - Duration::minutes(1)).to_rfc3339();
        assert!(refused("a", &["profile:read"], Some(&past), false).contains("future"));
        assert!(refused("a", &["profile:read"], Some("tomorrow"), false).contains("RFC 3339"));
    }

    #[test]
    fn a_secret_has_its_prefix_a_fixed_shape_and_a_hash_of_its_own() {
        let one = Secret::generate();
        let two = Secret::generate();
        assert!(one.expose().starts_with("cst_"));
        assert_eq!(one.prefix().len(), 8);
        assert!(Secret::parse(one.expose()).is_some());
        assert!(Secret::parse("cst_short").is_none());
        assert!(Secret::parse(&one.expose().replace("cst_", "cs_x")).is_none());
        assert_ne!(one.hash(), two.hash());
        assert!(!format!("{one:?}").contains(&one.expose()[8..]));
    }

    #[test]
    fn last_use_moves_at_most_once_a_minute() {
        let now = Utc::now();
        assert!(due_for_touch(None, now));
        assert!(!due_for_touch(Some(now - Duration::seconds(30)), now));
        assert!(due_for_touch(Some(now - Duration::seconds(61)), now));
    }
}
