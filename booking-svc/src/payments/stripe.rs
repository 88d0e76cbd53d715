//! [`Provider`] over Stripe's HTTP API (localstripe in development and CI): typed requests over
//! `reqwest`, form-encoded as Stripe wants them (`metadata[booking_id]=...`), `Authorization:
//! Bearer <secret key>`, an `Idempotency-Key` on every POST, `Stripe-Version` pinned, 10 s per
//! call. Only the fields Courtside reads are parsed.
//!
//! Why not the `async-stripe` crate: Courtside makes eleven calls (customers, SetupIntents,
//! PaymentMethods list and detach, PaymentIntents create/confirm/capture/cancel/retrieve,
//! refunds create and list). `async-stripe` generates types for the whole API: its 0.x releases
//! are one crate of generated code (lib.rs counted about 63,000 lines for a 2022 release, and it
//! has grown since), whose own README offers per-area feature flags "to reduce compile times";
//! its 1.x releases split it into per-area generated crates. We did not build it here (not
//! measured): from that size we estimate one to a few minutes more per cold build on the 2-core
//! CI runner, a larger binary, and an API version tied to the crate's release. This file is
//! about 400 lines of code, `reqwest` is already in the tree (the gateway's and the tests' HTTP
//! client), and the TLS it needs here (rustls on ring, the system's roots) is the one lettre
//! already brings: booking-svc adds `hyper-rustls`, seconds. A pinned `Stripe-Version` keeps the
//! fields we read stable whatever the account's default version.
//!
//! Errors: connection failures, timeouts, 5xx and 429 are [`ProviderError::Unavailable`] (the
//! caller tries again later); 402 and `card_error`s are [`ProviderError::Declined`] with the
//! provider's message; 404 is [`ProviderError::NotFound`]; any other 4xx is
//! [`ProviderError::Refused`]. A confirm that leaves the intent needing a new card or the
//! cardholder's action (3-D Secure, which an off-session hold cannot do) is `Declined` too.
//!
//! localstripe differs from Stripe in ways this file absorbs: its PaymentIntent has no
//! `amount_received` (derived from the latest charge: `captured`, its `amount`, less the refund
//! localstripe makes of the uncaptured rest, which has no `payment_intent`), and it refuses
//! parameters it does not know (so `off_session` is sent on confirm only to Stripe itself, where
//! it marks the hold as made without the cardholder present).

use std::{collections::HashMap, time::Duration};

use anyhow::Context;
use async_trait::async_trait;
use reqwest::{Method, RequestBuilder, StatusCode, Url};
use serde::{Deserialize, de::DeserializeOwned};

use super::provider::{
    Card, Intent, IntentStatus, NewIntent, Provider, ProviderError, Refund, Result, Setup,
};

/// The API version every request asks for (the fields below are read as it defines them).
pub const STRIPE_VERSION: &str = "2024-06-20";

/// How long one call may take, connecting included.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Stripe's API at `api_base` with `secret_key`.
pub struct Stripe {
    base: Url,
    secret_key: String,
    /// Stripe itself (not localstripe): confirms say `off_session=true`.
    real: bool,
    http: reqwest::Client,
}

impl Stripe {
    /// A client of the API at `api_base` (`https://api.stripe.com`, or localstripe's
    /// `http://127.0.0.1:8420`). Nothing is sent until the first call.
    pub fn new(api_base: &str, secret_key: &str) -> anyhow::Result<Self> {
        let base = Url::parse(api_base.trim_end_matches('/'))
            .with_context(|| format!("{api_base:?} is not a URL (e.g. https://api.stripe.com)"))?;
        anyhow::ensure!(
            matches!(base.scheme(), "http" | "https"),
            "{api_base:?} is not an http:// or https:// URL"
        );
        let http = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(TIMEOUT)
            .user_agent(concat!("courtside-booking-svc/", env!("CARGO_PKG_VERSION")))
            .build()
            .context("an HTTP client for the payment provider")?;
        Ok(Self {
            real: base.host_str() == Some("api.stripe.com"),
            base,
            secret_key: secret_key.to_owned(),
            http,
        })
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let mut url = self.base.clone();
        url.set_path(&format!("{}{path}", self.base.path().trim_end_matches('/')));
        self.http
            .request(method, url)
            .bearer_auth(&self.secret_key)
            .header("Stripe-Version", STRIPE_VERSION)
    }

    /// POSTs `form` (form-encoded) with `idempotency_key`.
    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &[(&str, &str)],
        idempotency_key: &str,
    ) -> Result<T> {
        let body = serde_urlencoded::to_string(form)
            .map_err(|e| ProviderError::Refused(format!("an unencodable request: {e}")))?;
        let request = self
            .request(Method::POST, path)
            .header("Idempotency-Key", idempotency_key)
            .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body);
        answer(request).await
    }

    async fn get<T: DeserializeOwned>(&self, path: &str, query: &[(&str, &str)]) -> Result<T> {
        answer(self.request(Method::GET, path).query(query)).await
    }
}

/// Sends `request` and reads its answer as `T`, or the provider's error as a [`ProviderError`].
async fn answer<T: DeserializeOwned>(request: RequestBuilder) -> Result<T> {
    let response = request.send().await.map_err(|e| {
        ProviderError::Unavailable(if e.is_timeout() {
            format!("no answer within {} s", TIMEOUT.as_secs())
        } else {
            format!("cannot reach it ({})", without_url(&e))
        })
    })?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|e| ProviderError::Unavailable(format!("its answer was cut short ({})", without_url(&e))))?;
    if status.is_success() {
        return serde_json::from_slice(&body)
            .map_err(|e| ProviderError::Unavailable(format!("an answer Courtside cannot read ({e})")));
    }
    Err(error_of(status, &body))
}

/// reqwest's error without the URL it carries (the URL is ours, and long).
fn without_url(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(source) = cause.source() {
        cause = source;
    }
    cause.to_string()
}

#[derive(Debug, Default, Deserialize)]
struct ErrorBody {
    #[serde(default)]
    error: ErrorDetail,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorDetail {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// The codes that mean the card (not the request) is the problem.
const DECLINE_CODES: &[&str] = &[
    "card_declined",
    "expired_card",
    "incorrect_cvc",
    "incorrect_number",
    "insufficient_funds",
    "authentication_required",
    "payment_intent_authentication_failure",
    "payment_intent_payment_attempt_failed",
];

/// An error answer as a [`ProviderError`] (see the module's doc).
fn error_of(status: StatusCode, body: &[u8]) -> ProviderError {
    let detail = serde_json::from_slice::<ErrorBody>(body)
        .unwrap_or_default()
        .error;
    let message = detail.message.clone().unwrap_or_else(|| format!("HTTP {status}"));
    let declined = status == StatusCode::PAYMENT_REQUIRED
        || detail.kind.as_deref() == Some("card_error")
        || detail.code.as_deref().is_some_and(|c| DECLINE_CODES.contains(&c));
    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
        ProviderError::Unavailable(format!("HTTP {status}: {message}"))
    } else if declined {
        ProviderError::Declined(message)
    } else if status == StatusCode::NOT_FOUND {
        ProviderError::NotFound(message)
    } else {
        ProviderError::Refused(format!("HTTP {status}: {message}"))
    }
}

#[derive(Deserialize)]
struct Id {
    id: String,
}

#[derive(Deserialize)]
struct SetupJson {
    id: String,
    client_secret: String,
}

#[derive(Deserialize)]
struct List<T> {
    data: Vec<T>,
}

#[derive(Deserialize)]
struct PaymentMethodJson {
    id: String,
    #[serde(default)]
    card: Option<CardJson>,
}

#[derive(Deserialize)]
struct CardJson {
    #[serde(default)]
    brand: String,
    #[serde(default)]
    last4: String,
    exp_month: i32,
    exp_year: i32,
}

#[derive(Deserialize)]
struct IntentJson {
    id: String,
    status: String,
    amount: i64,
    /// Stripe's; localstripe has none.
    #[serde(default)]
    amount_received: Option<i64>,
    #[serde(default)]
    latest_charge: Option<ChargeRef>,
    #[serde(default)]
    last_payment_error: Option<ErrorDetail>,
    #[serde(default)]
    metadata: HashMap<String, String>,
}

/// `latest_charge`: an id, or the charge when expanded (always, in localstripe).
#[derive(Deserialize)]
#[serde(untagged)]
enum ChargeRef {
    Charge(Box<ChargeJson>),
    // Read only to tell the two forms apart.
    #[allow(dead_code)]
    Id(String),
}

#[derive(Deserialize)]
struct ChargeJson {
    amount: i64,
    #[serde(default)]
    captured: bool,
    /// Stripe's; localstripe has none.
    #[serde(default)]
    amount_captured: Option<i64>,
    #[serde(default)]
    refunds: Option<List<ChargeRefundJson>>,
}

#[derive(Deserialize)]
struct ChargeRefundJson {
    amount: i64,
    #[serde(default)]
    payment_intent: Option<String>,
}

#[derive(Deserialize)]
struct RefundJson {
    id: String,
    amount: i64,
    #[serde(default)]
    metadata: HashMap<String, String>,
}

fn status_of(raw: &str) -> Result<IntentStatus> {
    Ok(match raw {
        "requires_payment_method" => IntentStatus::RequiresPaymentMethod,
        "requires_confirmation" => IntentStatus::RequiresConfirmation,
        "requires_action" => IntentStatus::RequiresAction,
        "processing" => IntentStatus::Processing,
        "requires_capture" => IntentStatus::RequiresCapture,
        "canceled" => IntentStatus::Canceled,
        "succeeded" => IntentStatus::Succeeded,
        other => {
            return Err(ProviderError::Refused(format!(
                "a PaymentIntent status Courtside does not know: {other:?}"
            )));
        }
    })
}

impl IntentJson {
    fn into_intent(self) -> Result<Intent> {
        let status = status_of(&self.status)?;
        let amount_received = self.amount_received.unwrap_or_else(|| match &self.latest_charge {
            Some(ChargeRef::Charge(charge)) => received_by(charge),
            _ => 0,
        });
        Ok(Intent {
            id: self.id,
            status,
            amount: self.amount,
            amount_received,
            last_error: self.last_payment_error.and_then(|e| e.message),
            metadata: self.metadata,
        })
    }
}

/// What a charge captured, where the intent does not say (localstripe): Stripe's
/// `amount_captured`, else the charge's amount less the refund localstripe makes of the
/// uncaptured rest of a partial capture (the one refund not made through a PaymentIntent).
fn received_by(charge: &ChargeJson) -> i64 {
    if let Some(captured) = charge.amount_captured {
        return captured;
    }
    if !charge.captured {
        return 0;
    }
    let uncaptured: i64 = charge
        .refunds
        .iter()
        .flat_map(|list| &list.data)
        .filter(|r| r.payment_intent.is_none())
        .map(|r| r.amount)
        .sum();
    (charge.amount - uncaptured).max(0)
}

/// After a confirm: an intent that still needs a card, or the cardholder, did not authorize.
fn authorized(intent: Intent) -> Result<Intent> {
    match intent.status {
        IntentStatus::RequiresPaymentMethod => Err(ProviderError::Declined(
            intent
                .last_error
                .unwrap_or_else(|| "Your card was declined.".into()),
        )),
        IntentStatus::RequiresAction => Err(ProviderError::Declined(
            "This card needs its holder to confirm the payment (3-D Secure), which cannot be done \
             while they are away: choose another card."
                .into(),
        )),
        _ => Ok(intent),
    }
}

const EXPAND_CHARGE: (&str, &str) = ("expand[]", "latest_charge");

#[async_trait]
impl Provider for Stripe {
    async fn create_customer(&self, client_id: &str, idempotency_key: &str) -> Result<String> {
        let form = [("metadata[client_id]", client_id)];
        let customer: Id = self.post("/v1/customers", &form, idempotency_key).await?;
        Ok(customer.id)
    }

    async fn create_setup(&self, customer_id: &str, idempotency_key: &str) -> Result<Setup> {
        let form = [
            ("customer", customer_id),
            ("usage", "off_session"),
            ("payment_method_types[]", "card"),
        ];
        let setup: SetupJson = self.post("/v1/setup_intents", &form, idempotency_key).await?;
        Ok(Setup {
            setup_intent_id: setup.id,
            client_secret: setup.client_secret,
        })
    }

    async fn list_cards(&self, customer_id: &str) -> Result<Vec<Card>> {
        let query = [("customer", customer_id), ("type", "card"), ("limit", "100")];
        let list: List<PaymentMethodJson> = self.get("/v1/payment_methods", &query).await?;
        Ok(list
            .data
            .into_iter()
            .filter_map(|pm| {
                pm.card.map(|card| Card {
                    payment_method_id: pm.id,
                    brand: card.brand,
                    last4: card.last4,
                    exp_month: card.exp_month,
                    exp_year: card.exp_year,
                })
            })
            .collect())
    }

    async fn detach_card(&self, payment_method_id: &str, idempotency_key: &str) -> Result<()> {
        let path = format!("/v1/payment_methods/{}/detach", segment(payment_method_id)?);
        let _: Id = self.post(&path, &[], idempotency_key).await?;
        Ok(())
    }

    async fn create_intent(&self, intent: &NewIntent<'_>, idempotency_key: &str) -> Result<Intent> {
        let amount = intent.amount.to_string();
        let keys: Vec<String> = intent
            .metadata
            .iter()
            .map(|(k, _)| format!("metadata[{k}]"))
            .collect();
        let mut form = vec![
            ("amount", amount.as_str()),
            ("currency", intent.currency),
            ("customer", intent.customer_id),
            ("payment_method", intent.payment_method_id),
            ("payment_method_types[]", "card"),
            ("capture_method", "manual"),
            EXPAND_CHARGE,
        ];
        form.extend(
            keys.iter()
                .map(String::as_str)
                .zip(intent.metadata.iter().map(|(_, v)| *v)),
        );
        let created: IntentJson = self.post("/v1/payment_intents", &form, idempotency_key).await?;
        created.into_intent()
    }

    async fn confirm_intent(&self, intent_id: &str, idempotency_key: &str) -> Result<Intent> {
        let path = format!("/v1/payment_intents/{}/confirm", segment(intent_id)?);
        let mut form = vec![EXPAND_CHARGE];
        if self.real {
            form.push(("off_session", "true"));
        }
        let confirmed: IntentJson = self.post(&path, &form, idempotency_key).await?;
        authorized(confirmed.into_intent()?)
    }

    async fn capture_intent(&self, intent_id: &str, amount: i64, idempotency_key: &str) -> Result<Intent> {
        let path = format!("/v1/payment_intents/{}/capture", segment(intent_id)?);
        let amount = amount.to_string();
        let form = [("amount_to_capture", amount.as_str()), EXPAND_CHARGE];
        let captured: IntentJson = self.post(&path, &form, idempotency_key).await?;
        captured.into_intent()
    }

    async fn cancel_intent(&self, intent_id: &str, idempotency_key: &str) -> Result<Intent> {
        let path = format!("/v1/payment_intents/{}/cancel", segment(intent_id)?);
        let canceled: IntentJson = self.post(&path, &[EXPAND_CHARGE], idempotency_key).await?;
        canceled.into_intent()
    }

    async fn retrieve_intent(&self, intent_id: &str) -> Result<Intent> {
        let path = format!("/v1/payment_intents/{}", segment(intent_id)?);
        let intent: IntentJson = self.get(&path, &[EXPAND_CHARGE]).await?;
        intent.into_intent()
    }

    async fn create_refund(
        &self,
        intent_id: &str,
        amount: i64,
        metadata: &[(&str, &str)],
        idempotency_key: &str,
    ) -> Result<Refund> {
        let amount = amount.to_string();
        let keys: Vec<String> = metadata.iter().map(|(k, _)| format!("metadata[{k}]")).collect();
        let mut form = vec![("payment_intent", intent_id), ("amount", amount.as_str())];
        form.extend(
            keys.iter()
                .map(String::as_str)
                .zip(metadata.iter().map(|(_, v)| *v)),
        );
        let refund: RefundJson = self.post("/v1/refunds", &form, idempotency_key).await?;
        Ok(Refund {
            id: refund.id,
            amount: refund.amount,
            metadata: refund.metadata,
        })
    }

    async fn list_refunds(&self, intent_id: &str) -> Result<Vec<Refund>> {
        let query = [("payment_intent", intent_id), ("limit", "100")];
        let list: List<RefundJson> = self.get("/v1/refunds", &query).await?;
        Ok(list
            .data
            .into_iter()
            .map(|r| Refund {
                id: r.id,
                amount: r.amount,
                metadata: r.metadata,
            })
            .collect())
    }
}

/// An id as one path segment: the provider's ids are letters, digits and `_`.
fn segment(id: &str) -> Result<&str> {
    if !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        Ok(id)
    } else {
        Err(ProviderError::NotFound(format!("{id:?} is not a provider id")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_map_by_status_and_code() {
        let body = |kind: &str, code: &str, message: &str| {
            serde_json::json!({"error": {"type": kind, "code": code, "message": message}})
                .to_string()
                .into_bytes()
        };
        let declined = body("card_error", "card_declined", "Your card was declined.");
        assert!(matches!(
            error_of(StatusCode::PAYMENT_REQUIRED, &declined),
            ProviderError::Declined(m) if m == "Your card was declined."
        ));
        let card_error = body("card_error", "expired_card", "Your card has expired.");
        assert!(matches!(
            error_of(StatusCode::BAD_REQUEST, &card_error),
            ProviderError::Declined(_)
        ));
        let invalid = body("invalid_request_error", "", "Bad request");
        assert!(matches!(
            error_of(StatusCode::BAD_REQUEST, &invalid),
            ProviderError::Refused(m) if m.contains("Bad request")
        ));
        assert!(matches!(
            error_of(StatusCode::NOT_FOUND, &invalid),
            ProviderError::NotFound(_)
        ));
        for status in [StatusCode::TOO_MANY_REQUESTS, StatusCode::BAD_GATEWAY] {
            assert!(matches!(
                error_of(status, b"<html>"),
                ProviderError::Unavailable(_)
            ));
        }
    }

    fn intent(json: serde_json::Value) -> Intent {
        serde_json::from_value::<IntentJson>(json)
            .unwrap()
            .into_intent()
            .unwrap()
    }

    #[test]
    fn amount_received_is_stripes_when_given() {
        let i = intent(serde_json::json!({
            "id": "pi_1", "status": "succeeded", "amount": 7500, "amount_received": 3750,
            "latest_charge": "ch_1", "metadata": {"booking_id": "b"}
        }));
        assert_eq!((i.status, i.amount_received), (IntentStatus::Succeeded, 3750));
        assert_eq!(i.metadata["booking_id"], "b");
    }

    #[test]
    fn amount_received_is_derived_from_localstripes_charge() {
        // A partial capture: localstripe refunds the uncaptured rest on the charge (no
        // payment_intent); a later refund of ours (through the intent) does not lower it.
        let i = intent(serde_json::json!({
            "id": "pi_1", "status": "succeeded", "amount": 7500, "metadata": {},
            "latest_charge": {"amount": 7500, "captured": true, "refunds": {"data": [
                {"amount": 3750, "payment_intent": null},
                {"amount": 1000, "payment_intent": "pi_1"}
            ]}}
        }));
        assert_eq!(i.amount_received, 3750);
        let held = intent(serde_json::json!({
            "id": "pi_1", "status": "requires_capture", "amount": 7500, "metadata": {},
            "latest_charge": {"amount": 7500, "captured": false, "refunds": {"data": []}}
        }));
        assert_eq!(
            (held.status, held.amount_received),
            (IntentStatus::RequiresCapture, 0)
        );
        let unconfirmed = intent(serde_json::json!({
            "id": "pi_1", "status": "requires_confirmation", "amount": 7500,
            "latest_charge": null, "metadata": {}
        }));
        assert_eq!(unconfirmed.amount_received, 0);
    }

    #[test]
    fn a_confirm_that_needs_a_card_or_the_cardholder_is_declined() {
        let failed = intent(serde_json::json!({
            "id": "pi_1", "status": "requires_payment_method", "amount": 1, "metadata": {},
            "last_payment_error": {"message": "Your card has insufficient funds."}
        }));
        assert!(matches!(authorized(failed), Err(ProviderError::Declined(m)) if m.contains("insufficient")));
        let action = intent(serde_json::json!({
            "id": "pi_1", "status": "requires_action", "amount": 1, "metadata": {}
        }));
        assert!(matches!(authorized(action), Err(ProviderError::Declined(_))));
    }

    #[test]
    fn ids_are_single_path_segments() {
        assert!(segment("pi_3Nx9abc").is_ok());
        for bad in ["", "pi_1/../customers", "pi 1", "pi_1?x=1"] {
            assert!(matches!(segment(bad), Err(ProviderError::NotFound(_))), "{bad}");
        }
    }

    #[test]
    fn the_base_must_be_an_http_url() {
        assert!(Stripe::new("https://api.stripe.com", "sk").unwrap().real);
        assert!(!Stripe::new("http://127.0.0.1:8420/", "sk").unwrap().real);
        assert!(Stripe::new("api.stripe.com", "sk").is_err());
        assert!(Stripe::new("ftp://x", "sk").is_err());
    }
}
