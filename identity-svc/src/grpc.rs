//! The identity.v1 service: proto → domain → store → proto, nothing else.

use std::str::FromStr;

use proto::{
    auth::{self, Role, TokenSigner},
    identity::v1::{self as pb, identity_server::Identity},
};
use sqlx::PgPool;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    domain::{Email, FullName, Hasher, NewPassword, PasswordHash, Phone, parse_role},
    error::Error,
    store::{self, NewUser, UserRow},
};

/// The state every RPC shares.
#[derive(Clone)]
pub struct IdentityService {
    pub db: PgPool,
    pub hasher: Hasher,
    pub signer: TokenSigner,
}

/// A path or message id that must be a UUID.
pub(crate) fn parse_id(raw: &str, what: &str) -> Result<Uuid, Error> {
    Uuid::from_str(raw.trim()).map_err(|_| Error::Invalid(format!("{what} must be a UUID")))
}

impl From<UserRow> for pb::User {
    fn from(row: UserRow) -> Self {
        pb::User {
            user_id: row.user_id.to_string(),
            email: row.email,
            full_name: row.full_name,
            phone: row.phone,
            role: row.role,
            created_at: row.created_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }
    }
}

impl IdentityService {
    fn issue(&self, user: &UserRow) -> Result<String, Error> {
        let role = Role::from_str(&user.role).map_err(|e| Error::Other(e.into()))?;
        let (token, _) = self
            .signer
            .issue(user.user_id, role, user.token_version)
            .map_err(|e| Error::Other(e.into()))?;
        Ok(token)
    }

    /// Creates a user after validating every field; `allowed` is the set of roles the caller may create.
    pub(crate) async fn create_user(
        &self,
        email: &str,
        password: &str,
        full_name: &str,
        phone: Option<&str>,
        role: &str,
        allowed: &[Role],
    ) -> Result<UserRow, Error> {
        let email = Email::parse(email)?;
        let password = NewPassword::parse(password)?;
        let full_name = FullName::parse(full_name)?;
        let phone = Phone::parse(phone)?;
        let role = parse_role(role)?;
        if !allowed.contains(&role) {
            return Err(Error::Invalid(format!(
                "an account cannot be registered with the role {role}"
            )));
        }
        let hash = self.hasher.hash(password.expose()).await?;
        store::insert_user(
            &self.db,
            NewUser {
                email: email.as_str(),
                password_hash: &hash.0,
                full_name: full_name.as_str(),
                phone: phone.as_deref(),
                role: role.as_str(),
            },
        )
        .await
    }
}

#[tonic::async_trait]
impl Identity for IdentityService {
    async fn register(
        &self,
        request: Request<pb::RegisterRequest>,
    ) -> Result<Response<pb::RegisterResponse>, Status> {
        let r = request.into_inner();
        let user = self
            .create_user(
                &r.email,
                &r.password,
                &r.full_name,
                r.phone.as_deref(),
                &r.role,
                &[Role::Client, Role::Coach, Role::Gym],
            )
            .await?;
        let token = self.issue(&user)?;
        Ok(Response::new(pb::RegisterResponse {
            token,
            user: Some(user.into()),
        }))
    }

    async fn login(&self, request: Request<pb::LoginRequest>) -> Result<Response<pb::LoginResponse>, Status> {
        let r = request.into_inner();
        if r.email.trim().is_empty() || r.password.is_empty() {
            return Err(Error::Invalid("email and password are required".into()).into());
        }
        let user = store::user_by_email(&self.db, r.email.trim()).await?;
        let hash = user.as_ref().map(|u| PasswordHash(u.password_hash.clone()));
        let ok = self
            .hasher
            .verify(&r.password, hash.as_ref())
            .await
            .map_err(Error::from)?;
        let user = user
            .filter(|_| ok)
            .ok_or_else(|| Error::Unauthenticated("Incorrect email or password".into()))?;
        let token = self.issue(&user)?;
        Ok(Response::new(pb::LoginResponse {
            token,
            user: Some(user.into()),
        }))
    }

    async fn get_me(
        &self,
        request: Request<pb::GetMeRequest>,
    ) -> Result<Response<pb::GetMeResponse>, Status> {
        let caller = auth::caller(&request)?;
        let user = store::user_by_id(&self.db, caller.user_id)
            .await?
            .ok_or_else(|| Error::Unauthenticated("this account no longer exists".into()))?;
        Ok(Response::new(pb::GetMeResponse {
            user: Some(user.into()),
        }))
    }

    async fn logout(
        &self,
        request: Request<pb::LogoutRequest>,
    ) -> Result<Response<pb::LogoutResponse>, Status> {
        let caller = auth::caller(&request)?;
        let expires_at = chrono::DateTime::from_timestamp(caller.exp, 0).unwrap_or_else(chrono::Utc::now);
        store::revoke_token(&self.db, caller.jti, expires_at).await?;
        Ok(Response::new(pb::LogoutResponse {}))
    }

    async fn check_token(
        &self,
        request: Request<pb::CheckTokenRequest>,
    ) -> Result<Response<pb::CheckTokenResponse>, Status> {
        let r = request.into_inner();
        let (token_version, jti_revoked) = store::token_state(
            &self.db,
            parse_id(&r.user_id, "user_id")?,
            parse_id(&r.jti, "jti")?,
        )
        .await?;
        Ok(Response::new(pb::CheckTokenResponse {
            token_version,
            jti_revoked,
        }))
    }

    async fn get_users(
        &self,
        request: Request<pb::GetUsersRequest>,
    ) -> Result<Response<pb::GetUsersResponse>, Status> {
        let ids = request
            .into_inner()
            .user_ids
            .iter()
            .map(|id| parse_id(id, "user_ids"))
            .collect::<Result<Vec<_>, _>>()?;
        let users = store::user_summaries(&self.db, &ids)
            .await?
            .into_iter()
            .map(|(user_id, full_name, role)| pb::UserSummary {
                user_id: user_id.to_string(),
                full_name,
                role,
            })
            .collect();
        Ok(Response::new(pb::GetUsersResponse { users }))
    }

    async fn get_client_profile(
        &self,
        _request: Request<pb::GetClientProfileRequest>,
    ) -> Result<Response<pb::GetClientProfileResponse>, Status> {
        Err(Status::unimplemented("client profiles are not served yet"))
    }

    async fn create_client_profile(
        &self,
        _request: Request<pb::CreateClientProfileRequest>,
    ) -> Result<Response<pb::CreateClientProfileResponse>, Status> {
        Err(Status::unimplemented("client profiles are not served yet"))
    }

    async fn update_client_profile(
        &self,
        _request: Request<pb::UpdateClientProfileRequest>,
    ) -> Result<Response<pb::UpdateClientProfileResponse>, Status> {
        Err(Status::unimplemented("client profiles are not served yet"))
    }

    async fn list_users(
        &self,
        _request: Request<pb::ListUsersRequest>,
    ) -> Result<Response<pb::ListUsersResponse>, Status> {
        Err(Status::unimplemented("user management is not served yet"))
    }

    async fn get_user(
        &self,
        _request: Request<pb::GetUserRequest>,
    ) -> Result<Response<pb::GetUserResponse>, Status> {
        Err(Status::unimplemented("user management is not served yet"))
    }

    async fn create_user(
        &self,
        _request: Request<pb::CreateUserRequest>,
    ) -> Result<Response<pb::CreateUserResponse>, Status> {
        Err(Status::unimplemented("user management is not served yet"))
    }

    async fn update_user(
        &self,
        _request: Request<pb::UpdateUserRequest>,
    ) -> Result<Response<pb::UpdateUserResponse>, Status> {
        Err(Status::unimplemented("user management is not served yet"))
    }

    async fn delete_user(
        &self,
        _request: Request<pb::DeleteUserRequest>,
    ) -> Result<Response<pb::DeleteUserResponse>, Status> {
        Err(Status::unimplemented("user management is not served yet"))
    }

    async fn count_users(
        &self,
        _request: Request<pb::CountUsersRequest>,
    ) -> Result<Response<pb::CountUsersResponse>, Status> {
        Err(Status::unimplemented("user management is not served yet"))
    }
}
