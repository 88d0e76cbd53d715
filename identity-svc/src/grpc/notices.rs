//! A person's notifications, email preferences and password reset, as RPCs of identity.v1.

use platform::{auth::Role, pages::Page};
use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};

use crate::{error::Error, inbox, reset};

use super::{IdentityService, parse_id};

pub(super) async fn list_notifications(
    service: &IdentityService,
    request: Request<pb::ListNotificationsRequest>,
) -> Result<Response<pb::ListNotificationsResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let r = request.into_inner();
    let page = Page::<inbox::Key>::parse(r.limit, &r.after)?;
    let rows = inbox::page(&service.db, caller.user_id, &page).await?;
    let (rows, next) = page.split(rows, |row| (row.created_at, row.notification_id));
    Ok(Response::new(pb::ListNotificationsResponse {
        notifications: rows.into_iter().map(Into::into).collect(),
        next,
    }))
}

pub(super) async fn count_unread_notifications(
    service: &IdentityService,
    request: Request<pb::CountUnreadNotificationsRequest>,
) -> Result<Response<pb::CountUnreadNotificationsResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let count = inbox::unread_count(&service.db, caller.user_id).await?;
    Ok(Response::new(pb::CountUnreadNotificationsResponse { count }))
}

pub(super) async fn mark_notification_read(
    service: &IdentityService,
    request: Request<pb::MarkNotificationReadRequest>,
) -> Result<Response<pb::MarkNotificationReadResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let id = parse_id(&request.get_ref().notification_id, "notification_id")?;
    if !inbox::mark_read(&service.db, caller.user_id, id).await? {
        return Err(Error::NotFound("you have no notification with this id".into()).into());
    }
    Ok(Response::new(pb::MarkNotificationReadResponse {}))
}

pub(super) async fn mark_all_notifications_read(
    service: &IdentityService,
    request: Request<pb::MarkAllNotificationsReadRequest>,
) -> Result<Response<pb::MarkAllNotificationsReadResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    inbox::mark_all_read(&service.db, caller.user_id).await?;
    Ok(Response::new(pb::MarkAllNotificationsReadResponse {}))
}

pub(super) async fn forgot_password(
    service: &IdentityService,
    request: Request<pb::ForgotPasswordRequest>,
) -> Result<Response<pb::ForgotPasswordResponse>, Status> {
    let email = &request.get_ref().email;
    if email.trim().is_empty() {
        return Err(Error::Invalid("email is required".into()).into());
    }
    reset::ask(&service.db, email).await?;
    service.reach.reset_wake.notify_one();
    Ok(Response::new(pb::ForgotPasswordResponse {}))
}

pub(super) async fn reset_password(
    service: &IdentityService,
    request: Request<pb::ResetPasswordRequest>,
) -> Result<Response<pb::ResetPasswordResponse>, Status> {
    let r = request.into_inner();
    // The token first: a wrong one never costs a hash.
    let owner = reset::token_owner(&service.db, &r.token).await?;
    let password = reset::check_password(&r.password, &owner)?;
    let hash = service
        .hasher
        .hash(password.expose())
        .await
        .map_err(Error::from)?;
    let (user, rows) = reset::reset(&service.db, &r.token, &hash.0, &service.reach.public_url).await?;
    service.reach.announce(&rows).await;
    service
        .revocations
        .token_version_changed(user.user_id, user.token_version)
        .await?;
    Ok(Response::new(pb::ResetPasswordResponse { email: user.email }))
}

pub(super) async fn get_notification_preferences(
    service: &IdentityService,
    request: Request<pb::GetNotificationPreferencesRequest>,
) -> Result<Response<pb::GetNotificationPreferencesResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let p = inbox::preferences(&service.db, caller.user_id).await?;
    Ok(Response::new(pb::GetNotificationPreferencesResponse {
        preferences: Some(preferences_pb(p)),
    }))
}

pub(super) async fn update_notification_preferences(
    service: &IdentityService,
    request: Request<pb::UpdateNotificationPreferencesRequest>,
) -> Result<Response<pb::UpdateNotificationPreferencesResponse>, Status> {
    let caller = service.current_caller(&request, &Role::ALL).await?;
    let p = request
        .into_inner()
        .preferences
        .ok_or_else(|| Error::Invalid("preferences are required".into()))?;
    // A client that does not know the `messages` category (issue 36) keeps it as it is.
    let email_messages = match p.email_messages {
        Some(on) => on,
        None => {
            inbox::preferences(&service.db, caller.user_id)
                .await?
                .email_messages
        }
    };
    let p = inbox::set_preferences(
        &service.db,
        caller.user_id,
        inbox::Preferences {
            email_bookings: p.email_bookings,
            email_reminders: p.email_reminders,
            email_account: p.email_account,
            email_messages,
        },
    )
    .await?;
    Ok(Response::new(pb::UpdateNotificationPreferencesResponse {
        preferences: Some(preferences_pb(p)),
    }))
}

fn preferences_pb(p: inbox::Preferences) -> pb::NotificationPreferences {
    pb::NotificationPreferences {
        email_bookings: p.email_bookings,
        email_reminders: p.email_reminders,
        email_account: p.email_account,
        email_messages: Some(p.email_messages),
    }
}
