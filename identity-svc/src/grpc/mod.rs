//! The identity.v1 service: proto → domain → store → proto, nothing else. Changes that end
//! tokens are cached for the gateways after the commit ([`Revocations`]); changes other contexts
//! react to write their event to the outbox in the same transaction and wake the relay.

mod admin;
mod conversations;
mod notices;
mod sessions;
mod tokens;
mod webhooks;

use std::{str::FromStr, sync::Arc};

use futures::stream::BoxStream;
use platform::auth::{self, Caller, Role, TokenSigner};
use proto::identity::v1::{self as pb, identity_server::Identity};
use sqlx::PgPool;
use tokio::sync::Notify;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    audit,
    domain::{
        self, Email, FullName, Hasher, NewPassword, PasswordHash, Phone, ProfileFields, RawProfileFields,
        notice, parse_role,
    },
    error::Error,
    inbox::{self, NotificationRow, Reach},
    revocation::Revocations,
    store::{self, ListedUser, NewUser, ProfileRow, UserRow},
};

/// The fields of an account to create, as they came (validated by `create_account`).
pub(crate) struct NewAccount<'a> {
    pub email: &'a str,
    pub password: &'a str,
    pub full_name: &'a str,
    pub phone: Option<&'a str>,
    pub role: &'a str,
}

/// Who took an admin action, and in which request: what every entry of the audit trail carries.
pub(crate) struct Audit {
    admin_id: Uuid,
    request_id: String,
}

impl Audit {
    fn of<T>(admin: &Caller, request: &Request<T>) -> Audit {
        Audit {
            admin_id: admin.user_id,
            request_id: audit::request_id(request),
        }
    }

    /// The entry of `action` on `target` (the user as it was named then).
    fn entry<'a>(
        &'a self,
        action: &'a str,
        target: &'a UserRow,
        changes: Vec<store::AuditChange>,
    ) -> store::NewAudit<'a> {
        store::NewAudit {
            admin_id: self.admin_id,
            action,
            target_id: target.user_id,
            target_label: &target.email,
            request_id: &self.request_id,
            changes,
        }
    }
}

/// The most characters of a User-Agent kept with a session.
const MAX_USER_AGENT: usize = 300;
/// How many weeks of sign-ups `CountUsers` reports.
const SIGNUP_WEEKS: i32 = 12;
const NO_SUCH_USER: &str = "no user with this id exists";
/// How many users one message of `ListUsers` carries.
const USERS_PAGE: usize = 500;

/// The state every RPC shares.
#[derive(Clone)]
pub struct IdentityService {
    pub db: PgPool,
    pub hasher: Hasher,
    pub signer: TokenSigner,
    pub revocations: Revocations,
    /// Notified after a commit that wrote to the outbox.
    pub outbox_wake: Arc<Notify>,
    /// Announces new notifications live and wakes the mail sender; the app's address for links.
    pub reach: Reach,
    /// Webhook subscriptions and their deliveries (issue 37).
    pub webhooks: crate::webhooks::Webhooks,
    /// "Now" for API tokens' expiry and last use (tests move it).
    pub clock: platform::clock::SharedClock,
    /// Conversations' live channel and limits (issue 36).
    pub conversations: crate::conversations::Settings,
}

impl From<NotificationRow> for pb::Notification {
    fn from(row: NotificationRow) -> Self {
        pb::Notification {
            notification_id: row.notification_id.to_string(),
            kind: row.kind,
            title: row.title,
            body: row.body,
            link: row.link,
            created_at: inbox::rfc3339(row.created_at),
            read_at: row.read_at.map(inbox::rfc3339),
        }
    }
}

/// A path or message id that must be a UUID.
pub(crate) fn parse_id(raw: &str, what: &str) -> Result<Uuid, Error> {
    Uuid::from_str(raw.trim()).map_err(|_| Error::Invalid(format!("{what} must be a UUID")))
}

impl From<UserRow> for pb::User {
    fn from(row: UserRow) -> Self {
        ListedUser {
            user_id: row.user_id,
            email: row.email,
            full_name: row.full_name,
            phone: row.phone,
            role: row.role,
            created_at: row.created_at,
        }
        .into()
    }
}

impl From<ListedUser> for pb::User {
    fn from(row: ListedUser) -> Self {
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

impl From<ProfileRow> for pb::ClientProfile {
    fn from(row: ProfileRow) -> Self {
        pb::ClientProfile {
            user_id: row.user_id.to_string(),
            age: row.age,
            grade: row.grade,
            sport: row.sport,
            skill_level: row.skill_level,
            profile_picture_url: row.profile_picture_url,
        }
    }
}

fn role_of(user: &UserRow) -> Result<Role, Error> {
    Role::from_str(&user.role).map_err(|e| Error::Other(e.into()))
}

fn profile_fields(fields: Option<pb::ClientProfileFields>) -> Result<ProfileFields, Error> {
    let f = fields.unwrap_or_default();
    ProfileFields::parse(RawProfileFields {
        age: f.age,
        grade: f.grade.as_deref(),
        sport: f.sport.as_deref(),
        skill_level: f.skill_level.as_deref(),
        profile_picture_url: f.profile_picture_url.as_deref(),
    })
}

impl IdentityService {
    /// Rehashes a password that just verified against `old`, a hash made at other parameters
    /// than new ones get, and stores the new hash. It runs after the sign-in is answered (which
    /// does not wait for a second hash) and gives up quietly: the old hash keeps working.
    fn upgrade_hash(&self, user_id: Uuid, old: PasswordHash, password: String) {
        let (db, hasher) = (self.db.clone(), self.hasher.clone());
        tokio::spawn(async move {
            let upgraded = async {
                let new = hasher.hash(&password).await?;
                store::replace_password_hash(&db, user_id, &old.0, &new.0).await?;
                anyhow::Ok(())
            };
            if let Err(error) = upgraded.await {
                tracing::warn!(%user_id, error = format!("{error:#}"), "password hash not upgraded");
            }
        });
    }

    /// The caller, if they hold one of `roles` and their token is still in force (not logged
    /// out, same token version): a write must not ride on a token the gateway would refuse.
    async fn current_caller<T>(&self, request: &Request<T>, roles: &[Role]) -> Result<Caller, Status> {
        let caller = auth::require_role(request, roles)?;
        let ver = request
            .extensions()
            .get::<auth::Claims>()
            .map(|c| c.ver)
            .ok_or_else(|| Status::unauthenticated("please sign in to do this"))?;
        let (version, revoked) = store::token_state(&self.db, caller.user_id, caller.jti).await?;
        if revoked || version != Some(ver) {
            return Err(Error::Unauthenticated("your session has ended; please sign in again".into()).into());
        }
        Ok(caller)
    }

    /// Signs a token for `user` and records its session, named by `user_agent`.
    async fn issue(&self, user: &UserRow, user_agent: &str) -> Result<String, Error> {
        let role = role_of(user)?;
        let (token, claims) = self
            .signer
            .issue(user.user_id, role, user.token_version)
            .map_err(|e| Error::Other(e.into()))?;
        let expires_at = chrono::DateTime::from_timestamp(claims.exp, 0).unwrap_or_else(chrono::Utc::now);
        let user_agent: String = user_agent.trim().chars().take(MAX_USER_AGENT).collect();
        store::insert_session(
            &self.db,
            claims.jti,
            user.user_id,
            user.token_version,
            expires_at,
            &user_agent,
        )
        .await?;
        Ok(token)
    }

    /// Ends sessions of `caller` (each one's token stops working at once, as a logout's does).
    /// Every revocation is recorded before any is published; one that cannot be published fails
    /// the call (UNAVAILABLE), the others still go out.
    async fn end_sessions(&self, sessions: &[store::SessionRow]) -> Result<(), Error> {
        for session in sessions {
            store::revoke_token(&self.db, session.jti, session.expires_at).await?;
        }
        let mut published = Ok(());
        for session in sessions {
            let result = self
                .revocations
                .token_revoked(session.jti, session.expires_at.timestamp())
                .await;
            published = published.and(result);
        }
        published
    }

    /// Creates a user after validating every field; `allowed` is the set of roles the caller may
    /// create; `audit` (an admin's creation) is recorded in the transaction of the insert.
    pub(crate) async fn create_account(
        &self,
        account: NewAccount<'_>,
        allowed: &[Role],
        audit: Option<Audit>,
    ) -> Result<UserRow, Error> {
        let NewAccount {
            email,
            password,
            full_name,
            phone,
            role,
        } = account;
        domain::require_account_fields(email, password, full_name)?;
        let email = Email::parse(email)?;
        let password = NewPassword::parse(password, &[email.as_str(), full_name])?;
        let full_name = FullName::parse(full_name)?;
        let phone = Phone::parse(phone)?;
        let role = parse_role(role)?;
        if !allowed.contains(&role) {
            return Err(Error::Invalid(format!(
                "an account cannot be registered with the role {role}"
            )));
        }
        let hash = self.hasher.hash(password.expose()).await?;
        let mut tx = self.db.begin().await?;
        let user = store::insert_user(
            &mut *tx,
            NewUser {
                email: email.as_str(),
                password_hash: &hash.0,
                full_name: full_name.as_str(),
                phone: phone.as_deref(),
                role: role.as_str(),
            },
        )
        .await?;
        if let Some(audit) = audit {
            store::record_audit(
                &mut *tx,
                &audit.entry(audit::USER_CREATED, &user, audit::created(&user)),
            )
            .await?;
        }
        let welcome = notice::welcome(user.user_id, &user.full_name, &user.role);
        let rows = inbox::write(&mut tx, &[welcome], &self.reach.public_url).await?;
        tx.commit().await?;
        self.reach.announce(&rows).await;
        Ok(user)
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
            .create_account(
                NewAccount {
                    email: &r.email,
                    password: &r.password,
                    full_name: &r.full_name,
                    phone: r.phone.as_deref(),
                    role: &r.role,
                },
                &[Role::Client, Role::Coach, Role::Gym],
                None,
            )
            .await?;
        let token = self.issue(&user, &r.user_agent).await?;
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
        if let Some(hash) = hash.filter(|h| !h.is_current()) {
            self.upgrade_hash(user.user_id, hash, r.password);
        }
        if crate::conversations::safety::is_suspended(&self.db, user.user_id).await? {
            return Err(Error::Forbidden(crate::conversations::SUSPENDED.into()).into());
        }
        let token = self.issue(&user, &r.user_agent).await?;
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
        // The signed-in devices list shows when each was last seen: the app reads its account
        // whenever it opens.
        if let Err(error) = store::touch_session(&self.db, caller.jti).await {
            tracing::warn!(
                error = format!("{error:#}"),
                "a session's last sighting not recorded"
            );
        }
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
        self.revocations.token_revoked(caller.jti, caller.exp).await?;
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
        request: Request<pb::GetClientProfileRequest>,
    ) -> Result<Response<pb::GetClientProfileResponse>, Status> {
        auth::caller(&request)?;
        let user_id = parse_id(&request.get_ref().user_id, "user_id")?;
        let profile = store::client_profile(&self.db, user_id)
            .await?
            .ok_or_else(|| Error::NotFound("this client has no profile yet".into()))?;
        Ok(Response::new(pb::GetClientProfileResponse {
            profile: Some(profile.into()),
        }))
    }

    async fn create_client_profile(
        &self,
        request: Request<pb::CreateClientProfileRequest>,
    ) -> Result<Response<pb::CreateClientProfileResponse>, Status> {
        let caller = self.current_caller(&request, &[Role::Client]).await?;
        let fields = profile_fields(request.into_inner().fields)?;
        let profile = store::insert_client_profile(&self.db, caller.user_id, &fields).await?;
        Ok(Response::new(pb::CreateClientProfileResponse {
            profile: Some(profile.into()),
        }))
    }

    async fn update_client_profile(
        &self,
        request: Request<pb::UpdateClientProfileRequest>,
    ) -> Result<Response<pb::UpdateClientProfileResponse>, Status> {
        let caller = self.current_caller(&request, &[Role::Client]).await?;
        let fields = profile_fields(request.into_inner().fields)?;
        let profile = store::update_client_profile(&self.db, caller.user_id, &fields)
            .await?
            .ok_or_else(|| Error::NotFound("you have no profile yet; create it first".into()))?;
        Ok(Response::new(pb::UpdateClientProfileResponse {
            profile: Some(profile.into()),
        }))
    }

    type ListUsersStream = BoxStream<'static, Result<pb::ListUsersResponse, Status>>;

    async fn list_users(
        &self,
        request: Request<pb::ListUsersRequest>,
    ) -> Result<Response<Self::ListUsersStream>, Status> {
        admin::list_users(self, request).await
    }

    async fn get_user(
        &self,
        request: Request<pb::GetUserRequest>,
    ) -> Result<Response<pb::GetUserResponse>, Status> {
        admin::get_user(self, request).await
    }

    async fn create_user(
        &self,
        request: Request<pb::CreateUserRequest>,
    ) -> Result<Response<pb::CreateUserResponse>, Status> {
        admin::create_user(self, request).await
    }

    async fn update_user(
        &self,
        request: Request<pb::UpdateUserRequest>,
    ) -> Result<Response<pb::UpdateUserResponse>, Status> {
        admin::update_user(self, request).await
    }

    async fn delete_user(
        &self,
        request: Request<pb::DeleteUserRequest>,
    ) -> Result<Response<pb::DeleteUserResponse>, Status> {
        admin::delete_user(self, request).await
    }

    async fn count_users(
        &self,
        request: Request<pb::CountUsersRequest>,
    ) -> Result<Response<pb::CountUsersResponse>, Status> {
        admin::count_users(self, request).await
    }

    async fn list_audit_entries(
        &self,
        request: Request<pb::ListAuditEntriesRequest>,
    ) -> Result<Response<pb::ListAuditEntriesResponse>, Status> {
        admin::list_audit_entries(self, request).await
    }

    async fn list_sessions(
        &self,
        request: Request<pb::ListSessionsRequest>,
    ) -> Result<Response<pb::ListSessionsResponse>, Status> {
        sessions::list_sessions(self, request).await
    }

    async fn end_session(
        &self,
        request: Request<pb::EndSessionRequest>,
    ) -> Result<Response<pb::EndSessionResponse>, Status> {
        sessions::end_session(self, request).await
    }

    async fn end_other_sessions(
        &self,
        request: Request<pb::EndOtherSessionsRequest>,
    ) -> Result<Response<pb::EndOtherSessionsResponse>, Status> {
        sessions::end_other_sessions(self, request).await
    }

    async fn get_calendar_feed(
        &self,
        request: Request<pb::GetCalendarFeedRequest>,
    ) -> Result<Response<pb::GetCalendarFeedResponse>, Status> {
        sessions::get_calendar_feed(self, request).await
    }

    async fn reset_calendar_feed(
        &self,
        request: Request<pb::ResetCalendarFeedRequest>,
    ) -> Result<Response<pb::ResetCalendarFeedResponse>, Status> {
        sessions::reset_calendar_feed(self, request).await
    }

    async fn resolve_calendar_feed(
        &self,
        request: Request<pb::ResolveCalendarFeedRequest>,
    ) -> Result<Response<pb::ResolveCalendarFeedResponse>, Status> {
        sessions::resolve_calendar_feed(self, request).await
    }

    async fn list_notifications(
        &self,
        request: Request<pb::ListNotificationsRequest>,
    ) -> Result<Response<pb::ListNotificationsResponse>, Status> {
        notices::list_notifications(self, request).await
    }

    async fn count_unread_notifications(
        &self,
        request: Request<pb::CountUnreadNotificationsRequest>,
    ) -> Result<Response<pb::CountUnreadNotificationsResponse>, Status> {
        notices::count_unread_notifications(self, request).await
    }

    async fn mark_notification_read(
        &self,
        request: Request<pb::MarkNotificationReadRequest>,
    ) -> Result<Response<pb::MarkNotificationReadResponse>, Status> {
        notices::mark_notification_read(self, request).await
    }

    async fn mark_all_notifications_read(
        &self,
        request: Request<pb::MarkAllNotificationsReadRequest>,
    ) -> Result<Response<pb::MarkAllNotificationsReadResponse>, Status> {
        notices::mark_all_notifications_read(self, request).await
    }

    async fn forgot_password(
        &self,
        request: Request<pb::ForgotPasswordRequest>,
    ) -> Result<Response<pb::ForgotPasswordResponse>, Status> {
        notices::forgot_password(self, request).await
    }

    async fn reset_password(
        &self,
        request: Request<pb::ResetPasswordRequest>,
    ) -> Result<Response<pb::ResetPasswordResponse>, Status> {
        notices::reset_password(self, request).await
    }

    async fn get_notification_preferences(
        &self,
        request: Request<pb::GetNotificationPreferencesRequest>,
    ) -> Result<Response<pb::GetNotificationPreferencesResponse>, Status> {
        notices::get_notification_preferences(self, request).await
    }

    async fn update_notification_preferences(
        &self,
        request: Request<pb::UpdateNotificationPreferencesRequest>,
    ) -> Result<Response<pb::UpdateNotificationPreferencesResponse>, Status> {
        notices::update_notification_preferences(self, request).await
    }

    async fn create_api_token(
        &self,
        request: Request<pb::CreateApiTokenRequest>,
    ) -> Result<Response<pb::CreateApiTokenResponse>, Status> {
        tokens::create_api_token(self, request).await
    }

    async fn list_api_tokens(
        &self,
        request: Request<pb::ListApiTokensRequest>,
    ) -> Result<Response<pb::ListApiTokensResponse>, Status> {
        tokens::list_api_tokens(self, request).await
    }

    async fn revoke_api_token(
        &self,
        request: Request<pb::RevokeApiTokenRequest>,
    ) -> Result<Response<pb::RevokeApiTokenResponse>, Status> {
        tokens::revoke_api_token(self, request).await
    }

    async fn exchange_api_token(
        &self,
        request: Request<pb::ExchangeApiTokenRequest>,
    ) -> Result<Response<pb::ExchangeApiTokenResponse>, Status> {
        tokens::exchange_api_token(self, request).await
    }

    async fn create_webhook(
        &self,
        request: Request<pb::CreateWebhookRequest>,
    ) -> Result<Response<pb::CreateWebhookResponse>, Status> {
        webhooks::create_webhook(self, request).await
    }

    async fn list_webhooks(
        &self,
        request: Request<pb::ListWebhooksRequest>,
    ) -> Result<Response<pb::ListWebhooksResponse>, Status> {
        webhooks::list_webhooks(self, request).await
    }

    async fn update_webhook(
        &self,
        request: Request<pb::UpdateWebhookRequest>,
    ) -> Result<Response<pb::UpdateWebhookResponse>, Status> {
        webhooks::update_webhook(self, request).await
    }

    async fn delete_webhook(
        &self,
        request: Request<pb::DeleteWebhookRequest>,
    ) -> Result<Response<pb::DeleteWebhookResponse>, Status> {
        webhooks::delete_webhook(self, request).await
    }

    async fn rotate_webhook_secret(
        &self,
        request: Request<pb::RotateWebhookSecretRequest>,
    ) -> Result<Response<pb::RotateWebhookSecretResponse>, Status> {
        webhooks::rotate_webhook_secret(self, request).await
    }

    async fn list_webhook_deliveries(
        &self,
        request: Request<pb::ListWebhookDeliveriesRequest>,
    ) -> Result<Response<pb::ListWebhookDeliveriesResponse>, Status> {
        webhooks::list_webhook_deliveries(self, request).await
    }

    async fn replay_webhook_delivery(
        &self,
        request: Request<pb::ReplayWebhookDeliveryRequest>,
    ) -> Result<Response<pb::ReplayWebhookDeliveryResponse>, Status> {
        webhooks::replay_webhook_delivery(self, request).await
    }

    async fn test_webhook(
        &self,
        request: Request<pb::TestWebhookRequest>,
    ) -> Result<Response<pb::TestWebhookResponse>, Status> {
        webhooks::test_webhook(self, request).await
    }

    async fn list_conversations(
        &self,
        request: Request<pb::ListConversationsRequest>,
    ) -> Result<Response<pb::ListConversationsResponse>, Status> {
        conversations::list_conversations(self, request).await
    }

    async fn start_conversation(
        &self,
        request: Request<pb::StartConversationRequest>,
    ) -> Result<Response<pb::StartConversationResponse>, Status> {
        conversations::start_conversation(self, request).await
    }

    async fn get_conversation(
        &self,
        request: Request<pb::GetConversationRequest>,
    ) -> Result<Response<pb::GetConversationResponse>, Status> {
        conversations::get_conversation(self, request).await
    }

    async fn count_unread_messages(
        &self,
        request: Request<pb::CountUnreadMessagesRequest>,
    ) -> Result<Response<pb::CountUnreadMessagesResponse>, Status> {
        conversations::count_unread_messages(self, request).await
    }

    async fn list_messages(
        &self,
        request: Request<pb::ListMessagesRequest>,
    ) -> Result<Response<pb::ListMessagesResponse>, Status> {
        conversations::list_messages(self, request).await
    }

    async fn send_message(
        &self,
        request: Request<pb::SendMessageRequest>,
    ) -> Result<Response<pb::SendMessageResponse>, Status> {
        conversations::send_message(self, request).await
    }

    async fn mark_conversation_read(
        &self,
        request: Request<pb::MarkConversationReadRequest>,
    ) -> Result<Response<pb::MarkConversationReadResponse>, Status> {
        conversations::mark_conversation_read(self, request).await
    }

    async fn block_user(
        &self,
        request: Request<pb::BlockUserRequest>,
    ) -> Result<Response<pb::BlockUserResponse>, Status> {
        conversations::block_user(self, request).await
    }

    async fn unblock_user(
        &self,
        request: Request<pb::UnblockUserRequest>,
    ) -> Result<Response<pb::UnblockUserResponse>, Status> {
        conversations::unblock_user(self, request).await
    }

    async fn report_message(
        &self,
        request: Request<pb::ReportMessageRequest>,
    ) -> Result<Response<pb::ReportMessageResponse>, Status> {
        conversations::report_message(self, request).await
    }

    async fn list_message_reports(
        &self,
        request: Request<pb::ListMessageReportsRequest>,
    ) -> Result<Response<pb::ListMessageReportsResponse>, Status> {
        conversations::list_message_reports(self, request).await
    }

    async fn suspend_user(
        &self,
        request: Request<pb::SuspendUserRequest>,
    ) -> Result<Response<pb::SuspendUserResponse>, Status> {
        conversations::suspend_user(self, request).await
    }
}
