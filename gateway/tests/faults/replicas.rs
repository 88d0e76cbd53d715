//! booking-svc run as several replicas behind one `BOOKING_URL`: the gateway spreads bookings over
//! all of them, loses none when one dies mid-run, follows a host name's address set as it changes,
//! and an event the replicas share a consumer group for is applied once. Calls per replica are read
//! from the gateway's own `grpc_client_calls_total{service="booking",endpoint}` series.

use std::{
    collections::HashSet,
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use platform::{
    auth::Role,
    balance::FixedResolver,
    events::{Envelope, Event},
};
use reqwest::StatusCode;
use sqlx::{Connection, PgConnection};
use tokio::{
    net::{TcpListener, TcpStream},
    task::JoinHandle,
};
use uuid::Uuid;

use crate::mesh::{self, Backing, Gateway, Process, Upstreams, User, Week, session_date};

/// A replica as the network sees it: a TCP door in front of one booking-svc that the test can
/// slam shut the way a killed process's port and connections go (refused, and closed mid-call).
struct Door {
    address: SocketAddr,
    accept: JoinHandle<()>,
    piped: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Door {
    async fn open(to: u16) -> Door {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let address = listener.local_addr().expect("a bound address");
        let piped = Arc::new(Mutex::new(Vec::new()));
        let pipes = piped.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let pipe = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", to)).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                pipes.lock().unwrap().push(pipe);
            }
        });
        Door {
            address,
            accept,
            piped,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The replica dies: its port refuses and every open connection closes, calls in flight too.
    fn kill(&self) {
        self.accept.abort();
        for pipe in self.piped.lock().unwrap().drain(..) {
            pipe.abort();
        }
    }
}

/// One booking-svc replica on port 0 and the door the gateway reaches it through.
struct Replica {
    _process: Process,
    door: Door,
}

async fn replica(backing: &Backing, coaching: &Process) -> Replica {
    let process = mesh::booking(backing, mesh::any_port(), &coaching.url()).await;
    let door = Door::open(process.port).await;
    Replica {
        _process: process,
        door,
    }
}

/// How many calls the gateway (this test process) has sent to `endpoint`.
fn calls_to(endpoint: SocketAddr) -> u64 {
    let label = format!("endpoint=\"{endpoint}\"");
    platform::ops::metrics_handle()
        .render()
        .lines()
        .filter(|l| {
            l.starts_with("grpc_client_calls_total{")
                && l.contains("service=\"booking\"")
                && l.contains(&label)
        })
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

/// The mesh with `replicas` booking-svc replicas and the gateway configured by `booking_url`.
struct Scaled {
    backing: Backing,
    gateway: Arc<Gateway>,
    coaching: Process,
    _identity: Process,
    replicas: Vec<Replica>,
    coach: User,
    week: Week,
}

async fn scaled(
    replicas: usize,
    booking_url: impl FnOnce(&[Replica]) -> String,
    resolver: Option<FixedResolver>,
) -> Scaled {
    let backing = Backing::new(mesh::REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let coaching = mesh::coaching(&backing).await;
    let mut started = Vec::new();
    for _ in 0..replicas {
        started.push(replica(&backing, &coaching).await);
    }
    let mut config = mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            coaching: coaching.url(),
            booking: booking_url(&started),
            ..Upstreams::none()
        },
    );
    config.grpc_resolve_interval = Duration::from_millis(100);
    config.resolver = resolver.map(|r| Arc::new(r) as Arc<dyn platform::balance::Resolve>);
    let gateway = Arc::new(mesh::gateway(config).await);
    let (coach, week) = gateway.coach_with_slot().await;
    Scaled {
        backing,
        gateway,
        coaching,
        _identity: identity,
        replicas: started,
        coach,
        week,
    }
}

/// `replicas` replicas named by one comma-separated `BOOKING_URL`.
async fn listed(replicas: usize) -> Scaled {
    let list = |r: &[Replica]| r.iter().map(|r| r.door.url()).collect::<Vec<_>>().join(",");
    scaled(replicas, list, None).await
}

impl Scaled {
    /// Books `count` dates from `first` on as `client`, `concurrency` at a time; the replies in
    /// the order the dates were given, with when each request started.
    async fn book(
        &self,
        client: &User,
        first: usize,
        count: usize,
        concurrency: usize,
    ) -> Vec<(usize, Instant, mesh::Reply)> {
        let next = Arc::new(Mutex::new(first..first + count));
        let workers: Vec<_> = (0..concurrency)
            .map(|_| {
                let (next, gateway, client, coach, week) = (
                    next.clone(),
                    self.gateway.clone(),
                    client.clone(),
                    self.coach.clone(),
                    self.week.clone(),
                );
                tokio::spawn(async move {
                    let mut replies = Vec::new();
                    loop {
                        let Some(n) = next.lock().unwrap().next() else {
                            break;
                        };
                        let started = Instant::now();
                        let reply = gateway.book(&client, &coach, &week, &session_date(n)).await;
                        replies.push((n, started, reply));
                    }
                    replies
                })
            })
            .collect();
        let mut replies = Vec::new();
        for worker in workers {
            replies.extend(worker.await.expect("a booking worker"));
        }
        replies.sort_by_key(|(n, _, _)| *n);
        replies
    }

    /// The dates `client` holds open bookings for, as booking-svc stored them.
    async fn booked_dates(&self, client: &User) -> HashSet<String> {
        let mut db = PgConnection::connect(&self.backing.database_url)
            .await
            .expect("the database");
        let dates: Vec<String> = sqlx::query_scalar(
            "select booking_date::text from booking.booking where client_id = $1 and status <> 'cancelled'",
        )
        .bind(client.id.parse::<Uuid>().expect("a user id"))
        .fetch_all(&mut db)
        .await
        .expect("the bookings");
        dates.into_iter().collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_hundred_bookings_through_a_list_of_three_replicas_reach_every_replica() {
    // Arrange: three replicas on port 0 behind one comma-separated BOOKING_URL.
    let mesh = listed(3).await;
    let client = mesh.gateway.register("client").await;

    // Act
    let replies = mesh.book(&client, 0, 300, 8).await;

    // Assert: every booking made, and each replica served at least a fifth of them.
    for (n, _, reply) in &replies {
        assert_eq!(reply.status, StatusCode::CREATED, "booking {n}: {}", reply.body);
    }
    let shares: Vec<u64> = mesh.replicas.iter().map(|r| calls_to(r.door.address)).collect();
    assert!(
        shares.iter().all(|&calls| calls >= 60),
        "calls per replica: {shares:?}"
    );
    assert_eq!(mesh.booked_dates(&client).await.len(), 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_replica_killed_mid_run_loses_no_booking_and_every_later_booking_succeeds() {
    // Arrange
    let mesh = listed(3).await;
    let client = mesh.gateway.register("client").await;
    const IN_FLIGHT: usize = 6;

    // Act: 300 bookings, six at a time; the first replica dies once a third of them are sent.
    let run = mesh.book(&client, 0, 300, IN_FLIGHT);
    let killer = async {
        let door = &mesh.replicas[0].door;
        while calls_to(door.address) < 30 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        door.kill();
        Instant::now()
    };
    let (replies, killed) = tokio::join!(run, killer);

    // Assert: a failure is only a call in flight on the dead replica, each a 503 naming booking;
    // every booking answered 201 is there; every booking sent after the death was noticed worked.
    let failed: Vec<_> = replies
        .iter()
        .filter(|(_, _, r)| r.status != StatusCode::CREATED)
        .collect();
    assert!(failed.len() <= IN_FLIGHT, "{} failed: {failed:?}", failed.len());
    for (n, _, reply) in &failed {
        assert_eq!(
            reply.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "booking {n}: {}",
            reply.body
        );
        assert!(reply.detail().contains("booking"), "booking {n}: {}", reply.body);
    }
    let booked = mesh.booked_dates(&client).await;
    for (n, _, reply) in &replies {
        if reply.status == StatusCode::CREATED {
            assert!(
                booked.contains(&session_date(*n)),
                "booking {n} answered 201 but is gone"
            );
        }
    }
    let settled = killed + Duration::from_millis(200);
    let later: Vec<_> = replies
        .iter()
        .filter(|(_, started, _)| *started >= settled)
        .collect();
    assert!(
        later.len() >= 100,
        "only {} bookings were sent after the kill",
        later.len()
    );
    for (n, _, reply) in later {
        assert_eq!(
            reply.status,
            StatusCode::CREATED,
            "booking {n} after the kill: {}",
            reply.body
        );
    }
    let after = calls_to(mesh.replicas[0].door.address);
    let more = mesh.book(&client, 300, 30, 3).await;
    assert!(more.iter().all(|(_, _, r)| r.status == StatusCode::CREATED));
    assert_eq!(
        calls_to(mesh.replicas[0].door.address),
        after,
        "calls went to the dead replica"
    );
}

/// Waits until the gateway reaches booking-svc through the name: the resolver's first answer is
/// picked up on the gateway's next resolve round, and each replica's connection opens in the
/// background, so on a busy machine the first call can come before either.
async fn until_booking_answers(mesh: &Scaled, token: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let reply = mesh.gateway.get("/bookings", Some(token)).await;
        if reply.status == StatusCode::OK {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the gateway never reached booking-svc through the name: {} {}",
            reply.status,
            reply.body
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_name_resolving_to_replicas_is_followed_as_replicas_join_and_leave() {
    // Arrange: `booking.test` resolves to three replicas; a fourth is started but not yet named.
    let resolver = FixedResolver::default();
    let mut mesh = scaled(
        3,
        |_| "http://booking.test:50053".to_owned(),
        Some(resolver.clone()),
    )
    .await;
    let doors = |mesh: &Scaled| mesh.replicas.iter().map(|r| r.door.address).collect::<Vec<_>>();
    resolver.set("booking.test", doors(&mesh));
    let client = mesh.gateway.register("client").await;
    until_booking_answers(&mesh, &client.token).await;
    let first = mesh.book(&client, 0, 60, 4).await;
    assert!(first.iter().all(|(_, _, r)| r.status == StatusCode::CREATED));
    let fourth = replica(&mesh.backing, &mesh.coaching).await;
    let fourth_door = fourth.door.address;
    mesh.replicas.push(fourth);

    // Act: the name now also names the fourth.
    resolver.set("booking.test", doors(&mesh));
    let mut n = 60;
    let deadline = Instant::now() + Duration::from_secs(30);
    while calls_to(fourth_door) == 0 {
        assert!(
            Instant::now() < deadline,
            "the fourth replica got no call within 30 s"
        );
        let replies = mesh.book(&client, n, 4, 4).await;
        assert!(replies.iter().all(|(_, _, r)| r.status == StatusCode::CREATED));
        n += 4;
    }

    // Act: the name stops naming the first; after one interval, it gets nothing more.
    let gone = mesh.replicas[0].door.address;
    resolver.set("booking.test", doors(&mesh).into_iter().filter(|a| *a != gone));
    tokio::time::sleep(Duration::from_millis(400)).await;
    let before = calls_to(gone);
    let last = mesh.book(&client, n, 40, 4).await;

    // Assert
    assert!(last.iter().all(|(_, _, r)| r.status == StatusCode::CREATED));
    assert_eq!(
        calls_to(gone),
        before,
        "a replica no longer named still got calls"
    );
    assert!(calls_to(fourth_door) > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_event_read_by_three_booking_replicas_is_applied_once() {
    // Arrange: three replicas sharing the event stream's consumer group; a client with bookings.
    let mesh = listed(3).await;
    let client = mesh.gateway.register("client").await;
    let made = mesh.book(&client, 0, 6, 3).await;
    assert!(made.iter().all(|(_, _, r)| r.status == StatusCode::CREATED));

    // Act: identity says the client is gone, and the event is delivered twice.
    let event_id = Uuid::new_v4();
    let envelope = Envelope {
        event_id,
        occurred_at: chrono::Utc::now().to_rfc3339(),
        event: Event::UserDeleted {
            user_id: client.id.parse().expect("a user id"),
            role: Role::Client,
        },
    };
    let redis = redis::Client::open(mesh.backing.redis_url.as_str()).expect("a Redis URL");
    let mut conn = redis
        .get_multiplexed_async_connection()
        .await
        .expect("Redis is up");
    let stream = platform::events::stream_key(&mesh.backing.redis_namespace);
    for _ in 0..2 {
        platform::events::publish(&mut conn, &stream, &envelope)
            .await
            .expect("published");
    }

    // Assert: the bookings are cancelled, and the event is recorded as applied exactly once.
    let started = Instant::now();
    while !mesh.booked_dates(&client).await.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "bookings still open after 20 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut db = PgConnection::connect(&mesh.backing.database_url)
        .await
        .expect("the database");
    let applied: i64 = sqlx::query_scalar("select count(*) from booking.processed_event where event_id = $1")
        .bind(event_id)
        .fetch_one(&mut db)
        .await
        .expect("a count");
    assert_eq!(applied, 1);
}
