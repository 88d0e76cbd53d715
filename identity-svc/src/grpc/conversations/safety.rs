//! Blocks, reports and the admin's suspension (issue 36), as RPCs of identity.v1.

use std::collections::HashMap;

use platform::{auth::Role, pages::Page};
use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::{Names, message};
use crate::{
    audit,
    conversations::{
        safety::{self, ReportRow},
        store::{self as conversations, Key, MessageRow},
    },
    error::Error,
    grpc::{Audit, IdentityService, parse_id},
    inbox::rfc3339,
    store::{self, AuditChange},
};

const NO_SUCH_PERSON: &str = "No person with this id exists.";
const NO_SUCH_MESSAGE: &str = "You have no message with this id.";

/// The other person of a block, who must exist and not be the caller.
async fn other_person(service: &IdentityService, me: Uuid, raw: &str) -> Result<Uuid, Error> {
    let other = parse_id(raw, "user_id")?;
    if other == me {
        return Err(Error::Forbidden("You cannot block yourself.".into()));
    }
    if conversations::people(&service.db, &[other]).await?.is_empty() {
        return Err(Error::NotFound(NO_SUCH_PERSON.into()));
    }
    Ok(other)
}

pub(in crate::grpc) async fn block_user(
    service: &IdentityService,
    request: Request<pb::BlockUserRequest>,
) -> Result<Response<pb::BlockUserResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let other = other_person(service, caller.user_id, &request.get_ref().user_id).await?;
    safety::block(&service.db, caller.user_id, other).await?;
    Ok(Response::new(pb::BlockUserResponse {}))
}

pub(in crate::grpc) async fn unblock_user(
    service: &IdentityService,
    request: Request<pb::UnblockUserRequest>,
) -> Result<Response<pb::UnblockUserResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let other = other_person(service, caller.user_id, &request.get_ref().user_id).await?;
    safety::unblock(&service.db, caller.user_id, other).await?;
    Ok(Response::new(pb::UnblockUserResponse {}))
}

pub(in crate::grpc) async fn report_message(
    service: &IdentityService,
    request: Request<pb::ReportMessageRequest>,
) -> Result<Response<pb::ReportMessageResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let r = request.into_inner();
    let id = parse_id(&r.message_id, "message_id").map_err(|_| Error::NotFound(NO_SUCH_MESSAGE.into()))?;
    let found = safety::message_for(&service.db, id, caller.user_id)
        .await?
        .ok_or_else(|| Error::NotFound(NO_SUCH_MESSAGE.into()))?;
    if found.sender_id == caller.user_id {
        return Err(Error::Forbidden("You cannot report your own message.".into()).into());
    }
    let reason = safety::reason(&r.reason)?;
    let report_id = safety::report(&service.db, id, caller.user_id, &reason, service.clock.now())
        .await?
        .ok_or_else(|| Error::Conflict("You have already reported this message.".into()))?;
    tracing::info!(%report_id, message_id = %id, "a message was reported");
    Ok(Response::new(pb::ReportMessageResponse {
        report_id: report_id.to_string(),
    }))
}

pub(in crate::grpc) async fn list_message_reports(
    service: &IdentityService,
    request: Request<pb::ListMessageReportsRequest>,
) -> Result<Response<pb::ListMessageReportsResponse>, Status> {
    service.current_caller(&request, &[Role::Admin]).await?;
    let r = request.into_inner();
    let page = Page::<Key>::parse(r.limit, &r.after)?;
    let rows = safety::reports(&service.db, page.after, page.fetch()).await?;
    let (rows, next) = page.split(rows, |row| (row.created_at, row.report_id));
    let ids: Vec<Uuid> = rows.iter().map(|r| r.message_id).collect();
    let mut context: HashMap<Uuid, Vec<MessageRow>> = HashMap::new();
    for around in safety::context(&service.db, &ids).await? {
        context.entry(around.about).or_default().push(around.message);
    }
    let mut people: Vec<Uuid> = rows.iter().flat_map(|r| [r.reporter_id, r.sender_id]).collect();
    people.extend(context.values().flatten().map(|m| m.sender_id));
    people.sort();
    people.dedup();
    let names = Names::of(service, &people).await?;
    let suspended = safety::suspended(&service.db, &people).await?;
    // An admin reads as no party: nothing is `mine`, and read state is not shown.
    let admin = Uuid::nil();
    let shown = |m: &MessageRow| message(names.shown(m, admin, None));
    let reports = rows
        .into_iter()
        .map(|row: ReportRow| {
            let reported = MessageRow {
                message_id: row.message_id,
                conversation_id: row.conversation_id,
                sender_id: row.sender_id,
                body: row.body,
                created_at: row.sent_at,
            };
            pb::MessageReport {
                report_id: row.report_id.to_string(),
                reason: row.reason,
                created_at: rfc3339(row.created_at),
                reporter: Some(names.party(row.reporter_id)),
                sender: Some(names.party(row.sender_id)),
                sender_suspended: suspended.contains(&row.sender_id),
                message: Some(shown(&reported)),
                context: context
                    .get(&row.message_id)
                    .map(|around| around.iter().map(shown).collect())
                    .unwrap_or_default(),
            }
        })
        .collect();
    Ok(Response::new(pb::ListMessageReportsResponse { reports, next }))
}

pub(in crate::grpc) async fn suspend_user(
    service: &IdentityService,
    request: Request<pb::SuspendUserRequest>,
) -> Result<Response<pb::SuspendUserResponse>, Status> {
    let admin = service.current_caller(&request, &[Role::Admin]).await?;
    let audit = Audit::of(&admin, &request);
    let r = request.into_inner();
    let user_id = parse_id(&r.user_id, "user_id")?;
    let reason = safety::reason(&r.reason)?;
    let mut tx = service.db.begin().await.map_err(Error::from)?;
    let user = store::lock_user(&mut tx, user_id)
        .await?
        .ok_or_else(|| Error::NotFound(NO_SUCH_PERSON.into()))?;
    if user.role == Role::Admin.as_str() {
        return Err(Error::Forbidden("An admin cannot be suspended; change their role first.".into()).into());
    }
    let (at, version, now_suspended) = safety::suspend(&mut tx, user_id, service.clock.now()).await?;
    if now_suspended {
        let changes = vec![
            AuditChange {
                field: "suspended_at".into(),
                old: None,
                new: Some(rfc3339(at)),
            },
            AuditChange {
                field: "reason".into(),
                old: None,
                new: Some(reason),
            },
        ];
        store::record_audit(&mut *tx, &audit.entry(audit::USER_SUSPENDED, &user, changes)).await?;
    }
    tx.commit().await.map_err(Error::from)?;
    service
        .revocations
        .token_version_changed(user_id, version)
        .await?;
    tracing::info!(%user_id, "user suspended");
    Ok(Response::new(pb::SuspendUserResponse {
        user_id: user_id.to_string(),
        suspended_at: rfc3339(at),
    }))
}
