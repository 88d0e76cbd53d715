//! `/conversations` (issue 36): threads between two people who share a booking or a court request
//! (or a client and a coach they look at), kept by identity-svc. Only a thread's two people read
//! it: anyone else gets 404 on every route. Messages are in [`messages`]; each new one also
//! arrives on `GET /notifications/stream` as an event named `message`.

pub mod messages;
pub mod safety;

use axum::{extract::State, http::StatusCode, response::Response};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{Json, PathId, Session},
    pages::Paging,
    state::AppState,
};

pub use messages::{Message, Sender};

/// The other person of a thread. A deleted account reads "Deleted user", its `user_id` null.
#[derive(Debug, Serialize, ToSchema)]
pub struct OtherPerson {
    #[schema(format = Uuid)]
    pub user_id: Option<String>,
    pub full_name: String,
    /// client, coach or gym; null for a deleted account.
    pub role: Option<String>,
}

/// A booking or court request the two people share.
#[derive(Debug, Serialize, ToSchema)]
pub struct SharedRecord {
    /// `booking` or `court_request`.
    pub kind: String,
    #[schema(format = Uuid)]
    pub id: String,
    /// The place's wall clock: `YYYY-MM-DD`.
    pub date: String,
    /// `HH:MM`.
    pub start_time: String,
    /// `HH:MM`.
    pub end_time: String,
    /// Its latest status: requested, confirmed, denied, cancelled, expired, completed, no_show
    /// (bookings), requested, approved, denied, cancelled, expired (court requests).
    pub status: String,
}

/// A thread as one of its two people sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Conversation {
    #[schema(format = Uuid)]
    pub conversation_id: String,
    pub other: OtherPerson,
    pub last_message: Option<Message>,
    /// Messages to you not read yet.
    pub unread: i64,
    /// Whether you may write now (no block either way, the other account still exists).
    pub can_send: bool,
    /// `none`, `by_me` or `by_them`.
    pub blocked: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// The last message's time (the creation's before any).
    #[schema(format = DateTime)]
    pub updated_at: String,
    /// The bookings or court requests the two share, newest first, at most 20.
    pub shared: Vec<SharedRecord>,
}

/// Whom to talk with.
#[derive(Debug, Deserialize, ToSchema)]
pub struct StartConversationBody {
    #[schema(format = Uuid)]
    pub with_user_id: String,
}

/// How many messages to you are unread, over every thread.
#[derive(Debug, Serialize, ToSchema)]
pub struct UnreadMessages {
    pub unread: i64,
}

fn none_if_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

pub(crate) fn other(party: Option<pb::ConversationParty>) -> OtherPerson {
    let party = party.unwrap_or_default();
    OtherPerson {
        user_id: none_if_empty(party.user_id),
        full_name: party.full_name,
        role: none_if_empty(party.role),
    }
}

pub(crate) fn conversation(c: pb::Conversation) -> Conversation {
    Conversation {
        conversation_id: c.conversation_id,
        other: other(c.other),
        last_message: c.last_message.map(messages::message),
        unread: c.unread,
        can_send: c.can_send,
        blocked: c.blocked,
        created_at: c.created_at,
        updated_at: c.updated_at,
        shared: c
            .shared
            .into_iter()
            .map(|s| SharedRecord {
                kind: s.kind,
                id: s.id,
                date: s.date,
                start_time: s.start_time,
                end_time: s.end_time,
                status: s.status,
            })
            .collect(),
    }
}

/// Your conversations, newest activity first, with the other person, the last message and the
/// unread count: 30 a page unless `limit` says otherwise (at most 100), the next in `Link`.
#[utoipa::path(get, path = "/conversations", tag = "conversations", params(Paging<100, 30>),
    responses((status = 200, description = "A page of your conversations", body = [Conversation],
        headers(("Link" = String, description = "`<…>; rel=\"next\"` while more remain")))))]
pub(crate) async fn list_conversations(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100, 30>,
) -> Result<Response, ApiError> {
    let message = pb::ListConversationsRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, identity.list_conversations, Some(&session), message).await?;
    let rows: Vec<Conversation> = reply.conversations.into_iter().map(conversation).collect();
    Ok(paging.respond(rows, &reply.next, None))
}

/// Start a conversation with someone, or get the one you have. A client may write to any coach;
/// a coach to a client who booked with them; a coach and a gym once they share a court request.
#[utoipa::path(post, path = "/conversations", tag = "conversations", request_body = StartConversationBody,
    responses((status = 201, description = "A new conversation", body = Conversation),
              (status = 200, description = "The conversation you already had", body = Conversation),
              (status = 403, description = "You may not message this person (the detail says why)", body = crate::error::ErrorBody),
              (status = 404, description = "No such person", body = crate::error::ErrorBody),
              (status = 409, description = "A block stands between you", body = crate::error::ErrorBody),
              (status = 429, description = "Too many new conversations today (NEW_CONVERSATIONS_PER_DAY)", body = crate::error::ErrorBody)))]
pub(crate) async fn start_conversation(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<StartConversationBody>,
) -> Result<(StatusCode, axum::Json<Conversation>), ApiError> {
    let message = pb::StartConversationRequest {
        with_user_id: body.with_user_id,
    };
    let reply = call::write!(state, identity.start_conversation, Some(&session), message).await?;
    let status = if reply.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let found = call::present("identity", reply.conversation)?;
    Ok((status, axum::Json(conversation(found))))
}

/// One of your conversations (for a thread's header).
#[utoipa::path(get, path = "/conversations/{conversation_id}", tag = "conversations",
    params(("conversation_id" = String, Path, format = Uuid, description = "The conversation")),
    responses((status = 200, description = "The conversation", body = Conversation),
              (status = 404, description = "You have no conversation with this id", body = crate::error::ErrorBody)))]
pub(crate) async fn get_conversation(
    State(state): State<AppState>,
    session: Session,
    PathId(conversation_id): PathId,
) -> Result<axum::Json<Conversation>, ApiError> {
    let message = pb::GetConversationRequest { conversation_id };
    let reply = call::read!(state, identity.get_conversation, Some(&session), message).await?;
    Ok(axum::Json(conversation(call::present(
        "identity",
        reply.conversation,
    )?)))
}

/// How many messages to you are unread (for the navigation's badge).
#[utoipa::path(get, path = "/conversations/unread-count", tag = "conversations",
    responses((status = 200, description = "The number of unread messages", body = UnreadMessages)))]
pub(crate) async fn unread_messages(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<UnreadMessages>, ApiError> {
    let message = pb::CountUnreadMessagesRequest {};
    let reply = call::read!(state, identity.count_unread_messages, Some(&session), message).await?;
    Ok(axum::Json(UnreadMessages { unread: reply.unread }))
}
