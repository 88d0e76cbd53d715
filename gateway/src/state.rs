//! What every handler shares: one balanced client transport per service (every endpoint its
//! `*_URL` names, see [`platform::balance`]), the token verifier, the Redis handle and the
//! configuration. Cheap to clone.

use std::{ops::Deref, sync::Arc};

use platform::balance::{Balanced, Options};
use proto::{
    booking::v1::booking_client::BookingClient, coaching::v1::coaching_client::CoachingClient,
    gym::v1::gym_client::GymClient, identity::v1::identity_client::IdentityClient,
};
use tokio::sync::Semaphore;

use crate::{config::Config, extract::Session, memo::Memo, redis_store::RedisStore};

/// How many megabyte-sized reads one gateway serves at a time; more wait their turn.
const BULK_READS: usize = 2;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub config: Config,
    pub verifier: platform::auth::TokenVerifier,
    pub identity: IdentityClient<Balanced>,
    pub coaching: CoachingClient<Balanced>,
    pub booking: BookingClient<Balanced>,
    pub gym: GymClient<Balanced>,
    /// The transports again, by service name, for readiness checks.
    pub channels: Vec<(&'static str, Balanced)>,
    pub redis: RedisStore,
    /// Answers and names remembered under their change stamps.
    pub memo: Memo,
    /// Permits for the reads whose answers are megabytes (every user).
    pub bulk_reads: Arc<Semaphore>,
    /// This replica's subscription to new notifications, for the open streams.
    pub live: crate::live::Hub,
    /// Live streams and uploads per person, counted over every replica.
    pub limits: crate::limits::PersonLimits,
}

impl Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

/// A transport over every endpoint `url` names; each connects on first use, so start order does
/// not matter.
fn channel(service: &'static str, url: &str, config: &Config) -> anyhow::Result<Balanced> {
    let options = Options::new(service).resolve_interval(config.grpc_resolve_interval);
    let options = match &config.resolver {
        Some(resolver) => Options {
            resolver: resolver.clone(),
            ..options
        },
        None => options,
    };
    Ok(platform::balance::channel(url, options)?)
}

impl AppState {
    pub fn new(config: Config) -> anyhow::Result<Self> {
        let verifier = platform::auth::TokenVerifier::from_pem(config.jwt_public_key.as_bytes())?;
        // The transports register their per-endpoint series as they are made.
        platform::ops::metrics_handle();
        let identity = channel("identity", &config.identity_url, &config)?;
        let coaching = channel("coaching", &config.coaching_url, &config)?;
        let booking = channel("booking", &config.booking_url, &config)?;
        let gym = channel("gym", &config.gym_url, &config)?;
        let redis = RedisStore::new(&config.redis_url, config.redis_namespace.clone())?;
        Ok(Self(Arc::new(Inner {
            verifier,
            identity: IdentityClient::new(identity.clone()),
            coaching: CoachingClient::new(coaching.clone()),
            booking: BookingClient::new(booking.clone()),
            gym: GymClient::new(gym.clone()),
            channels: vec![
                ("identity", identity),
                ("coaching", coaching),
                ("booking", booking),
                ("gym", gym),
            ],
            redis,
            memo: Memo::default(),
            bulk_reads: Arc::new(Semaphore::new(BULK_READS)),
            live: crate::live::Hub::new(&config.redis_url, &config.redis_namespace)?,
            limits: crate::limits::PersonLimits::new(
                &config.redis_url,
                &config.redis_namespace,
                config.live_streams_per_user,
                config.uploads_per_user_per_day,
            )?,
            config,
        })))
    }

    /// A gRPC request with the deadline, the trace context, when signed in the caller's token, and
    /// for a write its request id and its idempotency key when it has one.
    pub fn request<T>(&self, session: Option<&Session>, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request.set_timeout(self.config.grpc_deadline);
        platform::telemetry::inject(request.metadata_mut());
        if let Some(session) = session
            && let Ok(value) = format!("Bearer {}", session.token).parse()
        {
            request.metadata_mut().insert("authorization", value);
        }
        // The request's idempotency key, for a service that keeps it with what it writes.
        if let Some(key) = crate::idempotency::current()
            && let Ok(value) = key.parse()
        {
            request.metadata_mut().insert(crate::idempotency::METADATA, value);
        }
        if let Some(id) = crate::idempotency::request_id()
            && let Ok(value) = id.parse()
        {
            request.metadata_mut().insert("x-request-id", value);
        }
        request
    }
}
