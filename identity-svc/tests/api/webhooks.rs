//! Webhooks (issue 37): events of the stream reach a receiver on 127.0.0.1 (the tests' setting
//! allows loopback) signed as Standard Webhooks says, once per id, in order per record, retried
//! after a 500 as the clock moves, replayed with the same id, never another person's; a webhook
//! failing for a day is disabled and its owner emailed; a lapsed lease is taken over.

use chrono::{Duration, Utc};
use platform::{
    clock::{Clock, ManualClock},
    events::{Event, Party, ReviewFact},
};
use proto::identity::v1 as pb;
use uuid::Uuid;

use crate::{
    helpers::{TestApp, authed, eventually},
    webhooks_receiver::{Received, Receiver, booking, envelope, id, log, reservation, subscribe},
};

#[tokio::test]
async fn each_subscriber_gets_its_own_events_signed_once_per_id_and_in_order() {
    let app = TestApp::start().await;
    let receiver = Receiver::start().await;
    let (coach_token, coach) = app.register("coach").await;
    let (_, other_coach) = app.register("coach").await;
    let (gym_token, gym) = app.register("gym").await;
    let (_, client) = app.register("client").await;
    let (admin_token, _) = app.admin().await;
    let (coach_hook, coach_secret) = subscribe(
        &app,
        &coach_token,
        &receiver.url("coach"),
        &["booking.created", "booking.confirmed", "booking.rescheduled"],
    )
    .await;
    let (_, gym_secret) = subscribe(&app, &gym_token, &receiver.url("gym"), &["court_request.created"]).await;
    let (_, admin_secret) = subscribe(&app, &admin_token, &receiver.url("admin"), &["booking.created"]).await;

    let mine = booking(id(&coach), id(&client));
    let requested = envelope(Event::BookingRequested {
        booking: mine.clone(),
    });
    let confirmed = envelope(Event::BookingConfirmed {
        booking: mine.clone(),
    });
    let mut moved = mine.clone();
    moved.rescheduled_to = Some(Uuid::new_v4());
    let rescheduled = envelope(Event::BookingCancelled {
        booking: moved,
        by: Party::Client,
        reason: None,
        late: false,
    });
    let theirs = envelope(Event::BookingRequested {
        booking: booking(id(&other_coach), id(&client)),
    });
    let court = envelope(Event::ReservationRequested {
        reservation: reservation(id(&coach), id(&gym)),
    });
    for e in [&requested, &theirs, &requested, &confirmed, &court, &rescheduled] {
        app.publish(e).await;
    }

    // coach: 3 of theirs; gym: 1; admin: 2 creations (the coach's and the other coach's).
    receiver.wait_for(6).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let got = receiver.received();
    let at = |path: &str| -> Vec<Received> { got.iter().filter(|r| r.path == path).cloned().collect() };

    let coach_got = at("/coach");
    let ids: Vec<&str> = coach_got.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        [requested.event_id, confirmed.event_id, rescheduled.event_id]
            .map(|i| i.to_string())
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        "once each, in the order of the record's events"
    );
    assert!(coach_got.iter().all(|r| r.signed_by(&coach_secret)));
    assert!(!coach_got[0].signed_by(&gym_secret));
    let body = coach_got[0].json();
    assert_eq!(body["type"], "booking.created");
    assert_eq!(body["id"], requested.event_id.to_string());
    assert_eq!(body["timestamp"], requested.occurred_at);
    assert_eq!(body["data"]["booking_id"], mine.booking_id.to_string());
    assert_eq!(body["data"]["status"], "pending");
    assert_eq!(coach_got[1].json()["data"]["status"], "confirmed");
    assert_eq!(coach_got[2].kind(), "booking.rescheduled");
    assert_eq!(coach_got[2].json()["data"]["by"], "client");

    let gym_got = at("/gym");
    assert_eq!(gym_got.len(), 1);
    assert_eq!(gym_got[0].kind(), "court_request.created");
    assert!(gym_got[0].signed_by(&gym_secret));

    let admin_got = at("/admin");
    assert_eq!(admin_got.len(), 2, "an admin sees every creation");
    assert!(admin_got.iter().all(|r| r.signed_by(&admin_secret)));

    let logged = log(&app, &coach_token, &coach_hook).await;
    assert_eq!(logged.len(), 3);
    assert!(
        logged
            .iter()
            .all(|d| d.status == "delivered" && d.attempts.len() == 1)
    );
    assert_eq!(logged[0].event_type, "booking.rescheduled", "newest first");
    assert_eq!(logged[2].attempts[0].status_code, Some(200));
    assert!(logged[2].next_attempt_at.is_none());
}

#[tokio::test]
async fn a_failed_delivery_is_retried_with_its_id_and_holds_back_the_records_later_events() {
    let clock = ManualClock::at(Utc::now());
    let app = TestApp::start_with_clock(clock.clone()).await;
    let receiver = Receiver::start().await;
    let (token, coach) = app.register("coach").await;
    let (_, client) = app.register("client").await;
    let (hook, secret) = subscribe(
        &app,
        &token,
        &receiver.url("in"),
        &["booking.created", "booking.confirmed"],
    )
    .await;
    receiver.answer(500);

    let b = booking(id(&coach), id(&client));
    let requested = envelope(Event::BookingRequested { booking: b.clone() });
    let confirmed = envelope(Event::BookingConfirmed { booking: b });
    app.publish(&requested).await;
    receiver.wait_for(1).await;
    app.publish(&confirmed).await;
    let pending = eventually("both deliveries logged", || async {
        let logged = log(&app, &token, &hook).await;
        (logged.len() == 2).then_some(logged)
    })
    .await;
    // The confirmation waits behind the failed creation; the creation waits 5 s of the clock.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(receiver.received().len(), 1);
    let first = &pending[1];
    assert_eq!(first.status, "pending");
    assert_eq!(first.attempts.len(), 1);
    assert_eq!(first.attempts[0].status_code, Some(500));
    assert!(first.attempts[0].error.contains("500"));
    assert!(first.next_attempt_at.is_some());

    receiver.answer(200);
    clock.advance(Duration::seconds(6));
    let got = receiver.wait_for(3).await;
    let ids: Vec<String> = got.iter().map(|r| r.id.clone()).collect();
    assert_eq!(
        ids,
        [requested.event_id, requested.event_id, confirmed.event_id].map(|i| i.to_string())
    );
    assert!(got.iter().all(|r| r.signed_by(&secret)));
    let logged = log(&app, &token, &hook).await;
    assert_eq!(logged[1].attempts.len(), 2, "the creation's two attempts");
    assert_eq!(logged[1].attempts[1].status_code, Some(200));
    assert_eq!(logged[1].status, "delivered");
}

#[tokio::test]
async fn a_replay_and_the_test_button_send_again_with_the_right_ids() {
    let app = TestApp::start().await;
    let receiver = Receiver::start().await;
    let (token, coach) = app.register("coach").await;
    let (_, client) = app.register("client").await;
    let (hook, secret) = subscribe(&app, &token, &receiver.url("in"), &["booking.created"]).await;
    let event = envelope(Event::BookingRequested {
        booking: booking(id(&coach), id(&client)),
    });
    app.publish(&event).await;
    receiver.wait_for(1).await;
    let original = eventually("the delivery logged as delivered", || async {
        log(&app, &token, &hook)
            .await
            .into_iter()
            .find(|d| d.status == "delivered")
    })
    .await;

    let replayed = app
        .client()
        .replay_webhook_delivery(authed(
            pb::ReplayWebhookDeliveryRequest {
                webhook_id: hook.clone(),
                delivery_id: original.delivery_id.clone(),
            },
            &token,
        ))
        .await
        .expect("ReplayWebhookDelivery")
        .into_inner()
        .delivery
        .expect("a delivery");
    assert_ne!(replayed.delivery_id, original.delivery_id);
    assert_eq!(replayed.event_id, event.event_id.to_string());
    let got = receiver.wait_for(2).await;
    assert_eq!(
        got[1].id,
        event.event_id.to_string(),
        "a replay keeps the event's id"
    );
    assert_eq!(got[1].body, got[0].body);
    assert!(got[1].signed_by(&secret));

    let tested = app
        .client()
        .test_webhook(authed(
            pb::TestWebhookRequest {
                webhook_id: hook.clone(),
            },
            &token,
        ))
        .await
        .expect("TestWebhook")
        .into_inner()
        .delivery
        .expect("a delivery");
    assert_eq!(tested.event_type, "webhook.test");
    let got = receiver.wait_for(3).await;
    assert_eq!(got[2].kind(), "webhook.test");
    assert_eq!(got[2].id, tested.event_id);
    assert!(got[2].signed_by(&secret));

    // A rotation: both secrets sign for a day.
    let rotated = app
        .client()
        .rotate_webhook_secret(authed(
            pb::RotateWebhookSecretRequest {
                webhook_id: hook.clone(),
            },
            &token,
        ))
        .await
        .expect("RotateWebhookSecret")
        .into_inner();
    assert!(rotated.secret.starts_with("whsec_"));
    assert_ne!(rotated.secret, secret);
    app.client()
        .test_webhook(authed(
            pb::TestWebhookRequest {
                webhook_id: hook.clone(),
            },
            &token,
        ))
        .await
        .expect("TestWebhook");
    let got = receiver.wait_for(4).await;
    assert!(got[3].signed_by(&secret) && got[3].signed_by(&rotated.secret));
    assert_eq!(got[3].signature.split(' ').count(), 2);

    // The log pages newest first.
    let page = app
        .client()
        .list_webhook_deliveries(authed(
            pb::ListWebhookDeliveriesRequest {
                webhook_id: hook.clone(),
                limit: 3,
                after: String::new(),
            },
            &token,
        ))
        .await
        .expect("a page")
        .into_inner();
    assert_eq!(page.deliveries.len(), 3);
    assert!(!page.next.is_empty());
    let rest = app
        .client()
        .list_webhook_deliveries(authed(
            pb::ListWebhookDeliveriesRequest {
                webhook_id: hook.clone(),
                limit: 3,
                after: page.next,
            },
            &token,
        ))
        .await
        .expect("the next page")
        .into_inner();
    assert_eq!(rest.deliveries.len(), 1);
    assert_eq!(rest.deliveries[0].delivery_id, original.delivery_id);
    assert!(rest.next.is_empty());
}

#[tokio::test]
async fn a_webhook_failing_for_a_day_is_disabled_and_its_owner_emailed_once() {
    let clock = ManualClock::at(Utc::now());
    let app = TestApp::start_with_clock(clock.clone()).await;
    let receiver = Receiver::start().await;
    let (token, coach) = app.register("coach").await;
    let (_, client) = app.register("client").await;
    let (hook, _) = subscribe(&app, &token, &receiver.url("in"), &["booking.created"]).await;
    receiver.answer(500);
    app.publish(&envelope(Event::BookingRequested {
        booking: booking(id(&coach), id(&client)),
    }))
    .await;
    receiver.wait_for(1).await;

    // Within the day: tried again, still enabled.
    clock.advance(Duration::hours(12));
    receiver.wait_for(2).await;
    let listed = |app: &TestApp| {
        let token = token.clone();
        let mut client = app.client();
        async move {
            client
                .list_webhooks(authed(pb::ListWebhooksRequest {}, &token))
                .await
                .expect("ListWebhooks")
                .into_inner()
                .webhooks
        }
    };
    assert!(listed(&app).await[0].enabled);

    clock.advance(Duration::hours(13));
    let disabled = eventually("the webhook disabled", || async {
        listed(&app).await.into_iter().find(|w| !w.enabled)
    })
    .await;
    assert!(
        disabled.disabled_reason.contains("failed for a day"),
        "{}",
        disabled.disabled_reason
    );
    let letters: Vec<(String, String)> = sqlx::query_as(
        "select to_address, text_body from identity.mail where subject = 'Your webhook was disabled'",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert_eq!(letters.len(), 1);
    assert_eq!(letters[0].0, coach.email);
    assert!(letters[0].1.contains(&receiver.url("in")));

    // Disabled: nothing more is tried, whatever the clock says.
    let tried = receiver.received().len();
    clock.advance(Duration::hours(2));
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(receiver.received().len(), tried);

    // Enabled again with a working receiver: the waiting delivery goes.
    receiver.answer(200);
    app.client()
        .update_webhook(authed(
            pb::UpdateWebhookRequest {
                webhook_id: hook.clone(),
                url: receiver.url("in"),
                event_types: vec!["booking.created".into()],
                description: String::new(),
                enabled: true,
            },
            &token,
        ))
        .await
        .expect("UpdateWebhook");
    receiver.wait_for(tried + 1).await;
    let webhook = listed(&app).await.remove(0);
    assert!(webhook.enabled && webhook.disabled_reason.is_empty());
}

#[tokio::test]
async fn a_delivery_whose_worker_died_is_sent_by_another_once_its_lease_lapses() {
    let clock = ManualClock::at(Utc::now());
    let app = TestApp::start_with_clock(clock.clone()).await;
    let receiver = Receiver::start().await;
    let (token, _) = app.register("coach").await;
    let (hook, secret) = subscribe(&app, &token, &receiver.url("in"), &["booking.created"]).await;
    // A worker claimed this delivery (a lease of a minute) and died before sending it.
    let event_id = Uuid::new_v4();
    let now = clock.now();
    sqlx::query(
        "insert into identity.webhook_delivery
             (delivery_id, webhook_id, event_id, event_type, record_key, payload, next_attempt_at,
              lease_until, created_at)
         values ($1, $2, $3, 'booking.created', 'booking:x', $4, $5, $6, $5)",
    )
    .bind(Uuid::new_v4())
    .bind(hook.parse::<Uuid>().unwrap())
    .bind(event_id)
    .bind(serde_json::json!({ "id": event_id, "type": "booking.created", "data": {} }))
    .bind(now)
    .bind(now + Duration::seconds(60))
    .execute(&app.db)
    .await
    .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert!(receiver.received().is_empty(), "leased to the dead worker");

    clock.advance(Duration::seconds(61));
    let got = receiver.wait_for(1).await;
    assert_eq!(got[0].id, event_id.to_string());
    assert!(got[0].signed_by(&secret));
}

#[tokio::test]
async fn a_posted_review_reaches_the_reviewed_coachs_webhook_alone() {
    let app = TestApp::start().await;
    let receiver = Receiver::start().await;
    let (token, coach) = app.register("coach").await;
    let (_, other) = app.register("coach").await;
    let (_, client) = app.register("client").await;
    let (_, secret) = subscribe(&app, &token, &receiver.url("in"), &["review.posted"]).await;
    let review = |coach_id: Uuid| ReviewFact {
        review_id: Uuid::new_v4(),
        booking_id: Uuid::new_v4(),
        coach_id,
        client_id: id(&client),
        rating: 5,
        comment: Some("Great footwork drills".into()),
        created_at: "2026-12-01T10:00:00.000Z".into(),
    };
    let theirs = envelope(Event::ReviewPosted {
        review: review(id(&other)),
    });
    let mine = review(id(&coach));
    let posted = envelope(Event::ReviewPosted { review: mine.clone() });
    app.publish(&theirs).await;
    app.publish(&posted).await;

    let got = receiver.wait_for(1).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(receiver.received().len(), 1, "never another coach's review");
    assert_eq!(got[0].id, posted.event_id.to_string());
    assert!(got[0].signed_by(&secret));
    let body = got[0].json();
    assert_eq!(body["type"], "review.posted");
    assert_eq!(body["data"]["review_id"], mine.review_id.to_string());
    assert_eq!(body["data"]["rating"], 5);
    assert_eq!(body["data"]["comment"], "Great footwork drills");
}

#[tokio::test]
async fn a_delivery_left_pending_by_a_stopped_replica_is_sent_by_the_next_with_the_same_id() {
    let database_url = crate::helpers::fresh_database().await;
    let first_config = crate::helpers::config(&database_url, crate::helpers::REDIS_URL);
    let mut next_config = crate::helpers::config(&database_url, crate::helpers::REDIS_URL);
    next_config.redis_namespace = first_config.redis_namespace.clone();
    let first = TestApp::start_with(first_config).await;
    let receiver = Receiver::start().await;
    let (token, coach) = first.register("coach").await;
    let (_, client) = first.register("client").await;
    let (_, secret) = subscribe(&first, &token, &receiver.url("in"), &["booking.created"]).await;
    receiver.answer(500);
    let event = envelope(Event::BookingRequested {
        booking: booking(id(&coach), id(&client)),
    });
    first.publish(&event).await;
    receiver.wait_for(1).await;
    // Stopped once the failure is recorded (stopped mid-attempt, its lease would have to lapse
    // first: a_delivery_whose_worker_died_is_sent_by_another_once_its_lease_lapses).
    eventually("the failed attempt recorded", || async {
        let recorded: i64 = sqlx::query_scalar("select count(*) from identity.webhook_attempt")
            .fetch_one(&first.db)
            .await
            .unwrap();
        (recorded == 1).then_some(())
    })
    .await;
    first.stop().await;

    // Another replica (the same database) takes the retry 5 s later.
    receiver.answer(200);
    let _next = TestApp::start_with(next_config).await;
    let got = receiver.wait_for(2).await;
    assert_eq!(got[1].id, event.event_id.to_string(), "one id, whoever sends it");
    assert!(got[1].signed_by(&secret));
}
