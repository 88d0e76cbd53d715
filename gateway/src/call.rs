//! How handlers call the services: [`read!`] for an idempotent read, [`write!`] for a write, both
//! written the same way (`call::read!(state, service.rpc, session, message)`) and both answering
//! the reply or an [`ApiError`] naming the service. A read is retried once when the service was
//! unreachable; a write is never retried (it may have been applied).

use std::{future::Future, time::Duration};

use rand::Rng;

use crate::error::{ApiError, upstream};

/// A required message field of a service reply.
pub fn present<T>(service: &'static str, value: Option<T>) -> Result<T, ApiError> {
    value.ok_or_else(|| ApiError::internal(format_args!("{service} reply without its record")))
}

/// Calls an idempotent read, retrying once after a short random pause when the service was
/// unreachable, and maps the outcome to an [`ApiError`] naming `service`.
/// Prefer the [`read!`] macro, which builds `call` for one RPC.
pub async fn read_call<T, F, Fut>(service: &'static str, mut call: F) -> Result<T, ApiError>
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
/// Prefer the [`write!`] macro, which builds `call` for one RPC.
pub async fn write_call<T>(
    service: &'static str,
    call: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
) -> Result<T, ApiError> {
    call.await
        .map(tonic::Response::into_inner)
        .map_err(upstream(service))
}

/// An idempotent read of one RPC, retried once when the service was unreachable:
/// `call::read!(state, identity.get_me, Some(&session), message)`.
macro_rules! read {
    ($state:expr, $service:ident . $rpc:ident, $session:expr, $message:expr) => {
        $crate::call::read_call(stringify!($service), || {
            let mut client = $state.$service.clone();
            let request = $state.request($session, $message.clone());
            async move { client.$rpc(request).await }
        })
    };
}

/// A write of one RPC, made once:
/// `call::write!(state, coaching.create_slot, Some(&session), message)`.
macro_rules! write {
    ($state:expr, $service:ident . $rpc:ident, $session:expr, $message:expr) => {
        $crate::call::write_call(stringify!($service), {
            let mut client = $state.$service.clone();
            let request = $state.request($session, $message);
            async move { client.$rpc(request).await }
        })
    };
}

pub(crate) use {read, write};
