//! [`Provider`] over Stripe's HTTP API (localstripe in development and CI). (issue 33: helper
//! "provider" is writing this.)

use async_trait::async_trait;

use super::provider::{Card, Intent, NewIntent, Provider, ProviderError, Refund, Result, Setup};

/// Stripe's API at `api_base` with `secret_key`.
pub struct Stripe {
    _api_base: String,
    _secret_key: String,
}

impl Stripe {
    pub fn new(api_base: &str, secret_key: &str) -> anyhow::Result<Self> {
        Ok(Self {
            _api_base: api_base.to_owned(),
            _secret_key: secret_key.to_owned(),
        })
    }
}

fn not_yet<T>() -> Result<T> {
    Err(ProviderError::Unavailable("not written yet".into()))
}

#[async_trait]
impl Provider for Stripe {
    async fn create_customer(&self, _: &str, _: &str) -> Result<String> {
        not_yet()
    }
    async fn create_setup(&self, _: &str, _: &str) -> Result<Setup> {
        not_yet()
    }
    async fn list_cards(&self, _: &str) -> Result<Vec<Card>> {
        not_yet()
    }
    async fn detach_card(&self, _: &str, _: &str) -> Result<()> {
        not_yet()
    }
    async fn create_intent(&self, _: &NewIntent<'_>, _: &str) -> Result<Intent> {
        not_yet()
    }
    async fn confirm_intent(&self, _: &str, _: &str) -> Result<Intent> {
        not_yet()
    }
    async fn capture_intent(&self, _: &str, _: i64, _: &str) -> Result<Intent> {
        not_yet()
    }
    async fn cancel_intent(&self, _: &str, _: &str) -> Result<Intent> {
        not_yet()
    }
    async fn retrieve_intent(&self, _: &str) -> Result<Intent> {
        not_yet()
    }
    async fn create_refund(&self, _: &str, _: i64, _: &[(&str, &str)], _: &str) -> Result<Refund> {
        not_yet()
    }
    async fn list_refunds(&self, _: &str) -> Result<Vec<Refund>> {
        not_yet()
    }
}
