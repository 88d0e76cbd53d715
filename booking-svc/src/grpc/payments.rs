//! The payment RPCs of booking.v1 (payments.proto): who may call each, then the payments module.

use platform::auth::{self, Role};
use proto::booking::v1 as pb;
use tonic::{Request, Response, Status};

use super::{BookingService, client, coach};
use crate::{
    domain::BookingId,
    payments::{cards, reports, webhook},
};

type Answer<T> = Result<Response<T>, Status>;

pub(super) async fn setup_payment_method(
    s: &BookingService,
    request: Request<pb::SetupPaymentMethodRequest>,
) -> Answer<pb::SetupPaymentMethodResponse> {
    let client_id = client(&request, "save a card")?;
    Ok(Response::new(cards::setup(&s.payments, client_id).await?))
}

pub(super) async fn list_payment_methods(
    s: &BookingService,
    request: Request<pb::ListPaymentMethodsRequest>,
) -> Answer<pb::ListPaymentMethodsResponse> {
    let client_id = client(&request, "have cards")?;
    let payment_methods = cards::list(&s.payments, client_id).await?;
    Ok(Response::new(pb::ListPaymentMethodsResponse { payment_methods }))
}

pub(super) async fn set_default_payment_method(
    s: &BookingService,
    request: Request<pb::SetDefaultPaymentMethodRequest>,
) -> Answer<pb::SetDefaultPaymentMethodResponse> {
    let client_id = client(&request, "have cards")?;
    let id = request.into_inner().payment_method_id;
    let payment_methods = cards::set_default(&s.payments, client_id, &id).await?;
    Ok(Response::new(pb::SetDefaultPaymentMethodResponse {
        payment_methods,
    }))
}

pub(super) async fn remove_payment_method(
    s: &BookingService,
    request: Request<pb::RemovePaymentMethodRequest>,
) -> Answer<pb::RemovePaymentMethodResponse> {
    let client_id = client(&request, "have cards")?;
    let id = request.into_inner().payment_method_id;
    cards::remove(&s.payments, client_id, &id).await?;
    Ok(Response::new(pb::RemovePaymentMethodResponse {}))
}

pub(super) async fn get_receipt(
    s: &BookingService,
    request: Request<pb::GetReceiptRequest>,
) -> Answer<pb::GetReceiptResponse> {
    let caller = auth::caller(&request)?;
    let booking_id = BookingId::parse(&request.into_inner().booking_id)?;
    let receipt = reports::receipt(&s.payments, caller, booking_id).await?;
    Ok(Response::new(pb::GetReceiptResponse {
        receipt: Some(receipt),
    }))
}

pub(super) async fn get_earnings(
    s: &BookingService,
    request: Request<pb::GetEarningsRequest>,
) -> Answer<pb::GetEarningsResponse> {
    let coach_id = coach(&request, "earn from sessions")?;
    let month = request.into_inner().month;
    Ok(Response::new(
        reports::earnings(&s.payments, coach_id, &month).await?,
    ))
}

pub(super) async fn list_payments(
    s: &BookingService,
    request: Request<pb::ListPaymentsRequest>,
) -> Answer<pb::ListPaymentsResponse> {
    auth::require_role(&request, &[Role::Admin])?;
    Ok(Response::new(
        reports::payments(&s.payments, request.into_inner()).await?,
    ))
}

pub(super) async fn refund_booking(
    s: &BookingService,
    request: Request<pb::RefundBookingRequest>,
) -> Answer<pb::RefundBookingResponse> {
    let admin_id = auth::require_role(&request, &[Role::Admin])?.user_id;
    let booking = reports::refund(&s.payments, admin_id, request.into_inner()).await?;
    Ok(Response::new(pb::RefundBookingResponse {
        booking: Some(booking),
    }))
}

pub(super) async fn get_payment_totals(
    s: &BookingService,
    request: Request<pb::GetPaymentTotalsRequest>,
) -> Answer<pb::GetPaymentTotalsResponse> {
    auth::require_role(&request, &[Role::Admin])?;
    Ok(Response::new(reports::totals(&s.payments).await?))
}

/// Internal: the gateway relays the provider's webhook as it came; the signature is the check.
pub(super) async fn apply_payment_webhook(
    s: &BookingService,
    request: Request<pb::ApplyPaymentWebhookRequest>,
) -> Answer<pb::ApplyPaymentWebhookResponse> {
    let r = request.into_inner();
    webhook::apply(&s.payments, &r.payload, &r.signature).await?;
    Ok(Response::new(pb::ApplyPaymentWebhookResponse {}))
}
