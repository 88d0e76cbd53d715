//! `/notifications/preferences`: which notifications the signed-in person also gets by email,
//! kept by identity-svc.

use axum::extract::State;
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{Json, Session},
    state::AppState,
};

/// Which notifications the signed-in person also gets by email, by category (every one until
/// changed): bookings (requests, answers, cancellations, expiries), reminders (a day before a
/// session), account (welcome, password and role changes) and messages (a conversation's message
/// unread for 15 minutes, at most one email per thread an hour).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"email_bookings": true, "email_reminders": true, "email_account": true, "email_messages": true}))]
pub struct NotificationPreferences {
    pub email_bookings: bool,
    pub email_reminders: bool,
    pub email_account: bool,
    pub email_messages: bool,
}

/// The email preferences to keep: every category; `email_messages` left out keeps it as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"email_bookings": true, "email_reminders": true, "email_account": true, "email_messages": true}))]
pub struct PreferencesBody {
    pub email_bookings: bool,
    pub email_reminders: bool,
    pub email_account: bool,
    #[serde(default)]
    pub email_messages: Option<bool>,
}

impl From<Option<pb::NotificationPreferences>> for NotificationPreferences {
    fn from(p: Option<pb::NotificationPreferences>) -> Self {
        let p = p.unwrap_or(pb::NotificationPreferences {
            email_bookings: true,
            email_reminders: true,
            email_account: true,
            email_messages: Some(true),
        });
        NotificationPreferences {
            email_bookings: p.email_bookings,
            email_reminders: p.email_reminders,
            email_account: p.email_account,
            email_messages: p.email_messages.unwrap_or(true),
        }
    }
}

/// Which notifications the signed-in person also gets by email.
#[utoipa::path(get, path = "/notifications/preferences", tag = "notifications",
    responses((status = 200, description = "The email preferences", body = NotificationPreferences)))]
pub(crate) async fn get_preferences(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<NotificationPreferences>, ApiError> {
    let message = pb::GetNotificationPreferencesRequest {};
    let reply = call::read!(
        state,
        identity.get_notification_preferences,
        Some(&session),
        message
    )
    .await?;
    Ok(axum::Json(reply.preferences.into()))
}

/// Choose which notifications the signed-in person also gets by email (every category given).
#[utoipa::path(put, path = "/notifications/preferences", tag = "notifications",
    request_body = PreferencesBody,
    responses((status = 200, description = "The email preferences as saved", body = NotificationPreferences)))]
pub(crate) async fn update_preferences(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<PreferencesBody>,
) -> Result<axum::Json<NotificationPreferences>, ApiError> {
    let message = pb::UpdateNotificationPreferencesRequest {
        preferences: Some(pb::NotificationPreferences {
            email_bookings: body.email_bookings,
            email_reminders: body.email_reminders,
            email_account: body.email_account,
            email_messages: body.email_messages,
        }),
    };
    let reply = call::write!(
        state,
        identity.update_notification_preferences,
        Some(&session),
        message
    )
    .await?;
    Ok(axum::Json(reply.preferences.into()))
}
