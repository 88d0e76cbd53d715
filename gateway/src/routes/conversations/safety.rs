//! Safety in conversations (issue 36): blocks (`/users/{user_id}/block`), reports of a message
//! (`/messages/{message_id}/report`), the admin's reports list (`/admin/reports`, each message in
//! its context) and suspension (`/admin/users/{user_id}/suspend`).

use axum::{extract::State, http::StatusCode, response::Response};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::messages::{Message, message};
use crate::{
    call,
    error::ApiError,
    extract::{Json, PathId, Session},
    pages::Paging,
    state::AppState,
};

/// Block someone: no new messages either way and no new conversation; existing ones stay readable.
#[utoipa::path(post, path = "/users/{user_id}/block", tag = "conversations",
    params(("user_id" = String, Path, format = Uuid, description = "The person to block")),
    responses((status = 204, description = "Blocked (blocking again changes nothing)"),
              (status = 403, description = "You cannot block yourself", body = crate::error::ErrorBody),
              (status = 404, description = "No such person", body = crate::error::ErrorBody)))]
pub(crate) async fn block_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::BlockUserRequest { user_id };
    call::write!(state, identity.block_user, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Unblock someone you blocked.
#[utoipa::path(delete, path = "/users/{user_id}/block", tag = "conversations",
    params(("user_id" = String, Path, format = Uuid, description = "The person to unblock")),
    responses((status = 204, description = "Unblocked (or was not blocked)"),
              (status = 403, description = "You cannot unblock yourself", body = crate::error::ErrorBody),
              (status = 404, description = "No such person", body = crate::error::ErrorBody)))]
pub(crate) async fn unblock_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::UnblockUserRequest { user_id };
    call::write!(state, identity.unblock_user, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Why a message is reported.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "Insults and threats."}))]
pub struct ReportBody {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 500)]
    pub reason: String,
}

/// A report made.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportMade {
    #[schema(format = Uuid)]
    pub report_id: String,
}

/// Report a message sent to you: the admin sees it in its context.
#[utoipa::path(post, path = "/messages/{message_id}/report", tag = "conversations",
    params(("message_id" = String, Path, format = Uuid, description = "The message")),
    request_body = ReportBody,
    responses((status = 201, description = "Reported", body = ReportMade),
              (status = 400, description = "An empty or too long reason", body = crate::error::ErrorBody),
              (status = 403, description = "Your own message", body = crate::error::ErrorBody),
              (status = 404, description = "You have no message with this id", body = crate::error::ErrorBody),
              (status = 409, description = "You already reported it", body = crate::error::ErrorBody)))]
pub(crate) async fn report_message(
    State(state): State<AppState>,
    session: Session,
    PathId(message_id): PathId,
    Json(body): Json<ReportBody>,
) -> Result<(StatusCode, axum::Json<ReportMade>), ApiError> {
    let request = pb::ReportMessageRequest {
        message_id,
        reason: body.reason,
    };
    let reply = call::write!(state, identity.report_message, Some(&session), request).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(ReportMade {
            report_id: reply.report_id,
        }),
    ))
}

/// Someone named in a report.
#[derive(Debug, Serialize, ToSchema)]
pub struct Reporter {
    #[schema(format = Uuid)]
    pub user_id: Option<String>,
    pub full_name: String,
}

/// A reported message's sender.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportedSender {
    #[schema(format = Uuid)]
    pub user_id: Option<String>,
    pub full_name: String,
    pub suspended: bool,
}

/// A report, with the message in its context.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageReport {
    #[schema(format = Uuid)]
    pub report_id: String,
    pub reason: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    pub reporter: Reporter,
    pub sender: ReportedSender,
    /// The reported message (`mine` and `read` are false: an admin is no party).
    pub message: Message,
    /// Up to 5 messages before it and 5 after, oldest first.
    pub context: Vec<Message>,
}

/// The reports of messages, newest first: 30 a page unless `limit` says otherwise (at most 100).
#[utoipa::path(get, path = "/admin/reports", tag = "conversations", params(Paging<100, 30>),
    responses((status = 200, description = "A page of reports, newest first", body = [MessageReport],
        headers(("Link" = String, description = "`<…>; rel=\"next\"` while more remain")))))]
pub(crate) async fn list_reports(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100, 30>,
) -> Result<Response, ApiError> {
    let request = pb::ListMessageReportsRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, identity.list_message_reports, Some(&session), request).await?;
    let rows: Vec<MessageReport> = reply
        .reports
        .into_iter()
        .map(|r| {
            let reporter = r.reporter.unwrap_or_default();
            let sender = r.sender.unwrap_or_default();
            MessageReport {
                report_id: r.report_id,
                reason: r.reason,
                created_at: r.created_at,
                reporter: Reporter {
                    user_id: (!reporter.user_id.is_empty()).then_some(reporter.user_id),
                    full_name: reporter.full_name,
                },
                sender: ReportedSender {
                    user_id: (!sender.user_id.is_empty()).then_some(sender.user_id),
                    full_name: sender.full_name,
                    suspended: r.sender_suspended,
                },
                message: message(r.message.unwrap_or_default()),
                context: r.context.into_iter().map(message).collect(),
            }
        })
        .collect();
    Ok(paging.respond(rows, &reply.next, None))
}

/// Why a user is suspended.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "Threats in messages, reported twice."}))]
pub struct SuspendBody {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 500)]
    pub reason: String,
}

/// A suspension.
#[derive(Debug, Serialize, ToSchema)]
pub struct Suspended {
    #[schema(format = Uuid)]
    pub user_id: String,
    #[schema(format = DateTime)]
    pub suspended_at: String,
}

/// Suspend a user: their sessions and API tokens end at once and sign-in is refused; audited.
/// Suspending again keeps the first time.
#[utoipa::path(post, path = "/admin/users/{user_id}/suspend", tag = "conversations",
    params(("user_id" = String, Path, format = Uuid, description = "The user")),
    request_body = SuspendBody,
    responses((status = 200, description = "Suspended", body = Suspended),
              (status = 400, description = "An empty or too long reason", body = crate::error::ErrorBody),
              (status = 403, description = "An admin cannot be suspended", body = crate::error::ErrorBody),
              (status = 404, description = "No such user", body = crate::error::ErrorBody)))]
pub(crate) async fn suspend_user(
    State(state): State<AppState>,
    session: Session,
    PathId(user_id): PathId,
    Json(body): Json<SuspendBody>,
) -> Result<axum::Json<Suspended>, ApiError> {
    let request = pb::SuspendUserRequest {
        user_id,
        reason: body.reason,
    };
    let reply = call::write!(state, identity.suspend_user, Some(&session), request).await?;
    Ok(axum::Json(Suspended {
        user_id: reply.user_id,
        suspended_at: reply.suspended_at,
    }))
}
