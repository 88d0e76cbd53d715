//! The conversations' RPCs of identity.v1 (issue 36): who may call each, then the conversations
//! module. Anyone but a thread's two people is told it does not exist.

mod safety;

use std::{collections::HashMap, str::FromStr};

pub(super) use safety::{block_user, list_message_reports, report_message, suspend_user, unblock_user};

use platform::{
    auth::{Caller, Role},
    pages::Page,
};
use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::{IdentityService, parse_id};
use crate::{
    conversations::{
        self, DELETED_USER, ShownMessage, ShownSender,
        store::{self, Key, MessageRow, Person, ThreadRow},
    },
    error::Error,
    inbox::rfc3339,
};

const NO_SUCH_THREAD: &str = "You have no conversation with this id.";

/// The people of a page, by id.
struct Names(HashMap<Uuid, Person>);

impl Names {
    async fn of(service: &IdentityService, ids: &[Uuid]) -> Result<Self, Error> {
        let people = store::people(&service.db, ids).await?;
        Ok(Self(people.into_iter().map(|p| (p.user_id, p)).collect()))
    }

    fn party(&self, id: Uuid) -> pb::ConversationParty {
        match self.0.get(&id) {
            Some(p) => pb::ConversationParty {
                user_id: id.to_string(),
                full_name: p.full_name.clone(),
                role: p.role.clone(),
            },
            None => pb::ConversationParty {
                user_id: String::new(),
                full_name: DELETED_USER.to_owned(),
                role: String::new(),
            },
        }
    }

    /// `row` as `me` sees it; `read`: by its recipient (`me` when the other person sent it).
    fn shown(&self, row: &MessageRow, me: Uuid, thread: Option<&ThreadRow>) -> ShownMessage {
        let recipient_read_at = thread.and_then(|t| {
            if row.sender_id == me {
                t.other_read_at
            } else {
                t.read_at
            }
        });
        let sender = self.0.get(&row.sender_id);
        ShownMessage {
            message_id: row.message_id,
            conversation_id: row.conversation_id,
            sender: ShownSender {
                user_id: sender.map(|p| p.user_id),
                full_name: sender.map_or_else(|| DELETED_USER.to_owned(), |p| p.full_name.clone()),
            },
            body: row.body.clone(),
            created_at: rfc3339(row.created_at),
            mine: row.sender_id == me,
            read: recipient_read_at.is_some_and(|at| row.created_at <= at),
        }
    }
}

fn message(shown: ShownMessage) -> pb::ChatMessage {
    pb::ChatMessage {
        message_id: shown.message_id.to_string(),
        conversation_id: shown.conversation_id.to_string(),
        sender: Some(pb::ConversationParty {
            user_id: shown.sender.user_id.map(|id| id.to_string()).unwrap_or_default(),
            full_name: shown.sender.full_name,
            role: String::new(),
        }),
        body: shown.body,
        created_at: shown.created_at,
        mine: shown.mine,
        read: shown.read,
    }
}

/// The threads of `rows` as `me` sees them: five queries for the whole page.
async fn conversations_of(
    service: &IdentityService,
    me: Uuid,
    rows: Vec<ThreadRow>,
) -> Result<Vec<pb::Conversation>, Error> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.conversation_id).collect();
    let mut people: Vec<Uuid> = rows.iter().map(|r| r.other_id).collect();
    people.push(me);
    let names = Names::of(service, &people).await?;
    let last: HashMap<Uuid, MessageRow> = store::last_messages(&service.db, &ids)
        .await?
        .into_iter()
        .map(|m| (m.conversation_id, m))
        .collect();
    let unread: HashMap<Uuid, i64> = store::unread_counts(&service.db, me, &ids)
        .await?
        .into_iter()
        .collect();
    let others: Vec<Uuid> = rows.iter().map(|r| r.other_id).collect();
    let blocks = store::blocks(&service.db, me, &others).await?;
    let pairs: Vec<(Uuid, Uuid)> = others.iter().map(|o| conversations::pair(me, *o)).collect();
    let (a, b): (Vec<Uuid>, Vec<Uuid>) = pairs.iter().copied().unzip();
    let mut shared: HashMap<(Uuid, Uuid), Vec<pb::SharedRecord>> = HashMap::new();
    for s in store::shared(&service.db, &a, &b).await? {
        shared
            .entry((s.user_a, s.user_b))
            .or_default()
            .push(pb::SharedRecord {
                kind: s.kind,
                id: s.record_id.to_string(),
                date: s.record_date,
                start_time: s.start_time,
                end_time: s.end_time,
                status: s.status,
            });
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let blocked = if blocks.contains(&(me, row.other_id)) {
                "by_me"
            } else if blocks.contains(&(row.other_id, me)) {
                "by_them"
            } else {
                "none"
            };
            let exists = names.0.contains_key(&row.other_id);
            pb::Conversation {
                conversation_id: row.conversation_id.to_string(),
                other: Some(names.party(row.other_id)),
                last_message: last
                    .get(&row.conversation_id)
                    .map(|m| message(names.shown(m, me, Some(&row)))),
                unread: unread.get(&row.conversation_id).copied().unwrap_or(0),
                can_send: exists && blocked == "none",
                blocked: blocked.to_owned(),
                created_at: rfc3339(row.created_at),
                updated_at: rfc3339(row.updated_at),
                shared: shared
                    .remove(&conversations::pair(me, row.other_id))
                    .unwrap_or_default(),
            }
        })
        .collect())
}

async fn one(service: &IdentityService, me: Uuid, conversation_id: Uuid) -> Result<pb::Conversation, Error> {
    let row = store::thread(&service.db, me, conversation_id)
        .await?
        .ok_or_else(|| Error::NotFound(NO_SUCH_THREAD.into()))?;
    let mut shown = conversations_of(service, me, vec![row]).await?;
    shown.pop().ok_or_else(|| Error::NotFound(NO_SUCH_THREAD.into()))
}

/// The caller's thread `raw`, or NotFound (anyone's but theirs included).
async fn own_thread(service: &IdentityService, caller: &Caller, raw: &str) -> Result<ThreadRow, Error> {
    let id = Uuid::from_str(raw.trim()).map_err(|_| Error::NotFound(NO_SUCH_THREAD.into()))?;
    store::thread(&service.db, caller.user_id, id)
        .await?
        .ok_or_else(|| Error::NotFound(NO_SUCH_THREAD.into()))
}

/// The detail of a block between the caller and `other` (named), if one stands.
async fn block_between(
    service: &IdentityService,
    me: Uuid,
    other: Uuid,
    name: &str,
) -> Result<Option<String>, Error> {
    let blocks = store::blocks(&service.db, me, &[other]).await?;
    Ok(if blocks.contains(&(me, other)) {
        Some(format!("You blocked {name}. Unblock them to send a message."))
    } else if blocks.contains(&(other, me)) {
        Some(format!("{name} is not taking messages from you."))
    } else {
        None
    })
}

pub(super) async fn list_conversations(
    service: &IdentityService,
    request: Request<pb::ListConversationsRequest>,
) -> Result<Response<pb::ListConversationsResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let r = request.into_inner();
    let page = Page::<Key>::parse(r.limit, &r.after)?;
    let rows = store::threads(&service.db, caller.user_id, None, page.after, page.fetch()).await?;
    let (rows, next) = page.split(rows, |row| (row.updated_at, row.conversation_id));
    Ok(Response::new(pb::ListConversationsResponse {
        conversations: conversations_of(service, caller.user_id, rows).await?,
        next,
    }))
}

pub(super) async fn start_conversation(
    service: &IdentityService,
    request: Request<pb::StartConversationRequest>,
) -> Result<Response<pb::StartConversationResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let me = caller.user_id;
    let other = parse_id(&request.get_ref().with_user_id, "with_user_id")?;
    if other == me {
        return Err(Error::Forbidden("You cannot start a conversation with yourself.".into()).into());
    }
    if let Some(existing) = store::thread_of_pair(&service.db, me, other).await? {
        return Ok(Response::new(pb::StartConversationResponse {
            conversation: Some(one(service, me, existing).await?),
            created: false,
        }));
    }
    let person = store::people(&service.db, &[other])
        .await?
        .pop()
        .ok_or_else(|| Error::NotFound("No person with this id exists.".into()))?;
    let their_role = Role::from_str(&person.role)
        .map_err(|_| Error::Other(anyhow::anyhow!("a stored role is unknown")))?;
    let (a, b) = conversations::pair(me, other);
    let booking = store::shares(&service.db, a, b, "booking").await?;
    let court = store::shares(&service.db, a, b, "court_request").await?;
    conversations::may_start(caller.role, their_role, booking, court)?;
    if let Some(why) = block_between(service, me, other, &person.full_name).await? {
        return Err(Error::Conflict(why).into());
    }
    let now = service.clock.now();
    let per_day = i64::from(service.conversations.limits.new_conversations_per_day);
    if caller.role == Role::Client
        && store::started_since(&service.db, me, now - chrono::Duration::days(1)).await? >= per_day
    {
        return Err(Status::resource_exhausted(format!(
            "You can start at most {per_day} new conversations a day. Write in the ones you have, or try again tomorrow."
        )));
    }
    let id = Uuid::new_v4();
    let created = store::create_thread(&service.db, id, me, other, now).await?;
    let id = if created {
        id
    } else {
        store::thread_of_pair(&service.db, me, other)
            .await?
            .ok_or_else(|| Error::Unavailable("The conversation could not be started; try again.".into()))?
    };
    Ok(Response::new(pb::StartConversationResponse {
        conversation: Some(one(service, me, id).await?),
        created,
    }))
}

pub(super) async fn get_conversation(
    service: &IdentityService,
    request: Request<pb::GetConversationRequest>,
) -> Result<Response<pb::GetConversationResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let row = own_thread(service, &caller, &request.get_ref().conversation_id).await?;
    Ok(Response::new(pb::GetConversationResponse {
        conversation: Some(one(service, caller.user_id, row.conversation_id).await?),
    }))
}

pub(super) async fn count_unread_messages(
    service: &IdentityService,
    request: Request<pb::CountUnreadMessagesRequest>,
) -> Result<Response<pb::CountUnreadMessagesResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let unread = store::unread_total(&service.db, caller.user_id).await?;
    Ok(Response::new(pb::CountUnreadMessagesResponse { unread }))
}

pub(super) async fn list_messages(
    service: &IdentityService,
    request: Request<pb::ListMessagesRequest>,
) -> Result<Response<pb::ListMessagesResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let r = request.into_inner();
    let thread = own_thread(service, &caller, &r.conversation_id).await?;
    let mut page = Page::<Key>::parse(r.limit, &r.after)?;
    if page.after.is_none() && !r.before_message_id.is_empty() {
        let before = parse_id(&r.before_message_id, "before")?;
        let key = store::message_key(&service.db, thread.conversation_id, before)
            .await?
            .ok_or_else(|| Error::Invalid("`before` names no message of this conversation.".into()))?;
        page.after = Some(key);
    }
    let rows = store::messages(&service.db, thread.conversation_id, page.after, page.fetch()).await?;
    let (rows, next) = page.split(rows, |row| (row.created_at, row.message_id));
    let names = Names::of(service, &[caller.user_id, thread.other_id]).await?;
    Ok(Response::new(pb::ListMessagesResponse {
        messages: rows
            .iter()
            .map(|m| message(names.shown(m, caller.user_id, Some(&thread))))
            .collect(),
        next,
    }))
}

pub(super) async fn send_message(
    service: &IdentityService,
    request: Request<pb::SendMessageRequest>,
) -> Result<Response<pb::SendMessageResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let r = request.into_inner();
    let thread = own_thread(service, &caller, &r.conversation_id).await?;
    let body = conversations::body(&r.body)?;
    let names = Names::of(service, &[caller.user_id, thread.other_id]).await?;
    let Some(other) = names.0.get(&thread.other_id) else {
        return Err(Error::Conflict("This account was deleted; it cannot receive messages.".into()).into());
    };
    if let Some(why) = block_between(service, caller.user_id, thread.other_id, &other.full_name).await? {
        return Err(Error::Conflict(why).into());
    }
    let now = service.clock.now();
    let per_minute = i64::from(service.conversations.limits.per_minute);
    if store::sent_since(&service.db, caller.user_id, now - chrono::Duration::minutes(1)).await? >= per_minute
    {
        return Err(Status::resource_exhausted(format!(
            "You can send at most {per_minute} messages a minute. Please wait a moment and try again."
        )));
    }
    let row = MessageRow {
        message_id: Uuid::new_v4(),
        conversation_id: thread.conversation_id,
        sender_id: caller.user_id,
        body,
        created_at: now,
    };
    store::insert_message(&service.db, &row).await?;
    let mine = names.shown(&row, caller.user_id, None);
    let theirs = names.shown(&row, thread.other_id, None);
    service
        .conversations
        .live
        .announce(thread.other_id, &theirs)
        .await;
    service.conversations.live.announce(caller.user_id, &mine).await;
    Ok(Response::new(pb::SendMessageResponse {
        message: Some(message(mine)),
    }))
}

pub(super) async fn mark_conversation_read(
    service: &IdentityService,
    request: Request<pb::MarkConversationReadRequest>,
) -> Result<Response<pb::MarkConversationReadResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let thread = own_thread(service, &caller, &request.get_ref().conversation_id).await?;
    store::mark_read(
        &service.db,
        thread.conversation_id,
        caller.user_id,
        service.clock.now(),
    )
    .await?;
    Ok(Response::new(pb::MarkConversationReadResponse {}))
}
