//! `/webhooks/{webhook_id}/deliveries`: a webhook's delivery log (each event sent to it, with
//! every attempt's status code, latency and error), paged newest first, and the replay of one.

use axum::{
    extract::{FromRequestParts, State},
    http::{StatusCode, request::Parts},
    response::Response,
};
use proto::identity::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{PathId, Session},
    pages::Paging,
    state::AppState,
};

/// One event sent (or to send) to a webhook.
#[derive(Debug, Serialize, ToSchema)]
pub struct Delivery {
    #[schema(format = Uuid)]
    pub delivery_id: String,
    /// The event's id, sent as `webhook-id`: the same on every attempt and replay of one event.
    #[schema(format = Uuid)]
    pub event_id: String,
    #[schema(example = "booking.created")]
    pub event_type: String,
    /// pending (more attempts to come), delivered (a 2xx came back) or failed (three days of
    /// failures).
    #[schema(example = "delivered")]
    pub status: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When the next attempt is due (RFC 3339, UTC); null unless pending.
    #[schema(format = DateTime)]
    pub next_attempt_at: Option<String>,
    /// Oldest first.
    pub attempts: Vec<Attempt>,
}

/// One attempt of a delivery.
#[derive(Debug, Serialize, ToSchema)]
pub struct Attempt {
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub attempted_at: String,
    /// The receiver's status code; null when it never answered (see `error`).
    pub status_code: Option<i32>,
    pub latency_ms: i64,
    /// What went wrong; null when the receiver answered 2xx.
    pub error: Option<String>,
}

pub(crate) fn delivery(d: pb::WebhookDelivery) -> Delivery {
    Delivery {
        delivery_id: d.delivery_id,
        event_id: d.event_id,
        event_type: d.event_type,
        status: d.status,
        created_at: d.created_at,
        next_attempt_at: d.next_attempt_at,
        attempts: d
            .attempts
            .into_iter()
            .map(|a| Attempt {
                attempted_at: a.attempted_at,
                status_code: a.status_code,
                latency_ms: a.latency_ms,
                error: Some(a.error).filter(|e| !e.is_empty()),
            })
            .collect(),
    }
}

/// The two ids of `/webhooks/{webhook_id}/deliveries/{delivery_id}/…`, as text (identity-svc
/// validates them).
pub(crate) struct DeliveryPath {
    webhook_id: String,
    delivery_id: String,
}

impl<S: Send + Sync> FromRequestParts<S> for DeliveryPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<(String, String)>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path((webhook_id, delivery_id))| DeliveryPath {
                webhook_id,
                delivery_id,
            })
            .map_err(|e| ApiError::bad_request(format!("Invalid path: {}", e.body_text())))
    }
}

/// A webhook's deliveries, newest first: pages of `limit` (20 when left out) with a `Link` to the
/// next.
#[utoipa::path(get, path = "/webhooks/{webhook_id}/deliveries", tag = "webhooks",
    params(("webhook_id" = String, Path, format = Uuid, description = "The webhook"), Paging<100, 20>),
    responses((status = 200, description = "A page of the webhook's deliveries", body = [Delivery])))]
pub(crate) async fn list_deliveries(
    State(state): State<AppState>,
    session: Session,
    PathId(webhook_id): PathId,
    paging: Paging<100, 20>,
) -> Result<Response, ApiError> {
    let message = pb::ListWebhookDeliveriesRequest {
        webhook_id,
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, identity.list_webhook_deliveries, Some(&session), message).await?;
    let rows: Vec<Delivery> = reply.deliveries.into_iter().map(delivery).collect();
    Ok(paging.respond(rows, &reply.next, None))
}

/// Send a delivery's event again, at once, as a new delivery with the same event id.
#[utoipa::path(post, path = "/webhooks/{webhook_id}/deliveries/{delivery_id}/replay", tag = "webhooks",
    params(("webhook_id" = String, Path, format = Uuid, description = "The webhook"),
           ("delivery_id" = String, Path, format = Uuid, description = "The delivery to send again")),
    responses((status = 202, description = "Queued; the new delivery", body = Delivery)))]
pub(crate) async fn replay_delivery(
    State(state): State<AppState>,
    session: Session,
    path: DeliveryPath,
) -> Result<(StatusCode, axum::Json<Delivery>), ApiError> {
    let message = pb::ReplayWebhookDeliveryRequest {
        webhook_id: path.webhook_id,
        delivery_id: path.delivery_id,
    };
    let reply = call::write!(state, identity.replay_webhook_delivery, Some(&session), message).await?;
    let replayed = call::present("identity", reply.delivery)?;
    Ok((StatusCode::ACCEPTED, axum::Json(delivery(replayed))))
}
