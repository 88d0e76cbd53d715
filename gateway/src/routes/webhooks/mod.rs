//! `/webhooks`: a coach's, a gym's or an admin's webhook subscriptions (issue 37), kept and
//! delivered by identity-svc (`identity-svc/src/webhooks/`, whose module documentation is the
//! receiving side's: the body, the headers, how to verify the signature). The signing secret is
//! in the creation's and the rotation's answers only. Managed with a sign-in's token alone: the
//! gate refuses an API token here (routes/scopes.rs), and identity-svc refuses a JWT minted for
//! one. Another person's webhook is a 404 on every route.

pub mod deliveries;

use axum::{extract::State, http::StatusCode};
use proto::identity::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{Json, PathId, Session},
    state::AppState,
};

pub use deliveries::Delivery;

/// A webhook as it is listed: never its secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct Webhook {
    #[schema(format = Uuid)]
    pub webhook_id: String,
    /// Where deliveries are POSTed: https, to a public address.
    pub url: String,
    #[schema(example = json!(["booking.created", "booking.cancelled"]))]
    pub event_types: Vec<String>,
    pub description: String,
    pub enabled: bool,
    /// Why the platform disabled it (its deliveries failed for a day); null otherwise.
    pub disabled_reason: Option<String>,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
}

/// A new webhook and its signing secret, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedWebhook {
    #[serde(flatten)]
    pub webhook: Webhook,
    /// `whsec_` and the base64 of the key: copy it now (see the receiving side's documentation).
    pub secret: String,
}

/// A new webhook: where, which event kinds, and a note.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"url": "https://example.com/courtside", "event_types": ["booking.created"], "description": "Front desk"}))]
pub struct CreateWebhookBody {
    /// An absolute `https://` address (`http://` to loopback only where the mesh allows it).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 2000)]
    pub url: String,
    /// One or more of booking.created, booking.confirmed, booking.denied, booking.cancelled,
    /// booking.rescheduled, booking.expired, booking.completed, booking.no_show,
    /// court_request.created, court_request.approved, court_request.denied,
    /// court_request.cancelled, court_request.expired, review.posted, payment.captured,
    /// payment.refunded, payment.failed.
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 32, value_type = Vec<crate::vocabulary::WebhookEventType>)]
    pub event_types: Vec<String>,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub description: String,
}

/// A webhook's new state, whole.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"url": "https://example.com/courtside", "event_types": ["booking.created"], "description": "Front desk", "enabled": true}))]
pub struct UpdateWebhookBody {
    /// An absolute `https://` address (`http://` to loopback only where the mesh allows it).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 2000)]
    pub url: String,
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 32, value_type = Vec<crate::vocabulary::WebhookEventType>)]
    pub event_types: Vec<String>,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub description: String,
    /// Turning it on again clears the failure that turned it off.
    #[schema(required = true)]
    pub enabled: bool,
}

/// A rotated secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct RotatedSecret {
    /// The new secret, shown this once.
    pub secret: String,
    /// RFC 3339, UTC: deliveries carry a signature by the old secret too until then.
    #[schema(format = DateTime)]
    pub previous_valid_until: String,
}

fn webhook(w: pb::Webhook) -> Webhook {
    Webhook {
        webhook_id: w.webhook_id,
        url: w.url,
        event_types: w.event_types,
        description: w.description,
        enabled: w.enabled,
        disabled_reason: Some(w.disabled_reason).filter(|r| !r.is_empty()),
        created_at: w.created_at,
    }
}

/// Subscribe an HTTPS address to event kinds. The signing secret is in this answer only.
#[utoipa::path(post, path = "/webhooks", tag = "webhooks", request_body = CreateWebhookBody,
    responses((status = 201, description = "Created; `secret` signs its deliveries, shown once", body = CreatedWebhook),
              (status = 400, description = "Not https, a private, loopback or link-local address, or an unknown kind", body = crate::error::ErrorBody),
              (status = 409, description = "10 webhooks already: delete one first", body = crate::error::ErrorBody)))]
pub(crate) async fn create_webhook(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CreateWebhookBody>,
) -> Result<(StatusCode, axum::Json<CreatedWebhook>), ApiError> {
    let message = pb::CreateWebhookRequest {
        url: body.url,
        event_types: body.event_types,
        description: body.description,
    };
    let reply = call::write!(state, identity.create_webhook, Some(&session), message).await?;
    let created = call::present("identity", reply.webhook)?;
    Ok((
        StatusCode::CREATED,
        axum::Json(CreatedWebhook {
            webhook: webhook(created),
            secret: reply.secret,
        }),
    ))
}

/// The caller's webhooks, newest first.
#[utoipa::path(get, path = "/webhooks", tag = "webhooks",
    responses((status = 200, description = "The caller's webhooks", body = [Webhook])))]
pub(crate) async fn list_webhooks(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<Webhook>>, ApiError> {
    let reply = call::read!(
        state,
        identity.list_webhooks,
        Some(&session),
        pb::ListWebhooksRequest {}
    )
    .await?;
    Ok(axum::Json(reply.webhooks.into_iter().map(webhook).collect()))
}

/// Change a webhook: its address, kinds, note, and whether it is on.
#[utoipa::path(put, path = "/webhooks/{webhook_id}", tag = "webhooks", request_body = UpdateWebhookBody,
    params(("webhook_id" = String, Path, format = Uuid, description = "The webhook")),
    responses((status = 200, description = "Saved", body = Webhook),
              (status = 400, description = "As for a new webhook", body = crate::error::ErrorBody)))]
pub(crate) async fn update_webhook(
    State(state): State<AppState>,
    session: Session,
    PathId(webhook_id): PathId,
    Json(body): Json<UpdateWebhookBody>,
) -> Result<axum::Json<Webhook>, ApiError> {
    let message = pb::UpdateWebhookRequest {
        webhook_id,
        url: body.url,
        event_types: body.event_types,
        description: body.description,
        enabled: body.enabled,
    };
    let reply = call::write!(state, identity.update_webhook, Some(&session), message).await?;
    Ok(axum::Json(webhook(call::present("identity", reply.webhook)?)))
}

/// Delete a webhook: nothing more is sent to it, and its log goes with it.
#[utoipa::path(delete, path = "/webhooks/{webhook_id}", tag = "webhooks",
    params(("webhook_id" = String, Path, format = Uuid, description = "The webhook")),
    responses((status = 204, description = "Deleted")))]
pub(crate) async fn delete_webhook(
    State(state): State<AppState>,
    session: Session,
    PathId(webhook_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::DeleteWebhookRequest { webhook_id };
    call::write!(state, identity.delete_webhook, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new signing secret; the old one still signs (a second signature) for 24 hours.
#[utoipa::path(post, path = "/webhooks/{webhook_id}/rotate-secret", tag = "webhooks",
    params(("webhook_id" = String, Path, format = Uuid, description = "The webhook")),
    responses((status = 200, description = "Rotated; the new secret is shown once", body = RotatedSecret)))]
pub(crate) async fn rotate_secret(
    State(state): State<AppState>,
    session: Session,
    PathId(webhook_id): PathId,
) -> Result<axum::Json<RotatedSecret>, ApiError> {
    let message = pb::RotateWebhookSecretRequest { webhook_id };
    let reply = call::write!(state, identity.rotate_webhook_secret, Some(&session), message).await?;
    Ok(axum::Json(RotatedSecret {
        secret: reply.secret,
        previous_valid_until: reply.previous_valid_until,
    }))
}

/// Send a `webhook.test` event to this webhook alone, at once.
#[utoipa::path(post, path = "/webhooks/{webhook_id}/test", tag = "webhooks",
    params(("webhook_id" = String, Path, format = Uuid, description = "The webhook")),
    responses((status = 202, description = "Queued; its attempts appear in the log", body = Delivery)))]
pub(crate) async fn test_webhook(
    State(state): State<AppState>,
    session: Session,
    PathId(webhook_id): PathId,
) -> Result<(StatusCode, axum::Json<Delivery>), ApiError> {
    let message = pb::TestWebhookRequest { webhook_id };
    let reply = call::write!(state, identity.test_webhook, Some(&session), message).await?;
    let delivery = call::present("identity", reply.delivery)?;
    Ok((StatusCode::ACCEPTED, axum::Json(deliveries::delivery(delivery))))
}
