//! The webhook RPCs of identity.v1 (issue 37): who may call each (a coach, gym or admin signed
//! in, never with an API token's JWT, for their own webhooks only), then the webhooks module.

use platform::pages::Page;
use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};

use super::{IdentityService, parse_id, tokens::manager};
use crate::{
    inbox::rfc3339,
    webhooks::{DeliveryRow, Fields, WebhookRow},
};

impl From<WebhookRow> for pb::Webhook {
    fn from(row: WebhookRow) -> Self {
        pb::Webhook {
            webhook_id: row.webhook_id.to_string(),
            url: row.url,
            event_types: row.event_types,
            description: row.description,
            enabled: row.enabled,
            disabled_reason: row.disabled_reason,
            created_at: rfc3339(row.created_at),
        }
    }
}

impl From<DeliveryRow> for pb::WebhookDelivery {
    fn from(row: DeliveryRow) -> Self {
        let attempts = row
            .attempts
            .as_array()
            .map(|attempts| {
                attempts
                    .iter()
                    .map(|a| pb::WebhookAttempt {
                        attempted_at: a["attempted_ms"]
                            .as_i64()
                            .and_then(chrono::DateTime::from_timestamp_millis)
                            .map(rfc3339)
                            .unwrap_or_default(),
                        status_code: a["status_code"].as_i64().and_then(|c| i32::try_from(c).ok()),
                        latency_ms: a["latency_ms"].as_i64().unwrap_or_default(),
                        error: a["error"].as_str().unwrap_or_default().to_owned(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        pb::WebhookDelivery {
            delivery_id: row.delivery_id.to_string(),
            event_id: row.event_id.to_string(),
            event_type: row.event_type,
            next_attempt_at: row
                .next_attempt_at
                .filter(|_| row.status == "pending")
                .map(rfc3339),
            status: row.status,
            created_at: rfc3339(row.created_at),
            attempts,
        }
    }
}

pub(super) async fn create_webhook(
    service: &IdentityService,
    request: Request<pb::CreateWebhookRequest>,
) -> Result<Response<pb::CreateWebhookResponse>, Status> {
    let caller = manager(service, &request).await?;
    let r = request.into_inner();
    let (row, secret) = service
        .webhooks
        .create(
            caller.user_id,
            Fields {
                url: &r.url,
                event_types: &r.event_types,
                description: &r.description,
            },
        )
        .await?;
    Ok(Response::new(pb::CreateWebhookResponse {
        webhook: Some(row.into()),
        secret,
    }))
}

pub(super) async fn list_webhooks(
    service: &IdentityService,
    request: Request<pb::ListWebhooksRequest>,
) -> Result<Response<pb::ListWebhooksResponse>, Status> {
    let caller = manager(service, &request).await?;
    let rows = service.webhooks.list(caller.user_id).await?;
    Ok(Response::new(pb::ListWebhooksResponse {
        webhooks: rows.into_iter().map(Into::into).collect(),
    }))
}

pub(super) async fn update_webhook(
    service: &IdentityService,
    request: Request<pb::UpdateWebhookRequest>,
) -> Result<Response<pb::UpdateWebhookResponse>, Status> {
    let caller = manager(service, &request).await?;
    let r = request.into_inner();
    let webhook_id = parse_id(&r.webhook_id, "webhook_id")?;
    let row = service
        .webhooks
        .update(
            caller.user_id,
            webhook_id,
            Fields {
                url: &r.url,
                event_types: &r.event_types,
                description: &r.description,
            },
            r.enabled,
        )
        .await?;
    Ok(Response::new(pb::UpdateWebhookResponse {
        webhook: Some(row.into()),
    }))
}

pub(super) async fn delete_webhook(
    service: &IdentityService,
    request: Request<pb::DeleteWebhookRequest>,
) -> Result<Response<pb::DeleteWebhookResponse>, Status> {
    let caller = manager(service, &request).await?;
    let webhook_id = parse_id(&request.get_ref().webhook_id, "webhook_id")?;
    service.webhooks.delete(caller.user_id, webhook_id).await?;
    Ok(Response::new(pb::DeleteWebhookResponse {}))
}

pub(super) async fn rotate_webhook_secret(
    service: &IdentityService,
    request: Request<pb::RotateWebhookSecretRequest>,
) -> Result<Response<pb::RotateWebhookSecretResponse>, Status> {
    let caller = manager(service, &request).await?;
    let webhook_id = parse_id(&request.get_ref().webhook_id, "webhook_id")?;
    let (secret, until) = service.webhooks.rotate(caller.user_id, webhook_id).await?;
    Ok(Response::new(pb::RotateWebhookSecretResponse {
        secret,
        previous_valid_until: rfc3339(until),
    }))
}

pub(super) async fn list_webhook_deliveries(
    service: &IdentityService,
    request: Request<pb::ListWebhookDeliveriesRequest>,
) -> Result<Response<pb::ListWebhookDeliveriesResponse>, Status> {
    let caller = manager(service, &request).await?;
    let r = request.into_inner();
    let webhook_id = parse_id(&r.webhook_id, "webhook_id")?;
    let page = Page::<i64>::parse(r.limit, &r.after)?;
    let (rows, next) = service
        .webhooks
        .deliveries(caller.user_id, webhook_id, &page)
        .await?;
    Ok(Response::new(pb::ListWebhookDeliveriesResponse {
        deliveries: rows.into_iter().map(Into::into).collect(),
        next,
    }))
}

pub(super) async fn replay_webhook_delivery(
    service: &IdentityService,
    request: Request<pb::ReplayWebhookDeliveryRequest>,
) -> Result<Response<pb::ReplayWebhookDeliveryResponse>, Status> {
    let caller = manager(service, &request).await?;
    let r = request.into_inner();
    let webhook_id = parse_id(&r.webhook_id, "webhook_id")?;
    let delivery_id = parse_id(&r.delivery_id, "delivery_id")?;
    let row = service
        .webhooks
        .replay(caller.user_id, webhook_id, delivery_id)
        .await?;
    Ok(Response::new(pb::ReplayWebhookDeliveryResponse {
        delivery: Some(row.into()),
    }))
}

pub(super) async fn test_webhook(
    service: &IdentityService,
    request: Request<pb::TestWebhookRequest>,
) -> Result<Response<pb::TestWebhookResponse>, Status> {
    let caller = manager(service, &request).await?;
    let webhook_id = parse_id(&request.get_ref().webhook_id, "webhook_id")?;
    let row = service.webhooks.test(caller.user_id, webhook_id).await?;
    Ok(Response::new(pb::TestWebhookResponse {
        delivery: Some(row.into()),
    }))
}
