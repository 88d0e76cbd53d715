//! Change stamps: how a gateway knows that a response it remembers is still current.
//!
//! Each context whose reads the gateway remembers keeps a stamp in Redis,
//! `{namespace}:stamp:{context}`: a random value its owner replaces after every change it
//! commits, and once when it starts (the data may have changed while it was down). A response
//! rendered after reading its stamps reflects every change made before they were set, so it may
//! be served again for as long as they read the same. The values are random rather than counted:
//! a Redis that restarts empty and counts from 1 again could hand a new change an old stamp.
//!
//! Like the revocation cache, a stamp is written after the commit and at best effort: a gateway
//! that finds no stamp (Redis down, or restarted) remembers nothing until one is set again, and
//! what it remembers it forgets after a short while anyway, which bounds how stale a response
//! can be when a write to Redis is lost.

use std::fmt;

use rand::Rng;

use crate::redis_link::{RedisDown, RedisLink};

/// A context whose reads a gateway may remember.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// Coach profiles, locations, slots and the directory (coaching-svc).
    Coaching,
    /// Gyms, their locations, courts and court availability (gym-svc).
    Gym,
    /// Users' full names (identity-svc), which responses of other contexts show.
    Names,
}

impl Context {
    /// Every context, in the order a [`Context`]'s stamps are read together.
    pub const ALL: [Context; 3] = [Context::Coaching, Context::Gym, Context::Names];

    pub fn as_str(self) -> &'static str {
        match self {
            Context::Coaching => "coaching",
            Context::Gym => "gym",
            Context::Names => "names",
        }
    }
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The Redis key of a context's stamp.
pub fn key(namespace: &str, context: Context) -> String {
    format!("{namespace}:stamp:{context}")
}

/// A new stamp value.
pub fn fresh() -> String {
    format!("{:016x}", rand::thread_rng().r#gen::<u64>())
}

/// The stamp of one context, as its owner writes it. Cheap to clone.
#[derive(Clone)]
pub struct Stamp {
    link: RedisLink,
    context: Context,
    key: String,
}

impl Stamp {
    pub fn new(link: RedisLink, namespace: &str, context: Context) -> Self {
        Self {
            link,
            context,
            key: key(namespace, context),
        }
    }

    /// Replaces the stamp: call once a change has committed, before answering.
    pub async fn renew(&self) {
        let (key, value) = (self.key.clone(), fresh());
        let result = self
            .link
            .run(|mut conn| async move {
                redis::cmd("SET")
                    .arg(key)
                    .arg(value)
                    .query_async::<()>(&mut conn)
                    .await
            })
            .await;
        if let Err(error) = result {
            tracing::warn!(%error, context = %self.context,
                "change stamp not renewed; gateways may serve what they remember until it ages out");
        }
    }

    /// The stamp as it reads now; `None` when it is not set (Redis restarted empty), and then
    /// nothing may be remembered under it.
    pub async fn current(&self) -> Result<Option<String>, RedisDown> {
        let key = self.key.clone();
        self.link
            .run(|mut conn| async move { redis::cmd("GET").arg(key).query_async(&mut conn).await })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_differ_every_time() {
        let stamps: std::collections::HashSet<String> = (0..100).map(|_| fresh()).collect();
        assert_eq!(stamps.len(), 100);
    }
}
