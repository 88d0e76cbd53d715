//! The one port to the payment provider: Stripe's API (localstripe in development and CI). Every
//! call that changes something carries an `Idempotency-Key` the caller derives from the booking
//! (or refund) and the action, so a retry after a crash, or two replicas racing, changes the
//! provider once. Errors say whether trying again later can help ([`ProviderError::Unavailable`])
//! or not.
//!
//! CONTRACT (issue 33): the trait and its types are shared by the payment worker and the card
//! handlers; [`stripe`](super::stripe) implements it over `reqwest`.

use std::{collections::HashMap, sync::Arc};

use async_trait::async_trait;

/// What went wrong with a provider call.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// The card was declined (or needs the client's action): a person must fix it.
    #[error("{0}")]
    Declined(String),
    /// The provider could not be reached, timed out, or answered 5xx/429: try again later.
    #[error("the payment provider is unavailable: {0}")]
    Unavailable(String),
    /// The provider refused the request (a 4xx other than a decline): trying the same again will
    /// not help. The message is the provider's.
    #[error("the payment provider refused: {0}")]
    Refused(String),
    /// The object does not exist at the provider.
    #[error("not found at the payment provider: {0}")]
    NotFound(String),
}

pub type Result<T> = std::result::Result<T, ProviderError>;

/// A customer's saved card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub payment_method_id: String,
    pub brand: String,
    pub last4: String,
    pub exp_month: i32,
    pub exp_year: i32,
}

/// A SetupIntent the browser confirms with Stripe.js.
#[derive(Clone, Debug)]
pub struct Setup {
    pub setup_intent_id: String,
    pub client_secret: String,
}

/// Where a PaymentIntent stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntentStatus {
    RequiresPaymentMethod,
    RequiresConfirmation,
    RequiresAction,
    Processing,
    /// Authorized: the amount is held, waiting to be captured (a manual-capture intent).
    RequiresCapture,
    Canceled,
    Succeeded,
}

/// A PaymentIntent as the provider reports it.
#[derive(Clone, Debug)]
pub struct Intent {
    pub id: String,
    pub status: IntentStatus,
    /// The amount authorized.
    pub amount: i64,
    /// Captured so far (0 before capture).
    pub amount_received: i64,
    /// The provider's message when the last attempt failed.
    pub last_error: Option<String>,
    pub metadata: HashMap<String, String>,
}

/// A hold to create: `capture_method=manual`, not confirmed yet.
#[derive(Clone, Debug)]
pub struct NewIntent<'a> {
    pub amount: i64,
    pub currency: &'a str,
    pub customer_id: &'a str,
    pub payment_method_id: &'a str,
    /// Kept on the intent (the booking's id, so a webhook or a reconciliation finds its booking).
    pub metadata: &'a [(&'a str, &'a str)],
}

/// A refund as the provider reports it.
#[derive(Clone, Debug)]
pub struct Refund {
    pub id: String,
    pub amount: i64,
    pub metadata: HashMap<String, String>,
}

/// The provider's API, as Courtside uses it.
#[async_trait]
pub trait Provider: Send + Sync + 'static {
    async fn create_customer(&self, client_id: &str, idempotency_key: &str) -> Result<String>;
    /// A SetupIntent for the customer's future off-session payments.
    async fn create_setup(&self, customer_id: &str, idempotency_key: &str) -> Result<Setup>;
    async fn list_cards(&self, customer_id: &str) -> Result<Vec<Card>>;
    async fn detach_card(&self, payment_method_id: &str, idempotency_key: &str) -> Result<()>;

    /// Creates a hold (manual capture), unconfirmed: it holds nothing until [`confirm_intent`].
    async fn create_intent(&self, intent: &NewIntent<'_>, idempotency_key: &str) -> Result<Intent>;
    /// Authorizes a created hold; [`ProviderError::Declined`] when the card is declined.
    async fn confirm_intent(&self, intent_id: &str, idempotency_key: &str) -> Result<Intent>;
    /// Captures `amount` (at most what is held) and releases the rest.
    async fn capture_intent(&self, intent_id: &str, amount: i64, idempotency_key: &str) -> Result<Intent>;
    /// Lets the hold go.
    async fn cancel_intent(&self, intent_id: &str, idempotency_key: &str) -> Result<Intent>;
    async fn retrieve_intent(&self, intent_id: &str) -> Result<Intent>;

    /// Refunds `amount` of a captured intent; `metadata` is kept on the refund (the refund's id,
    /// so a retry finds it among [`list_refunds`]).
    async fn create_refund(
        &self,
        intent_id: &str,
        amount: i64,
        metadata: &[(&str, &str)],
        idempotency_key: &str,
    ) -> Result<Refund>;
    async fn list_refunds(&self, intent_id: &str) -> Result<Vec<Refund>>;
}

/// The provider every part of booking-svc shares.
pub type SharedProvider = Arc<dyn Provider>;
