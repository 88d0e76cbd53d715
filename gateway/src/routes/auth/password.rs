//! `/auth/forgot-password` and `/auth/reset-password`: a reset link by email, and a new password
//! with its token.

use axum::{extract::State, http::StatusCode};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::limit;
use crate::{
    call,
    error::ApiError,
    extract::{ClientIp, Json},
    state::AppState,
};

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"email": "ann@example.com"}))]
pub struct ForgotPasswordBody {
    #[schema(min_length = 1, max_length = 254, pattern = "^[^\\x00]*$")]
    pub email: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"token": "Vx2V0F6n4yJ1bq9Hc0wYt3ZpR8sLmN5aQeK7uDfGhIj", "password": "Courtside-renewed-2026"}))]
pub struct ResetPasswordBody {
    /// The `token` of the emailed link.
    #[schema(min_length = 1, max_length = 200, pattern = "^[^\\x00]*$")]
    pub token: String,
    /// The new password: at least 10 characters, and not easy to guess (identity-svc refuses
    /// common, breached and trivial passwords, and ones made of the account's email or name).
    #[schema(min_length = 10, max_length = 128, pattern = "^[^\\x00]*$")]
    pub password: String,
}

/// What a password reset answers: the account's email, to sign in with the new password.
#[derive(Debug, Serialize, ToSchema)]
pub struct PasswordReset {
    pub email: String,
}

/// Counts an attempt against the client's address only (a reset token names no email).
async fn limit_address(state: &AppState, ip: &str) -> Result<(), ApiError> {
    let buckets = [(format!("ip:{ip}"), state.config.auth_rate_limit_per_minute)];
    match state.redis.hit(&buckets).await {
        Ok(Some(retry_after)) => Err(ApiError::too_many(retry_after)),
        Ok(None) => Ok(()),
        Err(down) => {
            tracing::warn!(error = %down, "rate limiting is off while Redis is unavailable");
            Ok(())
        }
    }
}

/// Ask for a password reset link by email. The answer is the same whether or not the email has an
/// account; when it has, a link valid for 30 minutes is emailed to it.
#[utoipa::path(post, path = "/auth/forgot-password", tag = "auth", request_body = ForgotPasswordBody,
    responses((status = 202, description = "If the email has an account, a reset link is on its way"),
              (status = 429, description = "Too many attempts from this address or for this email", body = crate::error::ErrorBody,
                headers(("Retry-After" = u64, description = "Seconds to wait before trying again")))))]
pub(crate) async fn forgot_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Json(body): Json<ForgotPasswordBody>,
) -> Result<StatusCode, ApiError> {
    limit(&state, &ip, &body.email).await?;
    let message = pb::ForgotPasswordRequest { email: body.email };
    call::write!(state, identity.forgot_password, None, message).await?;
    Ok(StatusCode::ACCEPTED)
}

/// Choose a new password with the token of an emailed reset link. The link works once and every
/// earlier link of the account stops working; every session of the account ends.
#[utoipa::path(post, path = "/auth/reset-password", tag = "auth", request_body = ResetPasswordBody,
    responses((status = 200, description = "Password changed: sign in with it", body = PasswordReset),
              (status = 400, description = "The link was used, has expired or is unknown, or the password is too short", body = crate::error::ErrorBody),
              (status = 429, description = "Too many attempts from this address", body = crate::error::ErrorBody,
                headers(("Retry-After" = u64, description = "Seconds to wait before trying again")))))]
pub(crate) async fn reset_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Json(body): Json<ResetPasswordBody>,
) -> Result<axum::Json<PasswordReset>, ApiError> {
    limit_address(&state, &ip).await?;
    let message = pb::ResetPasswordRequest {
        token: body.token,
        password: body.password,
    };
    let reply = call::write!(state, identity.reset_password, None, message).await?;
    Ok(axum::Json(PasswordReset { email: reply.email }))
}
