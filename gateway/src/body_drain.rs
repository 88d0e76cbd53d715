//! A refused request's body is read to its end before the refusal is sent, so the client (or
//! nginx, which sends a buffered body with `sendfile`) always gets to read the answer.
//!
//! The body limits ([`crate::BODY_LIMIT`], [`crate::uploads::BODY_LIMIT`]) refuse a body that is
//! too large as soon as its `Content-Length` says so, and an unauthorised request never reads its
//! body at all. Answering then and closing leaves the rest of the body unread: the peer's write
//! fails with a broken pipe or the connection is reset under the answer, and nginx turns that into
//! a 503 of its own. This layer keeps a handle on the body the handler was given and, when the
//! answer is a 4xx, reads what is left (at most [`DRAIN_MAX`] bytes within [`DRAIN_WITHIN`]; a
//! body larger or slower than that is left to the connection's close). hyper does not drain on
//! its own, hence this small layer.

use std::{
    pin::Pin,
    sync::{Arc, Mutex},
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    body::{Body, Bytes, HttpBody},
    extract::Request,
    middleware::Next,
    response::Response,
};
use futures::{Stream, StreamExt};

/// The most a refused body is read for: above the largest accepted body (6 MB), and what a
/// 2 MB JSON body or a rejected 8 MB picture needs.
pub const DRAIN_MAX: u64 = 16 * 1024 * 1024;
/// How long a refused body may take to arrive before the answer goes anyway.
pub const DRAIN_WITHIN: Duration = Duration::from_secs(10);

type Shared = Arc<Mutex<Option<Body>>>;

/// The request body's data as the handler reads it, while this layer keeps what the handler
/// leaves.
struct Kept(Shared);

impl Stream for Kept {
    type Item = Result<Bytes, axum::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut kept = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(body) = kept.as_mut() else {
            return Poll::Ready(None);
        };
        loop {
            let frame = match Pin::new(&mut *body).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(Some(Ok(frame))) => frame,
            };
            // Trailers are skipped: no handler here reads them.
            if let Ok(data) = frame.into_data() {
                return Poll::Ready(Some(Ok(data)));
            }
        }
    }
}

/// Reads the rest of a refused request's body before its 4xx answer leaves.
pub async fn drain_refused(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let shared: Shared = Arc::new(Mutex::new(Some(body)));
    let request = Request::from_parts(parts, Body::from_stream(Kept(shared.clone())));
    let response = next.run(request).await;
    if response.status().is_client_error() {
        let rest = shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        if let Some(rest) = rest
            && !rest.is_end_stream()
        {
            let _ = tokio::time::timeout(DRAIN_WITHIN, drain(rest)).await;
        }
    }
    response
}

/// Reads and drops up to [`DRAIN_MAX`] bytes of `body`.
async fn drain(body: Body) {
    let mut data = body.into_data_stream();
    let mut read = 0u64;
    while read <= DRAIN_MAX {
        match data.next().await {
            Some(Ok(chunk)) => read += chunk.len() as u64,
            _ => return,
        }
    }
}
