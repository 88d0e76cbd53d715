//! coaching-svc made slow past the deadline: the gateway's coaching channel leads to a listener
//! that accepts connections, reads what it is sent and never answers.

use std::time::Duration;

use reqwest::StatusCode;
use tokio::{io::AsyncReadExt, net::TcpListener};

use crate::mesh::{self, Backing, Upstreams};

const DEADLINE: Duration = Duration::from_millis(500);
/// A read that fails by deadline is not retried (only an unreachable service is); the margin is
/// room for a busy test machine, far below the gateway's 15 s last-resort timeout.
const ANSWER_WITHIN: Duration = Duration::from_millis(2 * 500 + 1500);

/// A peer that takes every connection and every byte and never says a word. Returns its URL.
async fn silent_peer() -> String {
    let listener = TcpListener::bind(mesh::any_port()).await.expect("a free port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut sink = [0_u8; 4096];
                while matches!(socket.read(&mut sink).await, Ok(n) if n > 0) {}
            });
        }
    });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_service_that_never_answers_is_a_503_naming_it_within_the_deadline_while_other_routes_work() {
    // Arrange: a real identity-svc; coaching-svc is a silent peer.
    let backing = Backing::new(mesh::REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let client = mesh::registered(&backing, identity.url(), "client").await;
    let mut config = mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            coaching: silent_peer().await,
            ..Upstreams::none()
        },
    );
    config.grpc_deadline = DEADLINE;
    let gateway = mesh::gateway(config).await;

    // Act: several directory reads hang on coaching while the client reads their own account.
    let directory = futures::future::join_all((0..4).map(|_| gateway.get("/coaches", None)));
    let me = gateway.get("/auth/me", Some(&client.token));
    let (directory, me) = tokio::join!(directory, me);

    // Assert
    for reply in &directory {
        assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{}", reply.body);
        assert!(
            reply.detail().contains("coaching"),
            "the 503 names coaching: {}",
            reply.body
        );
        assert!(
            reply.took <= ANSWER_WITHIN,
            "answered within the deadline and a margin, not {:?}",
            reply.took
        );
    }
    assert_eq!(
        me.status,
        StatusCode::OK,
        "other routes keep working: {}",
        me.body
    );
    assert_eq!(me.body["user_id"], client.id.as_str());
}
