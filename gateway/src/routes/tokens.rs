//! `/tokens`: a coach's, a gym's or an admin's personal API tokens (issue 37), kept by
//! identity-svc as a hash. The secret is in the creation's answer only. Managed with a sign-in's
//! token alone: the gate refuses an API token here (routes/scopes.rs), and identity-svc refuses a
//! JWT minted for one.

use axum::{extract::State, http::StatusCode};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{Json, PathId, Session},
    state::AppState,
};

/// A token as it is listed: never its secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiToken {
    #[schema(format = Uuid)]
    pub token_id: String,
    pub name: String,
    /// What it may do: `<area>:read` for GET, `<area>:write` for any other method, in the areas
    /// bookings, availability, court_requests, profile and (admins only) admin.
    #[schema(example = json!(["bookings:read", "bookings:write"]))]
    pub scopes: Vec<String>,
    /// `cst_` and the secret's next four characters, to tell tokens apart.
    pub prefix: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// RFC 3339, UTC; null: never expires.
    #[schema(format = DateTime)]
    pub expires_at: Option<String>,
    /// RFC 3339, UTC, at most a minute behind; null: never used.
    #[schema(format = DateTime)]
    pub last_used_at: Option<String>,
}

/// A new token and its secret, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedApiToken {
    #[serde(flatten)]
    pub listed: ApiToken,
    /// The Bearer credential (`Authorization: Bearer cst_…`). Only its hash is kept: copy it now.
    pub token: String,
}

/// A new token: a name, its scopes and, if it should expire, when.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Club spreadsheet", "scopes": ["bookings:read"], "expires_at": null}))]
pub struct CreateApiTokenBody {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 80, pattern = "\\S")]
    pub name: String,
    /// One or more of bookings:read, bookings:write, availability:read, availability:write,
    /// court_requests:read, court_requests:write, profile:read, profile:write, admin:read,
    /// admin:write (the last two for admins only).
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 10, value_type = Vec<crate::vocabulary::TokenScope>)]
    pub scopes: Vec<String>,
    /// RFC 3339, in the future; null or absent: never expires.
    #[serde(default)]
    #[schema(format = DateTime)]
    pub expires_at: Option<String>,
}

fn api_token(token: pb::ApiToken) -> ApiToken {
    ApiToken {
        token_id: token.token_id,
        name: token.name,
        scopes: token.scopes,
        prefix: token.prefix,
        created_at: token.created_at,
        expires_at: token.expires_at,
        last_used_at: token.last_used_at,
    }
}

/// Create a personal API token for a script. Its secret is in this answer only.
#[utoipa::path(post, path = "/tokens", tag = "tokens", request_body = CreateApiTokenBody,
    responses((status = 201, description = "Created; `token` is the secret, shown once", body = CreatedApiToken),
              (status = 400, description = "An unknown scope or a malformed expiry", body = crate::error::ErrorBody),
              (status = 403, description = "An admin scope asked by anyone but an admin", body = crate::error::ErrorBody),
              (status = 409, description = "An expiry already past, or 20 live tokens already: revoke one first", body = crate::error::ErrorBody)))]
pub(crate) async fn create_token(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CreateApiTokenBody>,
) -> Result<(StatusCode, axum::Json<CreatedApiToken>), ApiError> {
    let message = pb::CreateApiTokenRequest {
        name: body.name,
        scopes: body.scopes,
        expires_at: body.expires_at,
    };
    let reply = call::write!(state, identity.create_api_token, Some(&session), message).await?;
    let token = call::present("identity", reply.token)?;
    Ok((
        StatusCode::CREATED,
        axum::Json(CreatedApiToken {
            listed: api_token(token),
            token: reply.secret,
        }),
    ))
}

/// The caller's API tokens (revoked ones left out), newest first, with their last use.
#[utoipa::path(get, path = "/tokens", tag = "tokens",
    responses((status = 200, description = "The caller's tokens", body = [ApiToken])))]
pub(crate) async fn list_tokens(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<ApiToken>>, ApiError> {
    let reply = call::read!(
        state,
        identity.list_api_tokens,
        Some(&session),
        pb::ListApiTokensRequest {}
    )
    .await?;
    Ok(axum::Json(reply.tokens.into_iter().map(api_token).collect()))
}

/// Revoke one of the caller's tokens: it stops working at once, on every server.
#[utoipa::path(delete, path = "/tokens/{token_id}", tag = "tokens",
    params(("token_id" = String, Path, format = Uuid, description = "The token")),
    responses((status = 204, description = "Revoked")))]
pub(crate) async fn revoke_token(
    State(state): State<AppState>,
    session: Session,
    PathId(token_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::RevokeApiTokenRequest { token_id };
    call::write!(state, identity.revoke_api_token, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}
