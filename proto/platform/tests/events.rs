//! The event stream's consumers (`platform::events::consume`), against the real Redis at
//! 127.0.0.1:6379: what a replica was handed and never acknowledged is not lost when that replica
//! never comes back, and is not taken from one that is still alive.

use std::time::Duration;

use platform::events::{Consumer, Envelope, Event};
use redis::{
    AsyncCommands,
    streams::{StreamPendingReply, StreamReadOptions, StreamReadReply},
};
use tokio::sync::mpsc;
use uuid::Uuid;

const REDIS: &str = "redis://127.0.0.1:6379";
const GROUP: &str = "events-test";

async fn redis() -> redis::aio::MultiplexedConnection {
    redis::Client::open(REDIS)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .expect("Redis is up at 127.0.0.1:6379")
}

fn consumer(stream: &str, name: &str, claim_after: Duration) -> Consumer {
    Consumer {
        stream: stream.to_owned(),
        group: GROUP.to_owned(),
        name: name.to_owned(),
        claim_after,
    }
}

/// A stream of its own holding one event, read (and so held) by the replica `gone`, which then
/// disappears without acknowledging it.
async fn an_event_held_by_a_replica_that_went_away(
    conn: &mut redis::aio::MultiplexedConnection,
) -> (String, Envelope) {
    let stream = format!("events-test-{}:events", Uuid::new_v4());
    let envelope = Envelope {
        event_id: Uuid::new_v4(),
        occurred_at: "2026-11-22T00:00:00Z".into(),
        event: Event::UserRenamed {
            user_id: Uuid::new_v4(),
            full_name: "Ann Lee".into(),
        },
    };
    let () = conn.xgroup_create_mkstream(&stream, GROUP, "0").await.unwrap();
    platform::events::publish(conn, &stream, &envelope).await.unwrap();
    let read: StreamReadReply = conn
        .xread_options(
            &[&stream],
            &[">"],
            &StreamReadOptions::default().group(GROUP, "gone"),
        )
        .await
        .unwrap();
    assert_eq!(
        read.keys[0].ids.len(),
        1,
        "the replica that went away was handed the event"
    );
    (stream, envelope)
}

/// Runs `consume` as `consumer`, sending each envelope it handles into the returned channel.
fn consume(consumer: Consumer) -> (mpsc::UnboundedReceiver<Envelope>, tokio::task::JoinHandle<()>) {
    let (sent, received) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        let client = redis::Client::open(REDIS).unwrap();
        platform::events::consume(client, &consumer, |envelope| {
            let sent = sent.clone();
            async move { sent.send(envelope).map_err(|_| "the test stopped listening") }
        })
        .await;
    });
    (received, task)
}

async fn pending_count(conn: &mut redis::aio::MultiplexedConnection, stream: &str) -> usize {
    let pending: StreamPendingReply = conn.xpending(stream, GROUP).await.unwrap();
    pending.count()
}

#[tokio::test]
async fn an_event_a_vanished_replica_left_unacknowledged_is_taken_over_and_applied() {
    let mut conn = redis().await;
    let (stream, envelope) = an_event_held_by_a_replica_that_went_away(&mut conn).await;

    let (mut handled, task) = consume(consumer(&stream, "successor", Duration::from_millis(300)));
    let taken_over = tokio::time::timeout(Duration::from_secs(10), handled.recv())
        .await
        .expect("the successor took the abandoned event over within 10 s");

    assert_eq!(taken_over, Some(envelope));
    for _ in 0..100 {
        if pending_count(&mut conn, &stream).await == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        pending_count(&mut conn, &stream).await,
        0,
        "acknowledged once applied"
    );
    task.abort();
    let _: () = conn.del(&stream).await.unwrap();
}

#[tokio::test]
async fn an_event_another_replica_holds_for_less_than_claim_after_stays_with_it() {
    let mut conn = redis().await;
    let (stream, _) = an_event_held_by_a_replica_that_went_away(&mut conn).await;

    let (mut handled, task) = consume(consumer(&stream, "neighbour", Duration::from_secs(60)));
    let taken = tokio::time::timeout(Duration::from_secs(3), handled.recv()).await;

    assert!(
        taken.is_err(),
        "a live replica's event was taken from it: {taken:?}"
    );
    assert_eq!(pending_count(&mut conn, &stream).await, 1);
    task.abort();
    let _: () = conn.del(&stream).await.unwrap();
}
