//! The API-token RPCs of identity.v1 (issue 37): who may call each, then the tokens module.

use chrono::{DateTime, Utc};
use platform::auth::{self, API_TOKEN_JWT_TTL_SECS, Caller, Claims, Role};
use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::{IdentityService, parse_id};
use crate::{
    audit,
    error::Error,
    store::AuditChange,
    tokens::{self, NewToken, Secret, TokenRow},
};

/// The roles that may hold API tokens.
const ROLES: [Role; 3] = [Role::Coach, Role::Gym, Role::Admin];
/// The detail for a token managed with an API token.
pub const NOT_WITH_A_TOKEN: &str = "An API token cannot manage tokens or webhooks; sign in to do this.";
const NOT_VALID: &str = "This API token is not valid. Check that it was copied whole.";
const REVOKED: &str = "This API token was revoked. Create a new one to go on.";
const EXPIRED: &str = "This API token has expired. Create a new one to go on.";
const NO_LONGER: &str = "This API token's account can no longer use API tokens.";

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

impl From<TokenRow> for pb::ApiToken {
    fn from(row: TokenRow) -> Self {
        pb::ApiToken {
            token_id: row.token_id.to_string(),
            name: row.name,
            scopes: row.scopes,
            prefix: row.prefix,
            created_at: rfc3339(row.created_at),
            expires_at: row.expires_at.map(rfc3339),
            last_used_at: row.last_used_at.map(rfc3339),
        }
    }
}

/// The caller managing tokens (or webhooks): a coach, gym or admin whose sign-in is in force,
/// never a JWT minted for an API token.
pub(super) async fn manager<T>(service: &IdentityService, request: &Request<T>) -> Result<Caller, Status> {
    let caller = service.current_caller(request, &ROLES).await?;
    if request.extensions().get::<Claims>().is_some_and(|c| c.api) {
        return Err(Status::permission_denied(NOT_WITH_A_TOKEN));
    }
    Ok(caller)
}

pub(super) async fn create_api_token(
    service: &IdentityService,
    request: Request<pb::CreateApiTokenRequest>,
) -> Result<Response<pb::CreateApiTokenResponse>, Status> {
    let caller = manager(service, &request).await?;
    let r = request.into_inner();
    let now = service.clock.now();
    let token = NewToken::parse(
        &r.name,
        &r.scopes,
        r.expires_at.as_deref(),
        caller.role == Role::Admin,
        now,
    )
    .map_err(refused)?;
    let secret = Secret::generate();
    let row = tokens::create(&service.db, caller.user_id, &token, &secret, now)
        .await?
        .map_err(refused)?;
    tracing::info!(user_id = %caller.user_id, token_id = %row.token_id, "API token created");
    Ok(Response::new(pb::CreateApiTokenResponse {
        token: Some(row.into()),
        secret: secret.expose().to_owned(),
    }))
}

pub(super) async fn list_api_tokens(
    service: &IdentityService,
    request: Request<pb::ListApiTokensRequest>,
) -> Result<Response<pb::ListApiTokensResponse>, Status> {
    let caller = manager(service, &request).await?;
    let rows = tokens::list(&service.db, caller.user_id).await?;
    Ok(Response::new(pb::ListApiTokensResponse {
        tokens: rows.into_iter().map(pb::ApiToken::from).collect(),
    }))
}

pub(super) async fn revoke_api_token(
    service: &IdentityService,
    request: Request<pb::RevokeApiTokenRequest>,
) -> Result<Response<pb::RevokeApiTokenResponse>, Status> {
    let caller = manager(service, &request).await?;
    let token_id = parse_id(&request.get_ref().token_id, "token_id")?;
    // Every JWT minted for the token lives until at most this: its revocation is kept that long.
    let jwt_exp = auth::now_secs() + API_TOKEN_JWT_TTL_SECS + 1;
    let until = DateTime::from_timestamp(jwt_exp, 0).unwrap_or_else(Utc::now);
    if !tokens::revoke(&service.db, caller.user_id, token_id, until).await? {
        return Err(Error::NotFound("you have no API token with this id".into()).into());
    }
    service.revocations.token_revoked(token_id, jwt_exp).await?;
    tracing::info!(user_id = %caller.user_id, %token_id, "API token revoked");
    Ok(Response::new(pb::RevokeApiTokenResponse {}))
}

pub(super) async fn exchange_api_token(
    service: &IdentityService,
    request: Request<pb::ExchangeApiTokenRequest>,
) -> Result<Response<pb::ExchangeApiTokenResponse>, Status> {
    let request_id = audit::request_id(&request);
    let r = request.into_inner();
    let secret = Secret::parse(r.secret.trim()).ok_or_else(|| Status::unauthenticated(NOT_VALID))?;
    let holder = tokens::holder(&service.db, &secret.hash())
        .await?
        .ok_or_else(|| Status::unauthenticated(NOT_VALID))?;
    let now = service.clock.now();
    if holder.revoked_at.is_some() {
        return Err(Status::unauthenticated(REVOKED));
    }
    if holder.expires_at.is_some_and(|at| at <= now) {
        return Err(Status::unauthenticated(EXPIRED));
    }
    let role = role_of_holder(&holder)?;
    if !ROLES.contains(&role) {
        return Err(Status::unauthenticated(NO_LONGER));
    }
    // A suspended account's tokens stop with its sessions (issue 36).
    if crate::conversations::safety::is_suspended(&service.db, holder.user_id).await? {
        return Err(Status::unauthenticated(crate::conversations::SUSPENDED));
    }
    if role == Role::Admin {
        record_use(service, &holder, &r.used_for, &request_id).await?;
    }
    if tokens::due_for_touch(holder.last_used_at, now) {
        // A missed mark of last use is no reason to refuse the call.
        if let Err(error) = tokens::touch(&service.db, holder.token_id, now).await {
            tracing::warn!(
                error = format!("{error:#}"),
                "an API token's last use not recorded"
            );
        }
    }
    let (jwt, claims) = service
        .signer
        .issue_for_api_token(holder.user_id, role, holder.token_version, holder.token_id)
        .map_err(|e| Error::Other(e.into()))?;
    Ok(Response::new(pb::ExchangeApiTokenResponse {
        token_id: holder.token_id.to_string(),
        scopes: holder.scopes,
        jwt,
        jwt_expires_at: claims.exp,
    }))
}

/// A refused token as the status the gateway answers it with.
fn refused(refused: tokens::Refused) -> Status {
    match refused {
        tokens::Refused::Invalid(why) => Status::invalid_argument(why),
        tokens::Refused::NotYours(why) => Status::permission_denied(why),
        tokens::Refused::State(why) => Status::failed_precondition(why),
    }
}

fn role_of_holder(holder: &tokens::Holder) -> Result<Role, Error> {
    holder.role.parse::<Role>().map_err(|e| Error::Other(e.into()))
}

/// An admin's token use, in the audit trail: the token (by id and name) and what it was used for.
async fn record_use(
    service: &IdentityService,
    holder: &tokens::Holder,
    used_for: &str,
    request_id: &str,
) -> Result<(), Error> {
    let used_for: String = used_for.trim().chars().take(300).collect();
    let changes = vec![AuditChange {
        field: "used_for".to_owned(),
        old: None,
        new: Some(used_for),
    }];
    let changes = serde_json::to_string(&changes).map_err(anyhow::Error::from)?;
    sqlx::query(
        "insert into identity.admin_audit
             (audit_id, admin_id, action, target_type, target_id, target_label, request_id, changes)
         values ($1, $2, $3, 'api_token', $4, $5, $6, $7::jsonb)",
    )
    .bind(Uuid::now_v7())
    .bind(holder.user_id)
    .bind(audit::API_TOKEN_USED)
    .bind(holder.token_id)
    .bind(&holder.name)
    .bind(request_id)
    .bind(changes)
    .execute(&service.db)
    .await?;
    Ok(())
}
