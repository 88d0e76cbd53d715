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
/// session) and account (welcome, password and role changes).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"email_bookings": true, "email_reminders": true, "email_account": true}))]
pub struct NotificationPreferences {
    pub email_bookings: bool,
    pub email_reminders: bool,
    pub email_account: bool,
}

impl From<Option<pb::NotificationPreferences>> for NotificationPreferences {
    fn from(p: Option<pb::NotificationPreferences>) -> Self {
        let p = p.unwrap_or(pb::NotificationPreferences {
            email_bookings: true,
            email_reminders: true,
            email_account: true,
        });
        NotificationPreferences {
            email_bookings: p.email_bookings,
            email_reminders: p.email_reminders,
            email_account: p.email_account,
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
    request_body = NotificationPreferences,
    responses((status = 200, description = "The email preferences as saved", body = NotificationPreferences)))]
pub(crate) async fn update_preferences(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<NotificationPreferences>,
) -> Result<axum::Json<NotificationPreferences>, ApiError> {
    let message = pb::UpdateNotificationPreferencesRequest {
        preferences: Some(pb::NotificationPreferences {
            email_bookings: body.email_bookings,
            email_reminders: body.email_reminders,
            email_account: body.email_account,
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
