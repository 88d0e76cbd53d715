//! Load shedding: how many requests of a class may be in flight in one gateway before more are
//! answered 503 at once (rather than queued).

use std::{collections::HashMap, sync::Arc};

use axum::{
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// A class of requests with its own limit: password hashing is the scarce resource for sign-in,
/// so it gets few.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Class {
    SignIn,
    Read,
    Write,
}

impl Class {
    fn of(method: &Method, path: &str) -> Class {
        if path == "/auth/login" || path == "/auth/register" {
            Class::SignIn
        } else if method == Method::GET {
            Class::Read
        } else {
            Class::Write
        }
    }

    fn limit(self) -> usize {
        match self {
            Class::SignIn => 64,
            Class::Read => 4096,
            Class::Write => 1024,
        }
    }
}

/// The permits of each class, shared by every route of the class.
#[derive(Default)]
pub struct Limits(HashMap<Class, Arc<Semaphore>>);

impl Limits {
    /// The permits for the route at `operation` (method and path); a write's when unknown.
    pub fn permits(&mut self, operation: Option<&(Method, String)>) -> Arc<Semaphore> {
        let class = operation.map_or(Class::Write, |(method, path)| Class::of(method, path));
        self.0
            .entry(class)
            .or_insert_with(|| Arc::new(Semaphore::new(class.limit())))
            .clone()
    }
}

/// Answers 503 at once when the route's class is at its limit.
pub async fn shed(State(permits): State<Arc<Semaphore>>, request: Request, next: Next) -> Response {
    match permits.try_acquire() {
        Ok(_permit) => next.run(request).await,
        Err(_) => {
            metrics::counter!("http_shed_total").increment(1);
            let mut response = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "Courtside is very busy right now. Please try again in a moment.",
            )
            .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_in_reads_and_writes_are_separate_classes() {
        assert_eq!(Class::of(&Method::POST, "/auth/login"), Class::SignIn);
        assert_eq!(Class::of(&Method::GET, "/coaches"), Class::Read);
        assert_eq!(Class::of(&Method::POST, "/bookings"), Class::Write);
    }

    #[test]
    fn routes_of_one_class_share_their_permits() {
        let mut limits = Limits::default();
        let read = limits.permits(Some(&(Method::GET, "/coaches".into())));
        let other_read = limits.permits(Some(&(Method::GET, "/bookings".into())));
        let sign_in = limits.permits(Some(&(Method::POST, "/auth/login".into())));
        assert!(Arc::ptr_eq(&read, &other_read));
        assert_eq!(sign_in.available_permits(), 64);
    }
}
