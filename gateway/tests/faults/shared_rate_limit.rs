//! The sign-in rate limit is counted in Redis, so two gateway replicas share one count.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::{StatusCode, header::RETRY_AFTER};
use serde_json::json;

use crate::mesh::{self, Backing, Upstreams};

const PER_MINUTE: u32 = 5;

/// Waits for the next minute when this one is nearly over: the counter's window is the calendar
/// minute, and the attempts of one test must fall in one window.
async fn a_fresh_enough_minute() {
    let second = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
        % 60;
    if second >= 40 {
        tokio::time::sleep(Duration::from_secs(61 - second)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_sixth_sign_in_attempt_from_one_address_is_refused_whichever_of_two_gateways_answers() {
    // Arrange: two gateways on one Redis namespace, five attempts per address per minute.
    let backing = Backing::new(mesh::REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let config = || {
        let mut config = mesh::gateway_config(
            &backing,
            Upstreams {
                identity: identity.url(),
                ..Upstreams::none()
            },
        );
        config.auth_rate_limit_per_minute = PER_MINUTE;
        config
    };
    let gateways = [mesh::gateway(config()).await, mesh::gateway(config()).await];
    let attempt = json!({"email": "someone@faults.test", "password": "a guess"});
    a_fresh_enough_minute().await;

    // Act: attempts alternate between the two gateways.
    let mut replies = Vec::new();
    for n in 0..PER_MINUTE as usize + 2 {
        replies.push(gateways[n % 2].post("/auth/login", None, attempt.clone()).await);
    }

    // Assert: five are let through (and refused as wrong), the sixth and seventh are limited,
    // the sixth by the gateway that saw only two attempts itself.
    for (n, reply) in replies.iter().enumerate().take(PER_MINUTE as usize) {
        assert_eq!(
            reply.status,
            StatusCode::UNAUTHORIZED,
            "attempt {}: {}",
            n + 1,
            reply.body
        );
    }
    for (n, reply) in replies.iter().enumerate().skip(PER_MINUTE as usize) {
        assert_eq!(
            reply.status,
            StatusCode::TOO_MANY_REQUESTS,
            "attempt {} on gateway {}: {}",
            n + 1,
            n % 2,
            reply.body
        );
        let retry_after: u64 = reply
            .headers
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
            .expect("a Retry-After in seconds");
        assert!((1..=60).contains(&retry_after), "Retry-After: {retry_after}");
        assert!(!reply.detail().is_empty(), "a 429 says what to do");
    }
}
