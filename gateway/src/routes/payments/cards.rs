//! `/client/payment-methods`: a client's saved cards. Adding one is two steps: this API starts a
//! SetupIntent, and the browser confirms it with Stripe.js (the card number goes to the provider
//! only); booking-svc mirrors the saved card, so booking never waits on the provider.

use axum::{extract::State, http::StatusCode};
use proto::booking::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    call,
    error::{ApiError, ErrorBody},
    extract::{PathId, Session},
    state::AppState,
};

/// One of the client's saved cards, as the provider reports it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentMethod {
    /// The provider's id of the card (`pm_...`).
    pub payment_method_id: String,
    /// `visa`, `mastercard`, `amex`, ...
    pub brand: String,
    /// The card number's last four digits.
    pub last4: String,
    /// 1 to 12.
    pub exp_month: i32,
    pub exp_year: i32,
    /// The card new bookings hold on unless another is named, and the card a declined hold is
    /// tried again with.
    pub is_default: bool,
}

impl From<pb::PaymentMethod> for PaymentMethod {
    fn from(m: pb::PaymentMethod) -> Self {
        Self {
            payment_method_id: m.payment_method_id,
            brand: m.brand,
            last4: m.last4,
            exp_month: m.exp_month,
            exp_year: m.exp_year,
            is_default: m.is_default,
        }
    }
}

fn cards(methods: Vec<pb::PaymentMethod>) -> Vec<PaymentMethod> {
    methods.into_iter().map(PaymentMethod::from).collect()
}

/// A SetupIntent the browser confirms with Stripe.js to save a card.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetupIntent {
    pub setup_intent_id: String,
    /// For `stripe.confirmCardSetup(client_secret, ...)`: a secret, so this answer is never
    /// stored (`Cache-Control: no-store`) nor kept for an `Idempotency-Key`.
    pub client_secret: String,
}

/// Start adding a card (client): a SetupIntent for the browser to confirm with Stripe.js. Once it
/// is confirmed the card is in `GET /client/payment-methods` (the first card is the default), and
/// bookings whose hold was declined are tried again with the default card.
#[utoipa::path(post, path = "/client/payment-methods/setup", tag = "payments",
    responses((status = 201, description = "A SetupIntent to confirm in the browser", body = SetupIntent)))]
pub(crate) async fn setup_payment_method(
    State(state): State<AppState>,
    session: Session,
) -> Result<(StatusCode, axum::Json<SetupIntent>), ApiError> {
    let message = pb::SetupPaymentMethodRequest {};
    let reply = call::write!(state, booking.setup_payment_method, Some(&session), message).await?;
    let intent = SetupIntent {
        setup_intent_id: reply.setup_intent_id,
        client_secret: reply.client_secret,
    };
    Ok((StatusCode::CREATED, axum::Json(intent)))
}

/// The client's saved cards, the default first.
#[utoipa::path(get, path = "/client/payment-methods", tag = "payments",
    responses((status = 200, description = "The client's cards", body = [PaymentMethod])))]
pub(crate) async fn list_payment_methods(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<PaymentMethod>>, ApiError> {
    let message = pb::ListPaymentMethodsRequest {};
    let reply = call::read!(state, booking.list_payment_methods, Some(&session), message).await?;
    Ok(axum::Json(cards(reply.payment_methods)))
}

/// Make one of the client's cards the default; answers every card. Bookings whose hold was
/// declined are tried again with it.
#[utoipa::path(put, path = "/client/payment-methods/{payment_method_id}/default", tag = "payments",
    params(("payment_method_id" = String, Path, description = "One of the client's cards, as the list gives it")),
    responses((status = 200, description = "The client's cards, this one the default", body = [PaymentMethod]),
              (status = 404, description = "No such card of yours", body = ErrorBody)))]
pub(crate) async fn set_default_payment_method(
    State(state): State<AppState>,
    session: Session,
    PathId(payment_method_id): PathId,
) -> Result<axum::Json<Vec<PaymentMethod>>, ApiError> {
    let message = pb::SetDefaultPaymentMethodRequest { payment_method_id };
    let reply = call::write!(state, booking.set_default_payment_method, Some(&session), message).await?;
    Ok(axum::Json(cards(reply.payment_methods)))
}

/// Remove one of the client's cards, unless a booking's open payment (a hold not yet captured or
/// released) is on it.
#[utoipa::path(delete, path = "/client/payment-methods/{payment_method_id}", tag = "payments",
    params(("payment_method_id" = String, Path, description = "One of the client's cards, as the list gives it")),
    responses((status = 204, description = "Removed"),
              (status = 404, description = "No such card of yours", body = ErrorBody),
              (status = 409, description = "A booking's open payment is held on this card; it can go once that session is settled", body = ErrorBody)))]
pub(crate) async fn remove_payment_method(
    State(state): State<AppState>,
    session: Session,
    PathId(payment_method_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::RemovePaymentMethodRequest { payment_method_id };
    call::write!(state, booking.remove_payment_method, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}
