//! Receipts, a coach's earnings, the admin's payments list, totals and refunds. (issue 33: helper
//! "settle" is writing this; the signatures are what grpc/payments.rs calls.)

use platform::auth::Caller;
use proto::booking::v1 as pb;
use uuid::Uuid;

use super::Payments;
use crate::{
    domain::{BookingId, CoachId},
    error::Error,
};

fn not_yet() -> Error {
    Error::Unavailable("payments reports are not ready yet".into())
}

pub async fn receipt(_p: &Payments, _caller: Caller, _booking: BookingId) -> Result<pb::Receipt, Error> {
    Err(not_yet())
}

pub async fn earnings(
    _p: &Payments,
    _coach: CoachId,
    _month: &str,
) -> Result<pb::GetEarningsResponse, Error> {
    Err(not_yet())
}

pub async fn payments(
    _p: &Payments,
    _request: pb::ListPaymentsRequest,
) -> Result<pb::ListPaymentsResponse, Error> {
    Err(not_yet())
}

pub async fn refund(
    _p: &Payments,
    _admin_id: Uuid,
    _request: pb::RefundBookingRequest,
) -> Result<pb::BookingRecord, Error> {
    Err(not_yet())
}

pub async fn totals(_p: &Payments) -> Result<pb::GetPaymentTotalsResponse, Error> {
    Err(not_yet())
}
