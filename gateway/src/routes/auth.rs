//! `/auth`: register, login, me and logout; a forgotten password ([`password`]).

pub mod password;

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{ClientIp, Json, Session},
    state::AppState,
    vocabulary::{Role, SignUpRole},
};

/// A user as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct User {
    #[schema(format = Uuid)]
    pub user_id: String,
    pub email: String,
    pub full_name: String,
    pub phone: Option<String>,
    #[schema(value_type = Role)]
    pub role: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
}

impl From<pb::User> for User {
    fn from(u: pb::User) -> Self {
        Self {
            user_id: u.user_id,
            email: u.email,
            full_name: u.full_name,
            phone: u.phone,
            role: u.role,
            created_at: u.created_at,
        }
    }
}

/// A user from a service reply that must carry one.
pub fn user(user: Option<pb::User>) -> Result<User, ApiError> {
    user.map(User::from)
        .ok_or_else(|| ApiError::internal("identity reply without a user"))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"email": "ann@example.com", "password": "Courtside-fixture-2026", "full_name": "Ann Lee",
                          "phone": "555-0101", "role": "client"}))]
pub struct RegisterBody {
    #[schema(
        min_length = 1,
        max_length = 254,
        pattern = "^[^@\\s\\x00-\\x1f\\x7f-\\x9f]+@[^@\\s.\\x00-\\x1f\\x7f-\\x9f][^@\\s\\x00-\\x1f\\x7f-\\x9f]*\\.[^@\\s\\x00-\\x1f\\x7f-\\x9f]*[^@\\s.\\x00-\\x1f\\x7f-\\x9f]$"
    )]
    pub email: String,
    #[schema(min_length = 10, max_length = 128, pattern = "^[^\\x00]*$")]
    pub password: String,
    #[schema(min_length = 1, max_length = 100, pattern = "\\S")]
    pub full_name: String,
    /// Digits, spaces and `+-().`; blank or null for none.
    #[serde(default)]
    #[schema(
        max_length = 30,
        pattern = "^[^\\S\\x1c-\\x1f]*$|^[0-9 +().-]*[0-9][0-9 +().-]*$"
    )]
    pub phone: Option<String>,
    /// Client when absent or null.
    #[serde(default)]
    #[schema(value_type = Option<SignUpRole>)]
    pub role: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"email": "ann@example.com", "password": "Courtside-fixture-2026"}))]
pub struct LoginBody {
    #[schema(min_length = 1)]
    pub email: String,
    #[schema(min_length = 1, pattern = "^[^\\x00]*$")]
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuthResponse {
    pub token: String,
    pub user: User,
}

/// Counts a login or registration attempt against the client's address and the email.
pub(super) async fn limit(state: &AppState, ip: &str, email: &str) -> Result<(), ApiError> {
    let buckets = [
        (format!("ip:{ip}"), state.config.auth_rate_limit_per_minute),
        (
            format!("email:{}", email.trim().to_lowercase()),
            state.config.auth_rate_limit_per_email_per_minute,
        ),
    ];
    match state.redis.hit(&buckets).await {
        Ok(Some(retry_after)) => Err(ApiError::too_many(retry_after)),
        Ok(None) => Ok(()),
        Err(down) => {
            tracing::warn!(error = %down, "rate limiting is off while Redis is unavailable");
            Ok(())
        }
    }
}

/// The User-Agent a sign-in came with, kept with its session ("" when none or not text).
fn user_agent(headers: &axum::http::HeaderMap) -> String {
    headers
        .get(axum::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// Create a client, coach or gym account and sign in.
#[utoipa::path(post, path = "/auth/register", tag = "auth", request_body = RegisterBody,
    responses((status = 201, description = "Account created", body = AuthResponse),
              (status = 409, description = "An account with this email exists already", body = crate::error::ErrorBody),
              (status = 429, description = "Too many attempts from this address or for this email", body = crate::error::ErrorBody,
                headers(("Retry-After" = u64, description = "Seconds to wait before trying again")))))]
pub(crate) async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    Json(body): Json<RegisterBody>,
) -> Result<impl IntoResponse, ApiError> {
    limit(&state, &ip, &body.email).await?;
    let message = pb::RegisterRequest {
        email: body.email,
        password: body.password,
        full_name: body.full_name,
        phone: body.phone,
        role: body.role.unwrap_or_default(),
        user_agent: user_agent(&headers),
    };
    let reply = call::write!(state, identity.register, None, message).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(AuthResponse {
            token: reply.token,
            user: user(reply.user)?,
        }),
    ))
}

/// Sign in with email and password.
#[utoipa::path(post, path = "/auth/login", tag = "auth", request_body = LoginBody,
    responses((status = 200, description = "Signed in", body = AuthResponse),
              (status = 429, description = "Too many attempts from this address, or too many failed ones for this email from it", body = crate::error::ErrorBody,
                headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
              (status = 401, description = "Incorrect email or password", body = crate::error::ErrorBody)))]
pub(crate) async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    Json(body): Json<LoginBody>,
) -> Result<axum::Json<AuthResponse>, ApiError> {
    let failures = failures_bucket(&ip, &body.email);
    let counted = limit_sign_in(&state, &ip, &failures).await?;
    let message = pb::LoginRequest {
        email: body.email,
        password: body.password,
        user_agent: user_agent(&headers),
    };
    let reply = call::write!(state, identity.login, None, message).await;
    let failed = matches!(&reply, Err(e) if e.status == StatusCode::UNAUTHORIZED);
    if let Some(window) = counted
        && !failed
        && let Err(down) = state.redis.forgive(&failures, window).await
    {
        tracing::warn!(error = %down, "a sign-in that did not fail still counts as a failure");
    }
    let reply = reply?;
    Ok(axum::Json(AuthResponse {
        token: reply.token,
        user: user(reply.user)?,
    }))
}

/// The counter of one client address's failed sign-ins on one email: an attacker's failures on
/// someone's email hold back the attacker's address only, never the owner signing in from theirs.
fn failures_bucket(ip: &str, email: &str) -> String {
    format!("fail:{ip}:{}", email.trim().to_lowercase())
}

/// Counts a sign-in against the client's address (every attempt) and against its address and
/// email together (failures: the caller takes a sign-in that did not fail back with
/// [`RedisStore::forgive`](crate::redis_store::RedisStore::forgive)). Answers the window counted,
/// `None` when Redis is down (limits fail open).
async fn limit_sign_in(state: &AppState, ip: &str, failures: &str) -> Result<Option<u64>, ApiError> {
    let buckets = [
        (format!("ip:{ip}"), state.config.auth_rate_limit_per_minute),
        (
            failures.to_owned(),
            state.config.auth_rate_limit_per_email_per_minute,
        ),
    ];
    match state.redis.count(&buckets).await {
        Ok(counted) => match counted.retry_after {
            Some(retry_after) => Err(ApiError::too_many(retry_after)),
            None => Ok(Some(counted.window)),
        },
        Err(down) => {
            tracing::warn!(error = %down, "rate limiting is off while Redis is unavailable");
            Ok(None)
        }
    }
}

/// The signed-in user.
#[utoipa::path(get, path = "/auth/me", tag = "auth", responses((status = 200, description = "The current user", body = User)))]
pub(crate) async fn me(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<User>, ApiError> {
    let reply = call::read!(state, identity.get_me, Some(&session), pb::GetMeRequest {}).await?;
    Ok(axum::Json(user(reply.user)?))
}

/// End this session: the token stops working everywhere at once.
#[utoipa::path(post, path = "/auth/logout", tag = "auth", responses((status = 204, description = "Signed out")))]
pub(crate) async fn logout(State(state): State<AppState>, session: Session) -> Result<StatusCode, ApiError> {
    let ended = call::write!(state, identity.logout, Some(&session), pb::LogoutRequest {}).await;
    // Even when identity-svc recorded the logout but could not confirm it (a 503), this replica
    // stops letting the token through on an earlier word.
    state.redis.recent.forget(&session.caller.jti.to_string());
    ended?;
    let ttl = (session.caller.exp - platform::auth::now_secs()).max(1) as u64;
    if let Err(down) = state.redis.revoke(&session.caller.jti.to_string(), ttl).await {
        tracing::warn!(error = %down, "logout recorded by identity-svc only; Redis unavailable");
    }
    Ok(StatusCode::NO_CONTENT)
}
