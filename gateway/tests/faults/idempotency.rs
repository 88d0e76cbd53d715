//! Idempotency keys through faults: a booking committed whose answer was lost (booking-svc cut off
//! and killed between its commit and its reply) is the booking its retry returns; two gateways
//! share keys; a key is replayed by a gateway started after the one that kept it stopped; a retry
//! while the first request is still being carried out is 409; without Redis a keyed write is 503.

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use reqwest::{Method, StatusCode};
use serde_json::json;
use sqlx::{Connection, PgConnection};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    task::JoinHandle,
};
use uuid::Uuid;

use crate::mesh::{self, Backing, Reply, Services, Upstreams, session_date};

fn replayed(reply: &Reply) -> bool {
    reply
        .headers
        .get("idempotent-replayed")
        .is_some_and(|v| v == "true")
}

/// A TCP door in front of booking-svc that can hold back everything booking-svc says, then cut
/// every connection: what the gateway sees when booking-svc dies after committing a booking and
/// before its answer leaves.
struct Door {
    address: SocketAddr,
    hold: Arc<AtomicBool>,
    pipes: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accept: JoinHandle<()>,
}

impl Door {
    async fn open(to: u16) -> Door {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let address = listener.local_addr().expect("a bound address");
        let hold = Arc::new(AtomicBool::new(false));
        let pipes = Arc::new(Mutex::new(Vec::new()));
        let (held, piped) = (hold.clone(), pipes.clone());
        let accept = tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let Ok(outbound) = TcpStream::connect(("127.0.0.1", to)).await else {
                    continue;
                };
                let (mut in_read, mut in_write) = inbound.into_split();
                let (mut out_read, mut out_write) = outbound.into_split();
                let up = tokio::spawn(async move {
                    let _ = tokio::io::copy(&mut in_read, &mut out_write).await;
                });
                let held = held.clone();
                let down = tokio::spawn(async move {
                    let mut buffer = [0_u8; 16 * 1024];
                    while let Ok(n) = out_read.read(&mut buffer).await
                        && n > 0
                    {
                        while held.load(Ordering::SeqCst) {
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }
                        if in_write.write_all(&buffer[..n]).await.is_err() {
                            break;
                        }
                    }
                });
                piped.lock().unwrap().extend([up, down]);
            }
        });
        Door {
            address,
            hold,
            pipes,
            accept,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// From now on nothing booking-svc says reaches the gateway.
    fn hold_answers(&self) {
        self.hold.store(true, Ordering::SeqCst);
    }

    /// Every open connection closes, its held answers lost; new connections pass freely.
    fn cut(&self) {
        for pipe in self.pipes.lock().unwrap().drain(..) {
            pipe.abort();
        }
        self.hold.store(false, Ordering::SeqCst);
    }
}

impl Drop for Door {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}

/// The bookings in the database for `date`, by id.
async fn bookings_on(backing: &Backing, date: &str) -> Vec<(Uuid, Option<String>)> {
    let mut db = PgConnection::connect(&backing.database_url)
        .await
        .expect("the test database");
    sqlx::query_as("select booking_id, idempotency_key from booking.booking where booking_date = $1::date")
        .bind(date)
        .fetch_all(&mut db)
        .await
        .expect("the bookings")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_booking_committed_whose_answer_was_lost_is_the_booking_its_retry_returns() {
    // Arrange: booking-svc behind a door the test controls, a coach, a client, and one booking
    // made through the door so the gateway's connection to booking-svc is open.
    let backing = Backing::new(mesh::REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let coaching = mesh::coaching(&backing).await;
    let booking = mesh::booking(&backing, mesh::any_port(), &coaching.url()).await;
    let booking_addr: SocketAddr = ([127, 0, 0, 1], booking.port).into();
    let door = Door::open(booking.port).await;
    let mut config = mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            coaching: coaching.url(),
            booking: door.url(),
            ..Upstreams::none()
        },
    );
    config.grpc_deadline = Duration::from_secs(20);
    let gateway = Arc::new(mesh::gateway(config).await);
    let (coach, week) = gateway.coach_with_slot().await;
    let client = gateway.register("client").await;
    let warm = gateway.book(&client, &coach, &week, &session_date(0)).await;
    assert_eq!(warm.status, StatusCode::CREATED, "{}", warm.body);
    let date = session_date(1);
    let key = Uuid::new_v4().to_string();

    // Act: the booking reaches booking-svc, which commits it; its answer is held back, the
    // connection cut and booking-svc killed; then it is started again and the client retries.
    door.hold_answers();
    let first = tokio::spawn({
        let (gateway, client, coach, week, date, key) = (
            gateway.clone(),
            client.clone(),
            coach.clone(),
            week.clone(),
            date.clone(),
            key.clone(),
        );
        async move {
            gateway
                .book_with_key(&client, &coach, &week, &date, Some(&key))
                .await
        }
    });
    let mut committed = Vec::new();
    for _ in 0..1000 {
        committed = bookings_on(&backing, &date).await;
        if !committed.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(committed.len(), 1, "booking-svc committed the booking");
    door.cut();
    booking.stop().await;
    let lost = first.await.expect("the first attempt ran");
    let _booking = mesh::booking(&backing, booking_addr, &coaching.url()).await;
    let retry = gateway
        .book_with_key(&client, &coach, &week, &date, Some(&key))
        .await;
    let without_key = gateway.book(&client, &coach, &week, &date).await;

    // Assert: the client was told 503; the retry is answered the booking that was committed.
    assert_eq!(lost.status, StatusCode::SERVICE_UNAVAILABLE, "{}", lost.body);
    assert!(!lost.detail().is_empty(), "the 503 has a detail");
    assert_eq!(retry.status, StatusCode::CREATED, "{}", retry.body);
    assert_eq!(
        retry.body["booking_id"],
        committed[0].0.to_string().as_str(),
        "the retry returns the booking its first attempt committed"
    );
    assert_eq!(committed[0].1.as_deref(), Some(key.as_str()), "kept with its key");
    assert_eq!(retry.body["status"], "pending");
    assert_eq!(
        without_key.status,
        StatusCode::CONFLICT,
        "without its key the same request is a new booking of a taken slot: {}",
        without_key.body
    );
    assert_eq!(
        bookings_on(&backing, &date).await.len(),
        1,
        "one booking, not two"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_gateways_share_keys_and_a_gateway_started_later_replays_them() {
    // Arrange: two gateways on one Redis and one mesh.
    let backing = Backing::new(mesh::REDIS_URL).await;
    let services = Services::start(&backing).await;
    let upstreams = || services.upstreams();
    let first = mesh::gateway(mesh::gateway_config(&backing, upstreams())).await;
    let second = mesh::gateway(mesh::gateway_config(&backing, upstreams())).await;
    let (coach, week) = first.coach_with_slot().await;
    let client = first.register("client").await;
    let date = session_date(2);
    let key = Uuid::new_v4().to_string();

    // Act: book through the first; retry through the second, once with the same request and
    // once with another; then stop the first and retry through a third, started afterwards.
    let booked = first
        .book_with_key(&client, &coach, &week, &date, Some(&key))
        .await;
    let elsewhere = second
        .book_with_key(&client, &coach, &week, &date, Some(&key))
        .await;
    let other = second
        .book_with_key(&client, &coach, &week, &session_date(3), Some(&key))
        .await;
    first.stop().await;
    let third = mesh::gateway(mesh::gateway_config(&backing, upstreams())).await;
    let after_restart = third
        .book_with_key(&client, &coach, &week, &date, Some(&key))
        .await;

    // Assert
    assert_eq!(booked.status, StatusCode::CREATED, "{}", booked.body);
    for replay in [&elsewhere, &after_restart] {
        assert_eq!(replay.status, StatusCode::CREATED, "{}", replay.body);
        assert_eq!(replay.body, booked.body);
        assert!(replayed(replay), "{:?}", replay.headers);
    }
    assert_eq!(other.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", other.body);
    assert_eq!(bookings_on(&backing, &date).await.len(), 1);
    assert!(bookings_on(&backing, &session_date(3)).await.is_empty());
}

/// A peer that takes every connection and every byte and never answers. Returns its URL.
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
async fn a_retry_while_the_first_attempt_is_still_being_carried_out_is_409() {
    // Arrange: booking-svc never answers, so a booking stays in flight until the deadline.
    let backing = Backing::new(mesh::REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let mut config = mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            booking: silent_peer().await,
            ..Upstreams::none()
        },
    );
    config.grpc_deadline = Duration::from_millis(1500);
    let gateway = mesh::gateway(config).await;
    let client = mesh::registered(&backing, identity.url(), "client").await;
    let key = Uuid::new_v4().to_string();
    let body =
        json!({"coach_id": Uuid::new_v4(), "slot_id": Uuid::new_v4(), "booking_date": session_date(0)});
    let send = || {
        gateway.call_with_key(
            Method::POST,
            "/bookings",
            Some(&client.token),
            Some(body.clone()),
            Some(&key),
        )
    };

    // Act: two attempts with one key at once; then a third after both answered.
    let (a, b) = tokio::join!(send(), send());
    let third = send().await;

    // Assert: one was carried out (and failed, 503: not kept); the other was told to wait.
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CONFLICT, StatusCode::SERVICE_UNAVAILABLE],
        "{} / {}",
        a.body,
        b.body
    );
    let waiting = if a.status == StatusCode::CONFLICT { &a } else { &b };
    assert!(
        waiting.detail().contains("still being carried out"),
        "{}",
        waiting.body
    );
    assert_eq!(
        waiting.headers.get("retry-after").map(|v| v.as_bytes()),
        Some(&b"1"[..])
    );
    assert_eq!(
        third.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "a 503 is not kept: the third attempt is carried out again: {}",
        third.body
    );
    assert!(!replayed(&third));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn without_redis_a_write_with_a_key_is_503_and_one_without_runs() {
    let backing = Backing::new(mesh::DEAD_REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let gateway = mesh::gateway(mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            ..Upstreams::none()
        },
    ))
    .await;
    let register = |email: String| json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "No Redis", "role": "client"});

    let plain = gateway
        .post(
            "/auth/register",
            None,
            register(format!("plain-{}@faults.test", Uuid::new_v4().simple())),
        )
        .await;
    let token = plain.body["token"].as_str().unwrap_or_default().to_owned();
    // A write whose answer may be kept (a sign-in's never is).
    let keyed = gateway
        .call_with_key(
            Method::POST,
            "/notifications/read-all",
            Some(&token),
            None,
            Some("a-key"),
        )
        .await;

    assert_eq!(keyed.status, StatusCode::SERVICE_UNAVAILABLE, "{}", keyed.body);
    assert!(keyed.detail().contains("Idempotency-Key"), "{}", keyed.body);
    assert_eq!(plain.status, StatusCode::CREATED, "{}", plain.body);
}
