//! Payments (issue 33): what the browser needs to load Stripe.js ([`payments_config`]), the
//! provider's webhook relayed to booking-svc ([`payment_webhook`]), a client's cards ([`cards`]),
//! a booking's receipt ([`receipt`]) and a coach's earnings ([`earnings`]).
//!
//! booking-svc owns every payment and talks to the provider (Stripe's API, or localstripe in
//! development and CI); the gateway only translates. Card numbers never pass through Courtside:
//! the browser confirms a SetupIntent with Stripe.js, and booking-svc mirrors the saved card.

pub mod cards;
pub mod earnings;
pub mod receipt;

use axum::{
    body::Body,
    extract::State,
    http::{HeaderMap, StatusCode},
};
use proto::booking::v1 as pb;
use serde::Serialize;
use utoipa::{
    PartialSchema, ToSchema,
    openapi::{ObjectBuilder, RefOr, Schema, schema::Type},
};

use crate::{call, error::ApiError, state::AppState};

/// The webhook's path: its body is relayed byte for byte (the signature covers those bytes), so it
/// is never checked against a schema nor kept for an `Idempotency-Key` (see `routes::api`).
pub const WEBHOOK: &str = "/payments/webhook";

/// What the browser needs to add a card with Stripe.js.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentsConfig {
    /// Stripe's publishable key (`pk_...`), for `Stripe(publishable_key)`.
    pub publishable_key: String,
    /// Where to load Stripe.js from: Stripe's `https://js.stripe.com/v3/`, or in development
    /// localstripe's mock behind the same origin (`/stripe/js.stripe.com/v3/`).
    pub js_url: String,
}

/// What the browser needs to load Stripe.js and add a card: the publishable key and the script's
/// address (anyone; nothing in it is secret). 404 where the operator set no publishable key
/// (`STRIPE_PUBLISHABLE_KEY`): cards cannot be added there.
#[utoipa::path(get, path = "/payments/config", tag = "payments",
    responses((status = 200, description = "The publishable key and Stripe.js's address", body = PaymentsConfig),
              (status = 404, description = "Payments are not set up on this server (no publishable key)", body = crate::error::ErrorBody)))]
pub(crate) async fn payments_config(
    State(state): State<AppState>,
) -> Result<axum::Json<PaymentsConfig>, ApiError> {
    let publishable_key = state.config.stripe_publishable_key.clone();
    if publishable_key.is_empty() {
        return Err(ApiError::not_found(
            "Payments are not set up on this server yet: cards cannot be added. Please try again later.",
        ));
    }
    Ok(axum::Json(PaymentsConfig {
        publishable_key,
        js_url: state.config.stripe_js_url.clone(),
    }))
}

/// A provider event as Stripe sends it (`{"id": "evt_...", "type": "payment_intent.succeeded",
/// "data": {...}}`): relayed as sent, read only by booking-svc once its signature checks.
pub struct ProviderEvent;

impl PartialSchema for ProviderEvent {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "A Stripe event object, as Stripe sends it; its fields are read only after the signature checks.",
            ))
            .into()
    }
}

impl ToSchema for ProviderEvent {}

/// The provider's webhook (Stripe's; no token: the `Stripe-Signature` header is the proof). The
/// body is relayed byte for byte to booking-svc, which checks the signature (HMAC-SHA256 of
/// `<t>.<body>` with the webhook secret; any `v1` may match) and that its timestamp `t` is within
/// 5 minutes of now, applies each event id once (a replay is acknowledged and changes nothing),
/// and brings the payment of the booking it names in line by asking the provider, never by
/// trusting the body alone. Kinds it does not use are acknowledged and ignored. The body is JSON
/// (`Content-Type: application/json`) of at most 1 MiB, never checked against a schema here, and
/// an `Idempotency-Key` is not read.
#[utoipa::path(post, path = "/payments/webhook", tag = "payments",
    request_body(content = ProviderEvent, content_type = "application/json",
                 description = "The event, exactly as the provider sent it"),
    params(("Stripe-Signature" = String, Header,
            description = "`t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=...]`, as Stripe signs")),
    responses((status = 204, description = "Applied, already applied, or of a kind that is ignored"),
              (status = 400, description = "The Stripe-Signature header is missing, does not match the body, or is more than 5 minutes old", body = crate::error::ErrorBody)))]
pub(crate) async fn payment_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> Result<StatusCode, ApiError> {
    if !crate::extract::is_json(&headers) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the event as JSON with the header Content-Type: application/json.",
        ));
    }
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| ApiError::bad_request("The Stripe-Signature header is missing."))?
        .to_owned();
    let payload = axum::body::to_bytes(body, crate::BODY_LIMIT)
        .await
        .map_err(|_| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "The request body is too large."))?;
    let message = pb::ApplyPaymentWebhookRequest {
        payload: payload.to_vec(),
        signature,
    };
    call::write!(state, booking.apply_payment_webhook, None, message).await?;
    Ok(StatusCode::NO_CONTENT)
}
