//! Webhooks that must not be (issue 37): URLs that are not https or reach inside the network
//! (SSRF), redirects, unknown kinds, too many webhooks, a client, another person's webhook.

use platform::events::Event;
use proto::identity::v1 as pb;
use tonic::Code;

use crate::{
    helpers::{REDIS_URL, TestApp, authed, config, eventually, fresh_database, refused},
    webhooks_receiver::{Receiver, booking, envelope, id, log, subscribe},
};

async fn create(
    app: &TestApp,
    token: &str,
    url: &str,
    kinds: &[&str],
) -> Result<pb::CreateWebhookResponse, tonic::Status> {
    app.client()
        .create_webhook(authed(
            pb::CreateWebhookRequest {
                url: url.into(),
                event_types: kinds.iter().map(|k| (*k).to_owned()).collect(),
                description: String::new(),
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn urls_inside_the_network_or_not_https_are_refused_without_the_loopback_setting() {
    let mut settings = config(&fresh_database().await, REDIS_URL);
    settings.outreach.webhooks.allow_loopback = false;
    let app = TestApp::start_with(settings).await;
    let (token, _) = app.register("coach").await;
    for (url, why) in [
        ("http://93.184.216.34/hooks", "https://"),
        ("https://10.1.2.3/hooks", "private"),
        ("https://192.168.0.10/hooks", "private"),
        ("https://169.254.169.254/latest/meta-data", "private"),
        ("https://[::1]/hooks", "private"),
        ("https://127.0.0.1/hooks", "private"),
        ("https://localhost/hooks", "private"),
        ("ftp://93.184.216.34/", "https://"),
    ] {
        let detail = refused(
            create(&app, &token, url, &["booking.created"]).await,
            Code::InvalidArgument,
        );
        assert!(detail.contains(why), "{url}: {detail}");
    }
    create(&app, &token, "https://93.184.216.34/hooks", &["booking.created"])
        .await
        .expect("a public address over https");
}

#[tokio::test]
async fn a_name_that_resolves_inside_the_network_at_delivery_time_is_refused_then() {
    let mut settings = config(&fresh_database().await, REDIS_URL);
    settings.outreach.webhooks.allow_loopback = false;
    let app = TestApp::start_with(settings).await;
    let receiver = Receiver::start().await;
    let (token, coach) = app.register("coach").await;
    let (_, client) = app.register("client").await;
    let made = create(&app, &token, "https://93.184.216.34/hooks", &["booking.created"])
        .await
        .expect("a public address");
    let hook = made.webhook.expect("a webhook").webhook_id;
    // The name pointed elsewhere when it was saved (DNS rebinding): now it is loopback.
    let rebound = format!("https://localhost:{}/in", receiver.addr.port());
    sqlx::query("update identity.webhook set url = $1")
        .bind(&rebound)
        .execute(&app.db)
        .await
        .unwrap();
    app.publish(&envelope(Event::BookingRequested {
        booking: booking(id(&coach), id(&client)),
    }))
    .await;
    let attempt = eventually("the attempt logged", || async {
        log(&app, &token, &hook)
            .await
            .into_iter()
            .find_map(|d| d.attempts.into_iter().next())
    })
    .await;
    assert_eq!(attempt.status_code, None);
    assert!(attempt.error.contains("no public address"), "{}", attempt.error);
    assert!(receiver.received().is_empty());
}

#[tokio::test]
async fn the_loopback_setting_lets_loopback_and_http_through_and_nothing_else() {
    let app = TestApp::start().await;
    let (token, _) = app.register("gym").await;
    create(
        &app,
        &token,
        "http://127.0.0.1:9/hooks",
        &["court_request.created"],
    )
    .await
    .expect("loopback over http, in tests");
    for url in [
        "https://10.0.0.1/",
        "http://169.254.169.254/",
        "https://[fd00::1]/",
    ] {
        refused(
            create(&app, &token, url, &["court_request.created"]).await,
            Code::InvalidArgument,
        );
    }
}

#[tokio::test]
async fn a_redirect_is_not_followed_but_logged_as_a_failure() {
    let app = TestApp::start().await;
    let receiver = Receiver::start().await;
    let (token, coach) = app.register("coach").await;
    let (_, client) = app.register("client").await;
    let (hook, _) = subscribe(&app, &token, &receiver.url("redirect"), &["booking.created"]).await;
    app.publish(&envelope(Event::BookingRequested {
        booking: booking(id(&coach), id(&client)),
    }))
    .await;
    let attempt = eventually("the attempt logged", || async {
        log(&app, &token, &hook)
            .await
            .into_iter()
            .find_map(|d| d.attempts.into_iter().next())
    })
    .await;
    assert_eq!(attempt.status_code, Some(302));
    assert!(
        attempt.error.contains("redirects are not followed"),
        "{}",
        attempt.error
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(receiver.received().is_empty(), "/target was never called");
}

#[tokio::test]
async fn kinds_limits_roles_and_owners_are_enforced() {
    let app = TestApp::start().await;
    let (token, _) = app.register("coach").await;
    let (other, _) = app.register("coach").await;
    let (client, _) = app.register("client").await;
    let url = "https://93.184.216.34/hooks";

    let detail = refused(
        create(&app, &token, url, &["booking.exploded"]).await,
        Code::InvalidArgument,
    );
    assert!(detail.contains("booking.exploded"), "{detail}");
    refused(create(&app, &token, url, &[]).await, Code::InvalidArgument);
    refused(
        create(&app, &client, url, &["booking.created"]).await,
        Code::PermissionDenied,
    );

    let made = create(&app, &token, url, &["booking.created", "booking.created"])
        .await
        .expect("a webhook");
    let hook = made.webhook.expect("a webhook");
    assert_eq!(hook.event_types, vec!["booking.created"], "each kind once");
    assert!(hook.enabled);
    assert!(made.secret.starts_with("whsec_"));
    for _ in 1..10 {
        create(&app, &token, url, &["booking.created"])
            .await
            .expect("up to ten");
    }
    let detail = refused(
        create(&app, &token, url, &["booking.created"]).await,
        Code::AlreadyExists,
    );
    assert!(detail.contains("10 webhooks"), "{detail}");

    // Another person's webhook is not found, whatever is asked of it.
    let theirs = hook.webhook_id.clone();
    let mut c = app.client();
    refused(
        c.delete_webhook(authed(
            pb::DeleteWebhookRequest {
                webhook_id: theirs.clone(),
            },
            &other,
        ))
        .await,
        Code::NotFound,
    );
    refused(
        c.test_webhook(authed(
            pb::TestWebhookRequest {
                webhook_id: theirs.clone(),
            },
            &other,
        ))
        .await,
        Code::NotFound,
    );
    refused(
        c.list_webhook_deliveries(authed(
            pb::ListWebhookDeliveriesRequest {
                webhook_id: theirs.clone(),
                ..Default::default()
            },
            &other,
        ))
        .await,
        Code::NotFound,
    );
    refused(
        c.rotate_webhook_secret(authed(
            pb::RotateWebhookSecretRequest {
                webhook_id: theirs.clone(),
            },
            &other,
        ))
        .await,
        Code::NotFound,
    );
    let listed = c
        .list_webhooks(authed(pb::ListWebhooksRequest {}, &other))
        .await
        .expect("ListWebhooks")
        .into_inner();
    assert!(listed.webhooks.is_empty());

    c.delete_webhook(authed(pb::DeleteWebhookRequest { webhook_id: theirs }, &token))
        .await
        .expect("the owner deletes it");
    let listed = c
        .list_webhooks(authed(pb::ListWebhooksRequest {}, &token))
        .await
        .expect("ListWebhooks")
        .into_inner();
    assert_eq!(listed.webhooks.len(), 9);
}
