//! `/auth`: register, login, me and logout.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{ClientIp, Json, Session},
    state::AppState,
};

/// A user as the API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct User {
    #[schema(format = Uuid)]
    pub user_id: String,
    pub email: String,
    pub full_name: String,
    pub phone: Option<String>,
    /// admin, coach, client or gym.
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
pub struct RegisterBody {
    pub email: String,
    pub password: String,
    pub full_name: String,
    #[serde(default)]
    pub phone: Option<String>,
    /// client (default), coach or gym.
    #[serde(default)]
    pub role: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginBody {
    pub email: String,
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuthResponse {
    pub token: String,
    pub user: User,
}

/// Counts a login or registration attempt against the client's address and the email.
async fn limit(state: &AppState, ip: &str, email: &str) -> Result<(), ApiError> {
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

/// Create a client, coach or gym account and sign in.
#[utoipa::path(post, path = "/auth/register", tag = "auth", request_body = RegisterBody,
    responses((status = 201, description = "Account created", body = AuthResponse)))]
pub(crate) async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Json(body): Json<RegisterBody>,
) -> Result<impl IntoResponse, ApiError> {
    limit(&state, &ip, &body.email).await?;
    let message = pb::RegisterRequest {
        email: body.email,
        password: body.password,
        full_name: body.full_name,
        phone: body.phone,
        role: body.role.unwrap_or_default(),
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
              (status = 401, description = "Incorrect email or password", body = crate::error::ErrorBody)))]
pub(crate) async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Json(body): Json<LoginBody>,
) -> Result<axum::Json<AuthResponse>, ApiError> {
    limit(&state, &ip, &body.email).await?;
    let message = pb::LoginRequest {
        email: body.email,
        password: body.password,
    };
    let reply = call::write!(state, identity.login, None, message).await?;
    Ok(axum::Json(AuthResponse {
        token: reply.token,
        user: user(reply.user)?,
    }))
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
    call::write!(state, identity.logout, Some(&session), pb::LogoutRequest {}).await?;
    let ttl = (session.caller.exp - platform::auth::now_secs()).max(1) as u64;
    if let Err(down) = state.redis.revoke(&session.caller.jti.to_string(), ttl).await {
        tracing::warn!(error = %down, "logout recorded by identity-svc only; Redis unavailable");
    }
    Ok(StatusCode::NO_CONTENT)
}
