//! `/admin/audit`: the audit trail of admin actions, newest first, a page at a time. identity-svc
//! records each action in the transaction of the change; nothing in the API edits or removes an
//! entry. The admin's name is composed from identity-svc in one batched call.

use axum::{extract::State, response::Response};
use proto::identity::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{call, error::ApiError, extract::Session, names::named, pages::Paging, state::AppState};

/// One admin action.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditEntry {
    #[schema(format = Uuid)]
    pub audit_id: String,
    /// When: RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub at: String,
    #[schema(format = Uuid)]
    pub admin_id: String,
    /// The admin's name now ("Deleted user" once deleted).
    pub admin_name: String,
    /// `user_created`, `user_updated` or `user_deleted`; `api_token_used` when an admin's API
    /// token was used (its change `used_for` says for what: `GET /api/admin/users`);
    /// `user_suspended` (issue 36: its changes `suspended_at` and `reason`).
    pub action: String,
    /// What was acted on: `user`, or `api_token` (the target is the token, named as it is named).
    pub target_type: String,
    #[schema(format = Uuid)]
    pub target_id: String,
    /// What the target was called then (a user's email).
    pub target_label: String,
    /// The `X-Request-Id` of the request that made the change.
    pub request_id: String,
    /// The fields it changed, with old and new values; a password change has neither value.
    pub changes: Vec<AuditChange>,
}

/// A field an admin action changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditChange {
    pub field: String,
    /// Null when it had none (a new user) or when it is never shown (a password).
    pub old: Option<String>,
    /// Null when it has none (a deleted user) or when it is never shown (a password).
    pub new: Option<String>,
}

/// The audit trail of admin actions on users, newest first: pages of `limit` (50 when left out)
/// with a `Link` to the next.
#[utoipa::path(get, path = "/admin/audit", tag = "admin", params(Paging<100, 50>),
    responses((status = 200, description = "A page of the audit trail", body = [AuditEntry])))]
pub(crate) async fn list_audit(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100, 50>,
) -> Result<Response, ApiError> {
    let message = pb::ListAuditEntriesRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, identity.list_audit_entries, Some(&session), message).await?;
    let entries = named(
        &state,
        Some(&session),
        reply.entries,
        |e| [e.admin_id.clone()],
        |e, names| {
            Some(AuditEntry {
                admin_name: names.or_deleted(&e.admin_id),
                audit_id: e.audit_id,
                at: e.at,
                admin_id: e.admin_id,
                action: e.action,
                target_type: e.target_type,
                target_id: e.target_id,
                target_label: e.target_label,
                request_id: e.request_id,
                changes: e
                    .changes
                    .into_iter()
                    .map(|c| AuditChange {
                        field: c.field,
                        old: c.old_value,
                        new: c.new_value,
                    })
                    .collect(),
            })
        },
    )
    .await?;
    Ok(paging.respond(entries, &reply.next, None))
}
