//! The services' PostgreSQL pool (`platform::database::connect`), against the real PostgreSQL at
//! 127.0.0.1:5432 through a relay that counts statements and pings.

use std::time::Duration;

use platform::testing::StatementCounter;
use sqlx::PgPool;

const POSTGRES: &str = "127.0.0.1:5432";

async fn pool(counter: &StatementCounter, max_connections: u32) -> PgPool {
    platform::database::connect(
        &counter.url(&format!("postgres://postgres@{POSTGRES}/postgres")),
        max_connections,
        Duration::from_secs(3),
    )
    .await
    .expect("PostgreSQL is up at 127.0.0.1:5432")
}

async fn backend_pid(db: &PgPool) -> i32 {
    sqlx::query_scalar("select pg_backend_pid()")
        .fetch_one(db)
        .await
        .expect("a statement on the pool")
}

#[tokio::test]
async fn a_connection_used_a_moment_ago_is_not_pinged_before_its_next_statement() {
    let counter = StatementCounter::start(POSTGRES).await.unwrap();
    let db = pool(&counter, 1).await;
    backend_pid(&db).await;
    let pings = counter.pings();

    for _ in 0..20 {
        backend_pid(&db).await;
    }

    // sqlx pings each connection as it goes back to the pool (20 here); before this pool's
    // policy it pinged it again on the way out (40).
    let pinged = counter.pings() - pings;
    assert!(pinged <= 21, "20 statements cost {pinged} pings");
}

#[tokio::test]
async fn a_connection_that_died_while_idle_is_replaced_without_failing_a_statement() {
    let counter = StatementCounter::start(POSTGRES).await.unwrap();
    let db = pool(&counter, 1).await;
    let before = backend_pid(&db).await;
    let admin = PgPool::connect(&format!("postgres://postgres@{POSTGRES}/postgres"))
        .await
        .unwrap();
    let terminated: bool = sqlx::query_scalar("select pg_terminate_backend($1)")
        .bind(before)
        .fetch_one(&admin)
        .await
        .unwrap();
    assert!(terminated);

    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let after = backend_pid(&db).await;

    assert_ne!(after, before, "the dead connection was handed out again");
}
