//! The admin's RPCs of identity.v1: the users (listed, read, created, changed, deleted, counted)
//! and the audit trail of those changes.

use std::future::ready;

use futures::{
    StreamExt, TryStreamExt,
    stream::{self, BoxStream},
};
use platform::{auth::Role, events::Event, outbox::envelope, pages::Page};
use proto::identity::v1 as pb;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use crate::{
    audit,
    domain::{self, Email, FullName, RawUserChanges, Target, UserChanges, UserFilter, notice},
    error::Error,
    feeds,
    inbox::{self},
    store::{self, ListedUser},
};

use super::{Audit, IdentityService, NO_SUCH_USER, NewAccount, SIGNUP_WEEKS, USERS_PAGE, parse_id, role_of};

/// The users the filters let through, newest first. Without a limit: every one of them, in
/// messages of [`USERS_PAGE`], each sent as PostgreSQL hands its rows over; the messages wait
/// in a queue of two for the caller to take them, so however many users there are, this holds
/// a few messages at most. With a limit: one message, the page and where the next starts. The
/// count of users the filters match goes with the first message when counters know it.
pub(super) async fn list_users(
    service: &IdentityService,
    request: Request<pb::ListUsersRequest>,
) -> Result<Response<BoxStream<'static, Result<pb::ListUsersResponse, Status>>>, Status> {
    service.current_caller(&request, &[Role::Admin]).await?;
    let r = request.into_inner();
    let filter = UserFilter::parse(&r.q, &r.role)?;
    let page = Page::<store::UserKeyset>::parse(r.limit, &r.after)?;
    let total = if filter.counted() {
        Some(store::user_total(&service.db, filter.role).await?)
    } else {
        None
    };
    if page.limit.is_some() {
        let rows: Vec<ListedUser> = store::list_users(&service.db, &filter, &page)
            .try_collect()
            .await
            .map_err(Error::from)?;
        let (rows, next) = page.split(rows, |u| (u.created_at, u.user_id));
        let message = pb::ListUsersResponse {
            users: rows.into_iter().map(pb::User::from).collect(),
            next,
            total,
        };
        return Ok(Response::new(stream::once(ready(Ok(message))).boxed()));
    }
    let (pages, taken) = mpsc::channel(2);
    let db = service.db.clone();
    tokio::spawn(async move {
        let mut rows = store::list_users(&db, &filter, &page)
            .map_ok(pb::User::from)
            .try_chunks(USERS_PAGE);
        let mut total = total;
        let mut sent = false;
        while let Some(page) = rows.next().await {
            let page = page
                .map(|users| pb::ListUsersResponse {
                    users,
                    next: String::new(),
                    total: total.take(),
                })
                .map_err(|e| Status::from(Error::from(e.1)));
            let failed = page.is_err();
            sent = true;
            // The caller went away, or the list broke off: stop reading rows.
            if pages.send(page).await.is_err() || failed {
                return;
            }
        }
        if !sent {
            // Nobody matches: one empty message still says so, with the count.
            let _ = pages
                .send(Ok(pb::ListUsersResponse {
                    users: Vec::new(),
                    next: String::new(),
                    total,
                }))
                .await;
        }
    });
    Ok(Response::new(ReceiverStream::new(taken).boxed()))
}

pub(super) async fn get_user(
    service: &IdentityService,
    request: Request<pb::GetUserRequest>,
) -> Result<Response<pb::GetUserResponse>, Status> {
    service.current_caller(&request, &[Role::Admin]).await?;
    let user_id = parse_id(&request.get_ref().user_id, "user_id")?;
    let (user, profile) = store::user_with_profile(&service.db, user_id)
        .await?
        .ok_or_else(|| Error::NotFound(NO_SUCH_USER.into()))?
        .split();
    let profile = profile.filter(|_| user.role == Role::Client.as_str());
    Ok(Response::new(pb::GetUserResponse {
        user: Some(user.into()),
        profile: profile.map(Into::into),
    }))
}

pub(super) async fn create_user(
    service: &IdentityService,
    request: Request<pb::CreateUserRequest>,
) -> Result<Response<pb::CreateUserResponse>, Status> {
    let admin = service.current_caller(&request, &[Role::Admin]).await?;
    let audit = Audit::of(&admin, &request);
    let r = request.into_inner();
    let user = service
        .create_account(
            NewAccount {
                email: &r.email,
                password: &r.password,
                full_name: &r.full_name,
                phone: r.phone.as_deref(),
                role: &r.role,
            },
            &Role::ALL,
            Some(audit),
        )
        .await?;
    Ok(Response::new(pb::CreateUserResponse {
        user: Some(user.into()),
    }))
}

pub(super) async fn update_user(
    service: &IdentityService,
    request: Request<pb::UpdateUserRequest>,
) -> Result<Response<pb::UpdateUserResponse>, Status> {
    let admin = service.current_caller(&request, &[Role::Admin]).await?;
    let audit = Audit::of(&admin, &request);
    let r = request.into_inner();
    let user_id = parse_id(&r.user_id, "user_id")?;
    let changes = UserChanges::parse(RawUserChanges {
        full_name: r.full_name.as_deref(),
        email: r.email.as_deref(),
        phone: r.phone.as_deref(),
        clear_phone: r.clear_phone,
        role: r.role.as_deref(),
        password: r.password.as_deref(),
    })?;
    // Hashing is slow: done before the transaction so the user's row is locked briefly.
    let password_hash = match &changes.password {
        Some(p) => Some(service.hasher.hash(p.expose()).await.map_err(Error::from)?),
        None => None,
    };

    let mut tx = service.db.begin().await.map_err(Error::from)?;
    let current = store::lock_user(&mut tx, user_id)
        .await?
        .ok_or_else(|| Error::NotFound(NO_SUCH_USER.into()))?;
    let target = Target {
        user_id,
        role: role_of(&current)?,
        full_name: &current.full_name,
    };
    let plan = domain::plan_update(admin.user_id, &target, &changes)?;
    let user = store::update_user(
        &mut tx,
        user_id,
        store::UserUpdate {
            email: changes.email.as_ref().map(Email::as_str),
            full_name: changes.full_name.as_ref().map(FullName::as_str),
            phone: &changes.phone,
            role: changes.role.map(Role::as_str),
            password_hash: password_hash.as_ref().map(|h| h.0.as_str()),
            bump_token_version: plan.bump_token_version,
        },
    )
    .await?;
    if plan.bump_token_version {
        // A new role or password ends the calendar feed's address with the sessions.
        feeds::close(&mut *tx, user_id).await?;
    }
    let fields = audit::updated(&current, &user, changes.password.is_some());
    store::record_audit(&mut *tx, &audit.entry(audit::USER_UPDATED, &current, fields)).await?;
    for event in &plan.events {
        store::OUTBOX
            .record(&mut tx, &envelope(event.clone()))
            .await
            .map_err(Error::from)?;
    }
    let mut notices = Vec::new();
    if plan.events.iter().any(|e| matches!(e, Event::RoleChanged { .. })) {
        notices.push(notice::role_changed(user_id, &user.role));
    }
    if changes.password.is_some() {
        notices.push(notice::password_changed(user_id, &user.role));
    }
    let rows = inbox::write(&mut tx, &notices, &service.reach.public_url).await?;
    tx.commit().await.map_err(Error::from)?;
    service.reach.announce(&rows).await;

    if !plan.events.is_empty() {
        service.outbox_wake.notify_one();
    }
    // A retry of a change whose publishing failed changes nothing more, but publishes again.
    if plan.bump_token_version || changes.role.is_some() {
        service
            .revocations
            .token_version_changed(user_id, user.token_version)
            .await?;
    }
    Ok(Response::new(pb::UpdateUserResponse {
        user: Some(user.into()),
    }))
}

pub(super) async fn delete_user(
    service: &IdentityService,
    request: Request<pb::DeleteUserRequest>,
) -> Result<Response<pb::DeleteUserResponse>, Status> {
    let admin = service.current_caller(&request, &[Role::Admin]).await?;
    let audit = Audit::of(&admin, &request);
    let user_id = parse_id(&request.get_ref().user_id, "user_id")?;

    let mut tx = service.db.begin().await.map_err(Error::from)?;
    let user = store::lock_user(&mut tx, user_id)
        .await?
        .ok_or_else(|| Error::NotFound(NO_SUCH_USER.into()))?;
    let role = role_of(&user)?;
    domain::check_deletable(admin.user_id, user_id, role)?;
    store::delete_user(&mut tx, user_id).await?;
    store::record_audit(
        &mut *tx,
        &audit.entry(audit::USER_DELETED, &user, audit::deleted(&user)),
    )
    .await?;
    store::OUTBOX
        .record(&mut tx, &envelope(Event::UserDeleted { user_id, role }))
        .await
        .map_err(Error::from)?;
    tx.commit().await.map_err(Error::from)?;

    service.outbox_wake.notify_one();
    service.revocations.user_deleted(user_id).await?;
    Ok(Response::new(pb::DeleteUserResponse {}))
}

pub(super) async fn count_users(
    service: &IdentityService,
    request: Request<pb::CountUsersRequest>,
) -> Result<Response<pb::CountUsersResponse>, Status> {
    service.current_caller(&request, &[Role::Admin]).await?;
    let counts = store::user_counts(&service.db).await?;
    let weeks = store::weekly_signups(&service.db, SIGNUP_WEEKS).await?;
    Ok(Response::new(pb::CountUsersResponse {
        total_users: counts.total,
        total_coaches: counts.coaches,
        total_gyms: counts.gyms,
        total_clients: counts.clients,
        total_admins: counts.admins,
        signups_per_week: weeks
            .into_iter()
            .map(|(week_start, count)| pb::WeeklyCount {
                week_start: week_start.format("%Y-%m-%d").to_string(),
                count,
            })
            .collect(),
    }))
}

pub(super) async fn list_audit_entries(
    service: &IdentityService,
    request: Request<pb::ListAuditEntriesRequest>,
) -> Result<Response<pb::ListAuditEntriesResponse>, Status> {
    service.current_caller(&request, &[Role::Admin]).await?;
    let r = request.into_inner();
    let page = Page::parse(r.limit, &r.after)?;
    let rows = store::audit_entries(&service.db, &page).await?;
    let (rows, next) = page.split(rows, |row| (row.at, row.audit_id));
    Ok(Response::new(pb::ListAuditEntriesResponse {
        entries: rows.into_iter().map(Into::into).collect(),
        next,
    }))
}
