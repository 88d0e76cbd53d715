//! The webhook RPCs of identity.v1 (issue 37): who may call each, then the webhooks module.

use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};

use super::IdentityService;

pub(super) async fn create_webhook(
    _service: &IdentityService,
    _request: Request<pb::CreateWebhookRequest>,
) -> Result<Response<pb::CreateWebhookResponse>, Status> {
    Err(Status::unimplemented("CreateWebhook is not built yet"))
}

pub(super) async fn list_webhooks(
    _service: &IdentityService,
    _request: Request<pb::ListWebhooksRequest>,
) -> Result<Response<pb::ListWebhooksResponse>, Status> {
    Err(Status::unimplemented("ListWebhooks is not built yet"))
}

pub(super) async fn update_webhook(
    _service: &IdentityService,
    _request: Request<pb::UpdateWebhookRequest>,
) -> Result<Response<pb::UpdateWebhookResponse>, Status> {
    Err(Status::unimplemented("UpdateWebhook is not built yet"))
}

pub(super) async fn delete_webhook(
    _service: &IdentityService,
    _request: Request<pb::DeleteWebhookRequest>,
) -> Result<Response<pb::DeleteWebhookResponse>, Status> {
    Err(Status::unimplemented("DeleteWebhook is not built yet"))
}

pub(super) async fn rotate_webhook_secret(
    _service: &IdentityService,
    _request: Request<pb::RotateWebhookSecretRequest>,
) -> Result<Response<pb::RotateWebhookSecretResponse>, Status> {
    Err(Status::unimplemented("RotateWebhookSecret is not built yet"))
}

pub(super) async fn list_webhook_deliveries(
    _service: &IdentityService,
    _request: Request<pb::ListWebhookDeliveriesRequest>,
) -> Result<Response<pb::ListWebhookDeliveriesResponse>, Status> {
    Err(Status::unimplemented("ListWebhookDeliveries is not built yet"))
}

pub(super) async fn replay_webhook_delivery(
    _service: &IdentityService,
    _request: Request<pb::ReplayWebhookDeliveryRequest>,
) -> Result<Response<pb::ReplayWebhookDeliveryResponse>, Status> {
    Err(Status::unimplemented("ReplayWebhookDelivery is not built yet"))
}

pub(super) async fn test_webhook(
    _service: &IdentityService,
    _request: Request<pb::TestWebhookRequest>,
) -> Result<Response<pb::TestWebhookResponse>, Status> {
    Err(Status::unimplemented("TestWebhook is not built yet"))
}
