//! Token claims, signing (identity-svc only) and verification (every process), and the gRPC
//! interceptor that turns the `authorization` metadata into a [`Caller`].
//!
//! Tokens are EdDSA (Ed25519) JWTs. Verification pins the algorithm, requires `exp`, `nbf`, `iss`
//! and `aud`, and allows no leeway.

use std::{
    collections::HashMap,
    fmt,
    str::FromStr,
    sync::{Arc, Mutex},
};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use tonic::{Request, Status, service::Interceptor};
use uuid::Uuid;

/// The `iss` every Courtside token carries.
pub const ISSUER: &str = "courtside-identity";
/// The `aud` every Courtside token carries.
pub const AUDIENCE: &str = "courtside";
/// How long a token lives.
pub const TOKEN_TTL_SECS: i64 = 7 * 24 * 3600;

/// The four roles of SPEC.md section 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Admin,
    Coach,
    Client,
    Gym,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Admin, Role::Coach, Role::Client, Role::Gym];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Coach => "coach",
            Role::Client => "client",
            Role::Gym => "gym",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error for a role name that is not one of the four.
#[derive(Debug, thiserror::Error)]
#[error("role must be one of admin, coach, client or gym")]
pub struct UnknownRole;

impl FromStr for Role {
    type Err = UnknownRole;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "admin" => Ok(Role::Admin),
            "coach" => Ok(Role::Coach),
            "client" => Ok(Role::Client),
            "gym" => Ok(Role::Gym),
            _ => Err(UnknownRole),
        }
    }
}

/// What a Courtside token says.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: Uuid,
    pub role: Role,
    /// The user's token version when the token was issued; bumped on role or password change.
    pub ver: i64,
    /// A unique id, so one token can be revoked (logout).
    pub jti: Uuid,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub nbf: i64,
    pub exp: i64,
    /// Minted by identity-svc for an API token (issue 37): `jti` is the token's id. Such a JWT
    /// cannot manage tokens or webhooks. Absent (false) in a sign-in's token.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub api: bool,
}

/// How long a JWT minted for an API token lives: the gateway asks for a fresh one per request.
pub const API_TOKEN_JWT_TTL_SECS: i64 = 5 * 60;

/// The signed-in caller of an RPC or a route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    pub user_id: Uuid,
    pub role: Role,
    pub jti: Uuid,
    pub exp: i64,
}

impl From<&Claims> for Caller {
    fn from(c: &Claims) -> Self {
        Caller {
            user_id: c.sub,
            role: c.role,
            jti: c.jti,
            exp: c.exp,
        }
    }
}

/// Why a token was refused.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("the token has expired; please sign in again")]
    Expired,
    #[error("the token is invalid; please sign in again")]
    Invalid,
}

/// Signs tokens. Only identity-svc holds one.
#[derive(Clone)]
pub struct TokenSigner {
    key: Arc<EncodingKey>,
}

impl TokenSigner {
    /// From a PKCS#8 PEM Ed25519 private key.
    pub fn from_pem(pem: &[u8]) -> Result<Self, jsonwebtoken::errors::Error> {
        Ok(Self {
            key: Arc::new(EncodingKey::from_ed_pem(pem)?),
        })
    }

    /// Issues a token for a user, valid from now for [`TOKEN_TTL_SECS`].
    pub fn issue(
        &self,
        user_id: Uuid,
        role: Role,
        ver: i64,
    ) -> Result<(String, Claims), jsonwebtoken::errors::Error> {
        let now = now_secs();
        let claims = Claims {
            sub: user_id,
            role,
            ver,
            jti: Uuid::new_v4(),
            iss: ISSUER.to_owned(),
            aud: AUDIENCE.to_owned(),
            iat: now,
            nbf: now,
            exp: now + TOKEN_TTL_SECS,
            api: false,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::EdDSA), &claims, &self.key)?;
        Ok((token, claims))
    }

    /// A short-lived token ([`API_TOKEN_JWT_TTL_SECS`]) for the person an API token speaks for:
    /// its `jti` is the API token's id (so revoking the API token revokes every JWT minted for
    /// it) and its `api` claim is set.
    pub fn issue_for_api_token(
        &self,
        user_id: Uuid,
        role: Role,
        ver: i64,
        token_id: Uuid,
    ) -> Result<(String, Claims), jsonwebtoken::errors::Error> {
        let now = now_secs();
        let claims = Claims {
            sub: user_id,
            role,
            ver,
            jti: token_id,
            iss: ISSUER.to_owned(),
            aud: AUDIENCE.to_owned(),
            iat: now,
            nbf: now,
            exp: now + API_TOKEN_JWT_TTL_SECS,
            api: true,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::EdDSA), &claims, &self.key)?;
        Ok((token, claims))
    }
}

/// Verifies tokens with the public key. Cheap to clone; clones share one [`Verified`] memory.
#[derive(Clone)]
pub struct TokenVerifier {
    key: Arc<DecodingKey>,
    validation: Arc<Validation>,
    verified: Arc<Verified>,
}

/// How many verified tokens a process remembers before it starts again from none.
const VERIFIED_CAPACITY: usize = 4096;

/// Tokens whose signature and claims were checked, by their exact text. A client sends the same
/// token with every request, and checking its Ed25519 signature again each time (in the gateway
/// and again in the service) was most of what a cheap read cost. A remembered token is still
/// refused from the second its `exp` passes; revocation is not this memory's business (the
/// gateway checks it on every request).
#[derive(Default)]
struct Verified(Mutex<HashMap<Box<str>, Claims>>);

impl Verified {
    fn get(&self, token: &str) -> Option<Claims> {
        self.0.lock().ok()?.get(token).cloned()
    }

    fn remember(&self, token: &str, claims: &Claims) {
        if let Ok(mut verified) = self.0.lock() {
            if verified.len() >= VERIFIED_CAPACITY {
                verified.clear();
            }
            verified.insert(token.into(), claims.clone());
        }
    }
}

/// The time claims of an already verified token, at `now` (Unix seconds), with no leeway.
fn still_valid(claims: Claims, now: i64) -> Result<Claims, TokenError> {
    if claims.exp < now {
        Err(TokenError::Expired)
    } else if claims.nbf > now {
        Err(TokenError::Invalid)
    } else {
        Ok(claims)
    }
}

impl TokenVerifier {
    /// From an SPKI PEM Ed25519 public key.
    pub fn from_pem(pem: &[u8]) -> Result<Self, jsonwebtoken::errors::Error> {
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.algorithms = vec![Algorithm::EdDSA];
        validation.leeway = 0;
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "nbf", "iss", "aud", "sub"]);
        Ok(Self {
            key: Arc::new(DecodingKey::from_ed_pem(pem)?),
            validation: Arc::new(validation),
            verified: Arc::default(),
        })
    }

    /// Checks signature, algorithm, `exp`, `nbf`, `iss` and `aud` (the signature only once per
    /// token: see [`Verified`]).
    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        if let Some(claims) = self.verified.get(token) {
            return still_valid(claims, now_secs());
        }
        let claims = jsonwebtoken::decode::<Claims>(token, &self.key, &self.validation)
            .map(|d| d.claims)
            .map_err(|e| match e.kind() {
                jsonwebtoken::errors::ErrorKind::ExpiredSignature => TokenError::Expired,
                _ => TokenError::Invalid,
            })?;
        self.verified.remember(token, &claims);
        Ok(claims)
    }
}

/// A fresh Ed25519 key pair as (PKCS#8 private PEM, SPKI public PEM): dev keys and tests.
pub fn generate_keypair() -> (String, String) {
    use ed25519_dalek::pkcs8::{EncodePrivateKey, EncodePublicKey, spki::der::pem::LineEnding};
    let signing = ed25519_dalek::SigningKey::generate(&mut rand::rngs::OsRng);
    let private = signing
        .to_pkcs8_pem(LineEnding::LF)
        .expect("an Ed25519 key encodes as PKCS#8");
    let public = signing
        .verifying_key()
        .to_public_key_pem(LineEnding::LF)
        .expect("an Ed25519 public key encodes as SPKI");
    (private.to_string(), public)
}

/// Seconds since the Unix epoch.
pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default()
}

/// The bearer token of an `authorization` header value, if it is one.
pub fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// A tonic interceptor: a valid bearer token becomes a [`Caller`] in the request's extensions;
/// no token leaves the request anonymous (public RPCs); an invalid one is refused.
#[derive(Clone)]
pub struct AuthInterceptor {
    verifier: TokenVerifier,
}

impl AuthInterceptor {
    pub fn new(verifier: TokenVerifier) -> Self {
        Self { verifier }
    }
}

impl Interceptor for AuthInterceptor {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        let Some(value) = request.metadata().get("authorization") else {
            return Ok(request);
        };
        let token =
            value.to_str().ok().and_then(bearer).ok_or_else(|| {
                Status::unauthenticated("the authorization header must be 'Bearer <token>'")
            })?;
        let claims = self
            .verifier
            .verify(token)
            .map_err(|e| Status::unauthenticated(e.to_string()))?;
        request.extensions_mut().insert(Caller::from(&claims));
        request.extensions_mut().insert(claims);
        Ok(request)
    }
}

/// The signed-in caller of a request, or `Unauthenticated`.
pub fn caller<T>(request: &Request<T>) -> Result<Caller, Status> {
    request
        .extensions()
        .get::<Caller>()
        .cloned()
        .ok_or_else(|| Status::unauthenticated("please sign in to do this"))
}

/// The caller, if they hold one of `roles`; `PermissionDenied` otherwise.
pub fn require_role<T>(request: &Request<T>, roles: &[Role]) -> Result<Caller, Status> {
    let caller = caller(request)?;
    if roles.contains(&caller.role) {
        Ok(caller)
    } else {
        Err(Status::permission_denied(format!(
            "a {} account cannot do this",
            caller.role
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> (TokenSigner, TokenVerifier) {
        let (private, public) = generate_keypair();
        (
            TokenSigner::from_pem(private.as_bytes()).unwrap(),
            TokenVerifier::from_pem(public.as_bytes()).unwrap(),
        )
    }

    #[test]
    fn a_signed_token_verifies_with_its_claims() {
        let (signer, verifier) = pair();
        let id = Uuid::new_v4();
        let (token, _) = signer.issue(id, Role::Coach, 3).unwrap();
        let claims = verifier.verify(&token).unwrap();
        assert_eq!((claims.sub, claims.role, claims.ver), (id, Role::Coach, 3));
    }

    #[test]
    fn a_token_minted_for_an_api_token_says_so_and_a_sign_ins_does_not() {
        let (signer, verifier) = pair();
        let (user, token_id) = (Uuid::new_v4(), Uuid::new_v4());
        let (minted, _) = signer.issue_for_api_token(user, Role::Gym, 2, token_id).unwrap();
        let claims = verifier.verify(&minted).unwrap();
        assert!(claims.api);
        assert_eq!((claims.sub, claims.jti, claims.ver), (user, token_id, 2));
        assert!(claims.exp - claims.iat <= API_TOKEN_JWT_TTL_SECS);
        let (signed_in, _) = signer.issue(user, Role::Gym, 2).unwrap();
        assert!(!verifier.verify(&signed_in).unwrap().api);
    }

    #[test]
    fn a_token_signed_by_another_key_is_refused() {
        let (signer, _) = pair();
        let (_, verifier) = pair();
        let (token, _) = signer.issue(Uuid::new_v4(), Role::Client, 0).unwrap();
        assert!(matches!(verifier.verify(&token), Err(TokenError::Invalid)));
    }

    #[test]
    fn an_alg_none_token_is_refused() {
        let (signer, verifier) = pair();
        let (token, _) = signer.issue(Uuid::new_v4(), Role::Admin, 0).unwrap();
        let payload = token.split('.').nth(1).unwrap();
        // {"alg":"none","typ":"JWT"}
        let forged = format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{payload}.");
        assert!(verifier.verify(&forged).is_err());
    }

    /// A token signed by `signer` with `exp` of our choosing.
    fn token_expiring(signer: &TokenSigner, exp: i64) -> String {
        let (_, mut claims) = signer.issue(Uuid::new_v4(), Role::Client, 0).unwrap();
        claims.nbf = exp - 60;
        claims.iat = exp - 60;
        claims.exp = exp;
        jsonwebtoken::encode(&Header::new(Algorithm::EdDSA), &claims, &signer.key).unwrap()
    }

    #[test]
    fn a_remembered_token_is_refused_once_it_expires() {
        let (signer, verifier) = pair();
        let exp = now_secs() + 1;
        let token = token_expiring(&signer, exp);
        assert!(verifier.verify(&token).is_ok());
        assert!(
            verifier.verify(&token).is_ok(),
            "the second check comes from memory"
        );
        while now_secs() <= exp {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(matches!(verifier.verify(&token), Err(TokenError::Expired)));
    }

    #[test]
    fn remembering_one_token_never_admits_a_tampered_copy() {
        let (signer, verifier) = pair();
        let (token, _) = signer.issue(Uuid::new_v4(), Role::Client, 0).unwrap();
        assert!(verifier.verify(&token).is_ok());
        let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
        // The same signature over a payload that claims admin.
        let (_, mut claims) = signer.issue(Uuid::new_v4(), Role::Admin, 0).unwrap();
        claims.jti = Uuid::new_v4();
        let forged = jsonwebtoken::encode(&Header::new(Algorithm::EdDSA), &claims, &signer.key).unwrap();
        parts[1] = forged.split('.').nth(1).unwrap().to_owned();
        assert!(matches!(
            verifier.verify(&parts.join(".")),
            Err(TokenError::Invalid)
        ));
    }

    #[test]
    fn the_memory_is_bounded() {
        let (signer, _) = pair();
        let (_, claims) = signer.issue(Uuid::new_v4(), Role::Client, 0).unwrap();
        let verified = Verified::default();
        for n in 0..VERIFIED_CAPACITY + 10 {
            verified.remember(&format!("token-{n}"), &claims);
        }
        let remembered = verified.0.lock().unwrap().len();
        assert!(
            (1..=VERIFIED_CAPACITY).contains(&remembered),
            "{remembered} remembered"
        );
    }

    #[test]
    fn bearer_accepts_only_the_bearer_scheme() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer abc"), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer "), None);
    }
}
