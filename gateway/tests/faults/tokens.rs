//! A revoked API token (issue 37) stops at once on every gateway replica, also on one that has
//! just let it through: the revocation is published in Redis, which every replica reads.

use reqwest::{Method, StatusCode};
use serde_json::json;
use uuid::Uuid;

use crate::mesh::{self, Backing, Upstreams};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_token_revoked_through_one_gateway_is_refused_at_once_by_the_other() {
    // Arrange: two gateways on one Redis namespace before identity-svc; a coach's token that
    // reads profiles, used through both (each has confirmed it lately).
    let backing = Backing::new(mesh::REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let coaching = mesh::coaching(&backing).await;
    let config = || {
        mesh::gateway_config(
            &backing,
            Upstreams {
                identity: identity.url(),
                coaching: coaching.url(),
                ..Upstreams::none()
            },
        )
    };
    let gateways = [mesh::gateway(config()).await, mesh::gateway(config()).await];
    let coach = gateways[0].register("coach").await;
    let made = gateways[0]
        .post(
            "/tokens",
            Some(&coach.token),
            json!({"name": "sync", "scopes": ["profile:read"]}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let secret = made.body["token"].as_str().unwrap().to_owned();
    // A coach's profile that does not exist: past the gate, coaching-svc's 404.
    let path = format!("/coach/profile/{}", Uuid::new_v4());
    for gateway in &gateways {
        let reply = gateway.get(&path, Some(&secret)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    }

    // Act: revoked through the first gateway.
    let revoked = gateways[0]
        .call(
            Method::DELETE,
            &format!("/tokens/{}", made.body["token_id"].as_str().unwrap()),
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(revoked.status, StatusCode::NO_CONTENT, "{}", revoked.body);

    // Assert: the very next request, through the second, is refused.
    let reply = gateways[1].get(&path, Some(&secret)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.body);
    assert!(reply.detail().contains("revoked"), "{}", reply.body);
}
