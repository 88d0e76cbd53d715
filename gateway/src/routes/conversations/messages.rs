//! `/conversations/{conversation_id}/messages` and `/read` (issue 36): a thread's history, newest
//! first and paged backwards (`Link` names the older page), a new message, and read state.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    call,
    error::ApiError,
    extract::{Json, PathId, Query, Session},
    pages::Paging,
    state::AppState,
};

/// Who sent a message. A deleted account reads "Deleted user", its `user_id` null.
#[derive(Debug, Serialize, ToSchema)]
pub struct Sender {
    #[schema(format = Uuid)]
    pub user_id: Option<String>,
    pub full_name: String,
}

/// One message. `body` is plain text as it was written: never render it as HTML.
#[derive(Debug, Serialize, ToSchema)]
pub struct Message {
    #[schema(format = Uuid)]
    pub message_id: String,
    #[schema(format = Uuid)]
    pub conversation_id: String,
    pub sender: Sender,
    pub body: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// Sent by you.
    pub mine: bool,
    /// Read by its recipient (the other person for yours; you for theirs).
    pub read: bool,
}

/// A new message: plain text, 1 to 2000 characters once trimmed; it may span lines.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"body": "Can we work on my jump shot on Tuesday?"}))]
pub struct SendMessageBody {
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 1,
        max_length = 2000,
        pattern = "^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$"
    )]
    pub body: String,
}

pub(crate) fn message(m: pb::ChatMessage) -> Message {
    let sender = m.sender.unwrap_or_default();
    Message {
        message_id: m.message_id,
        conversation_id: m.conversation_id,
        sender: Sender {
            user_id: (!sender.user_id.is_empty()).then_some(sender.user_id),
            full_name: sender.full_name,
        },
        body: m.body,
        created_at: m.created_at,
        mine: m.mine,
        read: m.read,
    }
}

/// What a page of messages may start before.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Before {
    /// A message of the conversation: the page holds the messages older than it (the `Link`
    /// header's `cursor` does the same for the page after this one).
    #[param(format = Uuid)]
    pub before: Option<String>,
}

/// A conversation's messages, newest first: 50 a page unless `limit` says otherwise (at most 100);
/// the older page is in the `Link` header, or asked with `before` (a message id).
#[utoipa::path(get, path = "/conversations/{conversation_id}/messages", tag = "conversations",
    params(("conversation_id" = String, Path, format = Uuid, description = "The conversation"), Paging<100, 50>, Before),
    responses((status = 200, description = "A page of messages, newest first", body = [Message],
        headers(("Link" = String, description = "`<…>; rel=\"next\"`: the older page, while one remains"))),
              (status = 404, description = "You have no conversation with this id", body = crate::error::ErrorBody)))]
pub(crate) async fn list_messages(
    State(state): State<AppState>,
    session: Session,
    PathId(conversation_id): PathId,
    paging: Paging<100, 50>,
    Query(Before { before }): Query<Before>,
) -> Result<Response, ApiError> {
    let message = pb::ListMessagesRequest {
        conversation_id,
        limit: paging.limit(),
        after: paging.after(),
        before_message_id: before.unwrap_or_default(),
    };
    let reply = call::read!(state, identity.list_messages, Some(&session), message).await?;
    let rows: Vec<Message> = reply.messages.into_iter().map(self::message).collect();
    Ok(paging.respond(rows, &reply.next, None))
}

/// Send a message. It reaches the other person's open streams at once (an SSE event `message`).
#[utoipa::path(post, path = "/conversations/{conversation_id}/messages", tag = "conversations",
    params(("conversation_id" = String, Path, format = Uuid, description = "The conversation")),
    request_body = SendMessageBody,
    responses((status = 201, description = "Sent", body = Message),
              (status = 400, description = "An empty or too long message", body = crate::error::ErrorBody),
              (status = 404, description = "You have no conversation with this id", body = crate::error::ErrorBody),
              (status = 409, description = "A block stands between you, or the other account was deleted", body = crate::error::ErrorBody),
              (status = 429, description = "Too many messages this minute (MESSAGES_PER_MINUTE)", body = crate::error::ErrorBody,
                  headers(("Retry-After" = u64, description = "Seconds to wait")))))]
pub(crate) async fn send_message(
    State(state): State<AppState>,
    session: Session,
    PathId(conversation_id): PathId,
    Json(body): Json<SendMessageBody>,
) -> Result<(StatusCode, axum::Json<Message>), ApiError> {
    let request = pb::SendMessageRequest {
        conversation_id,
        body: body.body,
    };
    let reply = call::write!(state, identity.send_message, Some(&session), request)
        .await
        .map_err(|mut e| {
            if e.status == StatusCode::TOO_MANY_REQUESTS {
                e.retry_after = Some(60);
            }
            e
        })?;
    Ok((
        StatusCode::CREATED,
        axum::Json(message(call::present("identity", reply.message)?)),
    ))
}

/// Mark everything in the conversation up to now read by you.
#[utoipa::path(post, path = "/conversations/{conversation_id}/read", tag = "conversations",
    params(("conversation_id" = String, Path, format = Uuid, description = "The conversation")),
    responses((status = 204, description = "Read"),
              (status = 404, description = "You have no conversation with this id", body = crate::error::ErrorBody)))]
pub(crate) async fn mark_read(
    State(state): State<AppState>,
    session: Session,
    PathId(conversation_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::MarkConversationReadRequest { conversation_id };
    call::write!(state, identity.mark_conversation_read, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}
