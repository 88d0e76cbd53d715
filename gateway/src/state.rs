//! What every handler shares: one lazily connected channel per service, the token verifier, the
//! Redis handle and the configuration. Cheap to clone.

use std::{ops::Deref, sync::Arc, time::Duration};

use proto::{
    booking::v1::booking_client::BookingClient, coaching::v1::coaching_client::CoachingClient,
    gym::v1::gym_client::GymClient, identity::v1::identity_client::IdentityClient,
};
use tokio::sync::Semaphore;
use tonic::transport::{Channel, Endpoint};

use crate::{config::Config, extract::Session, memo::Memo, redis_store::RedisStore};

/// How many megabyte-sized reads one gateway serves at a time; more wait their turn.
const BULK_READS: usize = 2;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub config: Config,
    pub verifier: platform::auth::TokenVerifier,
    pub identity: IdentityClient<Channel>,
    pub coaching: CoachingClient<Channel>,
    pub booking: BookingClient<Channel>,
    pub gym: GymClient<Channel>,
    /// The channels again, by service name, for readiness checks.
    pub channels: Vec<(&'static str, Channel)>,
    pub redis: RedisStore,
    /// Answers and names remembered under their change stamps.
    pub memo: Memo,
    /// Permits for the reads whose answers are megabytes (every user).
    pub bulk_reads: Arc<Semaphore>,
}

impl Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

/// A channel that connects on first use, so start order does not matter.
fn channel(url: &str) -> anyhow::Result<Channel> {
    Ok(Endpoint::from_shared(url.to_owned())?
        .connect_timeout(Duration::from_millis(500))
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30))
        .keep_alive_while_idle(true)
        .connect_lazy())
}

impl AppState {
    pub fn new(config: Config) -> anyhow::Result<Self> {
        let verifier = platform::auth::TokenVerifier::from_pem(config.jwt_public_key.as_bytes())?;
        let identity = channel(&config.identity_url)?;
        let coaching = channel(&config.coaching_url)?;
        let booking = channel(&config.booking_url)?;
        let gym = channel(&config.gym_url)?;
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
            config,
        })))
    }

    /// A gRPC request with the deadline, the trace context and, when signed in, the caller's token.
    pub fn request<T>(&self, session: Option<&Session>, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request.set_timeout(self.config.grpc_deadline);
        platform::telemetry::inject(request.metadata_mut());
        if let Some(session) = session
            && let Ok(value) = format!("Bearer {}", session.token).parse()
        {
            request.metadata_mut().insert("authorization", value);
        }
        request
    }
}
