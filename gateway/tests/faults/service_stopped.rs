//! booking-svc stopped in the middle of a stream of bookings and reads, then started again on
//! the same port while the gateway keeps running.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use reqwest::StatusCode;

use crate::mesh::{self, Backing, Gateway, Reply, Upstreams, User, Week, session_date};

const DEADLINE: Duration = Duration::from_secs(3);
/// A read may try twice (each within the deadline) and pause up to 80 ms between; the rest is
/// room for a busy test machine.
const ANSWER_WITHIN: Duration = Duration::from_secs(8);

/// One request of the stream.
#[derive(Debug)]
struct Sent {
    /// The date booked, or None for a read of the client's bookings.
    date: Option<String>,
    client: usize,
    started: Instant,
    reply: Reply,
}

struct Stream {
    gateway: Arc<Gateway>,
    coach: User,
    week: Week,
    clients: Vec<User>,
    next: AtomicUsize,
    stop: AtomicBool,
    sent: Mutex<Vec<Sent>>,
}

impl Stream {
    /// Alternates a booking of a new date and a read of bookings, as client 0 then client 1,
    /// until told to stop.
    async fn run(self: Arc<Self>) {
        while !self.stop.load(Ordering::Relaxed) {
            let n = self.next.fetch_add(1, Ordering::Relaxed);
            let client = (n / 2) % self.clients.len();
            let date = n.is_multiple_of(2).then(|| session_date(n / 2));
            let started = Instant::now();
            let reply = match &date {
                Some(date) => {
                    self.gateway
                        .book(&self.clients[client], &self.coach, &self.week, date)
                        .await
                }
                None => {
                    self.gateway
                        .get("/bookings", Some(&self.clients[client].token))
                        .await
                }
            };
            self.sent.lock().unwrap().push(Sent {
                date,
                client,
                started,
                reply,
            });
        }
    }

    /// How many requests started after `since` got `status`.
    fn count(&self, status: StatusCode, since: Instant) -> usize {
        self.sent
            .lock()
            .unwrap()
            .iter()
            .filter(|s| s.started >= since && s.reply.status == status)
            .count()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stopping_booking_svc_mid_stream_answers_503_naming_it_and_heals_without_losing_or_doubling_a_booking()
 {
    // Arrange: the mesh, with booking-svc started by the test so it can stop it.
    let backing = Backing::new(mesh::REDIS_URL).await;
    let identity = mesh::identity(&backing).await;
    let coaching = mesh::coaching(&backing).await;
    let booking = mesh::booking(&backing, mesh::any_port(), &coaching.url()).await;
    let booking_addr = ([127, 0, 0, 1], booking.port).into();
    let mut config = mesh::gateway_config(
        &backing,
        Upstreams {
            identity: identity.url(),
            coaching: coaching.url(),
            booking: booking.url(),
            ..Upstreams::none()
        },
    );
    config.grpc_deadline = DEADLINE;
    let gateway = Arc::new(mesh::gateway(config).await);
    let (coach, week) = gateway.coach_with_slot().await;
    let clients = vec![gateway.register("client").await, gateway.register("client").await];
    let stream = Arc::new(Stream {
        gateway: gateway.clone(),
        coach,
        week,
        clients,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        sent: Mutex::new(Vec::new()),
    });
    let workers: Vec<_> = (0..3).map(|_| tokio::spawn(stream.clone().run())).collect();
    let began = Instant::now();
    mesh::until("bookings before the fault", Duration::from_secs(60), || {
        stream.count(StatusCode::CREATED, began) >= 3
    })
    .await;

    // Act: stop booking-svc, let the stream run into the outage, start it again on its port.
    booking.stop().await;
    let down = Instant::now();
    mesh::until("503s while booking-svc is down", Duration::from_secs(30), || {
        stream.count(StatusCode::SERVICE_UNAVAILABLE, down) >= 6
    })
    .await;
    let restarting = Instant::now();
    let _booking = mesh::booking(&backing, booking_addr, &coaching.url()).await;
    let up = Instant::now();
    mesh::until("bookings after the restart", Duration::from_secs(30), || {
        stream.count(StatusCode::CREATED, up) >= 3 && stream.count(StatusCode::OK, up) >= 3
    })
    .await;
    stream.stop.store(true, Ordering::Relaxed);
    for worker in workers {
        worker.await.expect("the stream ran to the end");
    }

    // Assert: every answer was a success or a 503 naming booking, each within the deadline.
    let sent = std::mem::take(&mut *stream.sent.lock().unwrap());
    for s in &sent {
        let what = format!(
            "{:?} as client {}: {} {}",
            s.date, s.client, s.reply.status, s.reply.body
        );
        match s.reply.status {
            StatusCode::OK | StatusCode::CREATED => {}
            StatusCode::SERVICE_UNAVAILABLE => assert!(
                s.reply.detail().contains("booking"),
                "a 503 names the booking service: {what}"
            ),
            _ => panic!("only success or 503 while booking-svc comes and goes: {what}"),
        }
        assert!(
            s.reply.took <= ANSWER_WITHIN,
            "answered within the deadline ({:?}): {what}",
            s.reply.took
        );
    }
    let during: Vec<_> = sent
        .iter()
        .filter(|s| s.started >= down && s.started + s.reply.took < restarting)
        .collect();
    assert!(
        during
            .iter()
            .all(|s| s.reply.status == StatusCode::SERVICE_UNAVAILABLE),
        "every request while booking-svc was down is a 503: {during:?}"
    );
    let mut after: Vec<_> = sent.iter().filter(|s| s.started >= up).collect();
    after.sort_by_key(|s| s.started);
    let healed = after
        .iter()
        .position(|s| s.reply.status.is_success())
        .expect("a success after the restart");
    assert!(
        after[healed..].iter().all(|s| s.reply.status.is_success()),
        "once healed, every request succeeds: {:?}",
        &after[healed..]
    );

    // Assert: every 201 is one booking; a booking whose answer was a 503 is there at most once,
    // and booking it again now either makes it or says it exists.
    let created: HashMap<&str, &str> = sent
        .iter()
        .filter(|s| s.reply.status == StatusCode::CREATED)
        .map(|s| {
            (
                s.reply.body["booking_id"].as_str().expect("a booking id"),
                s.date.as_deref().expect("a date"),
            )
        })
        .collect();
    let listed = all_bookings(&gateway, &stream.clients).await;
    for (id, date) in &created {
        let copies = listed.iter().filter(|(listed_id, _)| listed_id == id).count();
        assert_eq!(
            copies, 1,
            "booking {id} on {date} answered 201 and is listed once"
        );
    }
    let unanswered: Vec<&Sent> = sent
        .iter()
        .filter(|s| s.date.is_some() && s.reply.status == StatusCode::SERVICE_UNAVAILABLE)
        .collect();
    assert!(!unanswered.is_empty(), "some bookings met the outage");
    for s in &unanswered {
        let date = s.date.as_deref().unwrap();
        let copies = listed.iter().filter(|(_, d)| d == date).count();
        assert!(
            copies <= 1,
            "the booking on {date} that answered 503 exists {copies} times"
        );
        let again = gateway
            .book(&stream.clients[s.client], &stream.coach, &stream.week, date)
            .await;
        assert!(
            matches!(again.status, StatusCode::CREATED | StatusCode::CONFLICT),
            "booking {date} again after the outage: {} {}",
            again.status,
            again.body
        );
    }
    let listed = all_bookings(&gateway, &stream.clients).await;
    let booked_dates = sent.iter().filter_map(|s| s.date.as_deref());
    for date in booked_dates {
        let copies = listed.iter().filter(|(_, d)| d == date).count();
        assert_eq!(copies, 1, "exactly one booking on {date} in the end");
    }
    assert_eq!(
        listed.len(),
        sent.iter().filter(|s| s.date.is_some()).count(),
        "no booking that nobody asked for"
    );
}

/// (booking id, date) of every booking the clients see.
async fn all_bookings(gateway: &Gateway, clients: &[User]) -> Vec<(String, String)> {
    let mut all = Vec::new();
    for client in clients {
        let reply = gateway.get("/bookings", Some(&client.token)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        for booking in reply.body.as_array().expect("a list") {
            all.push((
                booking["booking_id"].as_str().expect("an id").to_owned(),
                booking["booking_date"].as_str().expect("a date").to_owned(),
            ));
        }
    }
    all
}
