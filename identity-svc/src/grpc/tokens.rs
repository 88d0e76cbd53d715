//! The API-token RPCs of identity.v1 (issue 37): who may call each, then the tokens module.

use proto::identity::v1 as pb;
use tonic::{Request, Response, Status};

use super::IdentityService;

pub(super) async fn create_api_token(
    _service: &IdentityService,
    _request: Request<pb::CreateApiTokenRequest>,
) -> Result<Response<pb::CreateApiTokenResponse>, Status> {
    Err(Status::unimplemented("CreateApiToken is not built yet"))
}

pub(super) async fn list_api_tokens(
    _service: &IdentityService,
    _request: Request<pb::ListApiTokensRequest>,
) -> Result<Response<pb::ListApiTokensResponse>, Status> {
    Err(Status::unimplemented("ListApiTokens is not built yet"))
}

pub(super) async fn revoke_api_token(
    _service: &IdentityService,
    _request: Request<pb::RevokeApiTokenRequest>,
) -> Result<Response<pb::RevokeApiTokenResponse>, Status> {
    Err(Status::unimplemented("RevokeApiToken is not built yet"))
}

pub(super) async fn exchange_api_token(
    _service: &IdentityService,
    _request: Request<pb::ExchangeApiTokenRequest>,
) -> Result<Response<pb::ExchangeApiTokenResponse>, Status> {
    Err(Status::unimplemented("ExchangeApiToken is not built yet"))
}
