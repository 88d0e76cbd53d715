//! What every handler shares: one balanced client transport per service (every endpoint its
//! `*_URL` names, see [`proto::balance`]), the token verifier, the Redis handle and the
//! configuration. Cheap to clone.

use std::{collections::HashMap, future::Future, ops::Deref, sync::Arc, time::Duration};

use proto::{
    balance::{Balanced, Options},
    booking::v1::booking_client::BookingClient,
    coaching::v1::coaching_client::CoachingClient,
    gym::v1::gym_client::GymClient,
    identity::v1::{GetUsersRequest, identity_client::IdentityClient},
    stamps::Context,
};
use rand::Rng;
use tokio::sync::Semaphore;

use crate::{
    config::Config,
    error::{ApiError, upstream},
    extract::Session,
    memo::Memo,
    redis_store::RedisStore,
};

/// How many megabyte-sized reads one gateway serves at a time; more wait their turn.
const BULK_READS: usize = 2;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub config: Config,
    pub verifier: proto::auth::TokenVerifier,
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
    Ok(proto::balance::channel(url, options)?)
}

impl AppState {
    pub fn new(config: Config) -> anyhow::Result<Self> {
        let verifier = proto::auth::TokenVerifier::from_pem(config.jwt_public_key.as_bytes())?;
        // The transports register their per-endpoint series as they are made.
        proto::server::metrics_handle();
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
            config,
        })))
    }

    /// A gRPC request with the deadline, the trace context and, when signed in, the caller's token.
    pub fn request<T>(&self, session: Option<&Session>, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request.set_timeout(self.config.grpc_deadline);
        proto::telemetry::inject(request.metadata_mut());
        if let Some(session) = session
            && let Ok(value) = format!("Bearer {}", session.token).parse()
        {
            request.metadata_mut().insert("authorization", value);
        }
        request
    }
}

/// Full names by user id: those remembered under the current names stamp, the rest from
/// identity-svc in ONE call; ids it does not know are absent.
pub async fn names(
    state: &AppState,
    session: Option<&Session>,
    ids: impl IntoIterator<Item = String>,
) -> Result<HashMap<String, String>, ApiError> {
    let mut user_ids: Vec<String> = ids.into_iter().collect();
    user_ids.sort_unstable();
    user_ids.dedup();
    let mut found = HashMap::with_capacity(user_ids.len());
    let stamp = session.and_then(|s| s.stamps.of(&[Context::Names]));
    if let Some(stamp) = &stamp {
        state.memo.recall_names(stamp, &mut user_ids, &mut found);
    }
    if user_ids.is_empty() {
        return Ok(found);
    }
    let message = GetUsersRequest { user_ids };
    let reply = crate::read!(state, identity.get_users, session, message).await?;
    let read: HashMap<String, String> = reply
        .users
        .into_iter()
        .map(|u| (u.user_id, u.full_name))
        .collect();
    if let Some(stamp) = &stamp {
        state.memo.remember_names(stamp, &read);
    }
    found.extend(read);
    Ok(found)
}

/// Shown where a record names a user whose account no longer exists.
pub const DELETED_USER: &str = "Deleted user";

/// A required message field of a service reply.
pub fn present<T>(service: &'static str, value: Option<T>) -> Result<T, ApiError> {
    value.ok_or_else(|| ApiError::internal(format_args!("{service} reply without its record")))
}

/// Calls an idempotent read, retrying once after a short random pause when the service was
/// unreachable, and maps the outcome to an [`ApiError`] naming `service`.
/// Prefer the [`read!`](crate::read) macro, which builds `call` for one RPC.
pub async fn read<T, F, Fut>(service: &'static str, mut call: F) -> Result<T, ApiError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<tonic::Response<T>, tonic::Status>>,
{
    match call().await {
        Ok(response) => Ok(response.into_inner()),
        Err(status) if status.code() == tonic::Code::Unavailable => {
            let pause = rand::thread_rng().gen_range(20..80);
            tokio::time::sleep(Duration::from_millis(pause)).await;
            call()
                .await
                .map(tonic::Response::into_inner)
                .map_err(upstream(service))
        }
        Err(status) => Err(ApiError::from_grpc(service, status)),
    }
}

/// Calls a write once and maps the outcome to an [`ApiError`] naming `service`.
pub async fn write<T>(
    service: &'static str,
    call: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
) -> Result<T, ApiError> {
    call.await
        .map(tonic::Response::into_inner)
        .map_err(upstream(service))
}

/// An idempotent read of one RPC, retried once when the service was unreachable:
/// `read!(state, identity.get_me, Some(&session), message)`.
#[macro_export]
macro_rules! read {
    ($state:expr, $service:ident . $rpc:ident, $session:expr, $message:expr) => {
        $crate::state::read(stringify!($service), || {
            let mut client = $state.$service.clone();
            let request = $state.request($session, $message.clone());
            async move { client.$rpc(request).await }
        })
    };
}
