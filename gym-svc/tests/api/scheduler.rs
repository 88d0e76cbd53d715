//! The reservation scheduler against real PostgreSQL: several instances racing for the same due
//! rows apply each transition exactly once, one that starts after the due time applies it late
//! and once, and rows saved before due times were kept are filled in.

use std::sync::Arc;

use chrono::Duration;
use platform::clock::ManualClock;
use uuid::Uuid;

use crate::helpers::{TestApp, at};

/// 2030-06-03 10:00 in Austin (CDT) is 15:00Z.
const STARTS_AT: &str = "2030-06-03T15:00:00Z";

/// A service whose own clock stands days before the due time (its scheduler finds nothing to do),
/// and `n` pending requests for one court time, due at [`STARTS_AT`].
async fn due_requests(n: i64) -> (TestApp, Vec<Uuid>) {
    let clock = ManualClock::at(at("2030-06-01T00:00:00Z"));
    let app = TestApp::spawn_at(&clock).await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let offered = app
        .offer(&setup.gym, &setup.court.court_id, "2030-06-03", "10:00", "11:00")
        .await;
    let ids = sqlx::query_scalar::<_, Uuid>(
        "insert into gym.court_reservation (reservation_id, availability_id, coach_id, status, expires_at)
         select gen_random_uuid(), $1::uuid, gen_random_uuid(), 'pending', $2
         from generate_series(1, $3)
         returning reservation_id",
    )
    .bind(&offered.availability_id)
    .bind(at(STARTS_AT))
    .bind(n)
    .fetch_all(&app.db)
    .await
    .unwrap();
    (app, ids)
}

/// How many rows have each status, and how many expiry events name each reservation.
async fn outcome(app: &TestApp) -> (i64, i64, Vec<i64>) {
    let expired: i64 =
        sqlx::query_scalar("select count(*) from gym.court_reservation where status = 'expired'")
            .fetch_one(&app.db)
            .await
            .unwrap();
    let pending: i64 =
        sqlx::query_scalar("select count(*) from gym.court_reservation where status = 'pending'")
            .fetch_one(&app.db)
            .await
            .unwrap();
    let per_reservation: Vec<i64> = sqlx::query_scalar(
        "select count(*) from gym.outbox where payload->>'type' = 'reservation_expired'
         group by payload->'reservation'->>'reservation_id'",
    )
    .fetch_all(&app.db)
    .await
    .unwrap();
    (expired, pending, per_reservation)
}

fn clock_at(rfc3339: &str) -> platform::clock::SharedClock {
    Arc::new(ManualClock::at(at(rfc3339)))
}

#[tokio::test]
async fn schedulers_racing_for_the_same_due_rows_expire_each_exactly_once() {
    let (app, ids) = due_requests(350).await;
    let replicas: Vec<_> = (0..3)
        .map(|_| gym_svc::scheduler(app.db.clone(), clock_at("2030-06-03T15:00:20Z")))
        .collect();

    let ticks = replicas.iter().map(|replica| async move {
        // Each replica ticks twice, as it would on its interval.
        gym_svc::tick(replica).await.unwrap() + gym_svc::tick(replica).await.unwrap()
    });
    let applied: Vec<u64> = futures::future::join_all(ticks).await;

    let (expired, pending, per_reservation) = outcome(&app).await;
    assert_eq!(applied.iter().sum::<u64>(), 350, "{applied:?}");
    assert_eq!((expired, pending), (350, 0));
    assert_eq!(per_reservation.len(), ids.len());
    assert!(
        per_reservation.iter().all(|&events| events == 1),
        "{per_reservation:?}"
    );
}

#[tokio::test]
async fn nothing_expires_before_its_due_time() {
    let (app, _) = due_requests(5).await;
    let early = gym_svc::scheduler(app.db.clone(), clock_at("2030-06-03T14:59:59Z"));

    let applied = gym_svc::tick(&early).await.unwrap();

    assert_eq!(applied, 0);
    assert_eq!(outcome(&app).await, (0, 5, vec![]));
}

#[tokio::test]
async fn a_scheduler_that_starts_after_the_due_time_applies_it_late_and_once() {
    let (app, _) = due_requests(120).await;
    // The replicas that were running at the due time were down; this one starts days later.
    let clock = ManualClock::at(at(STARTS_AT) + Duration::days(3));
    let late = gym_svc::scheduler(app.db.clone(), Arc::new(clock.clone()));

    let first = gym_svc::tick(&late).await.unwrap();
    clock.advance(Duration::minutes(1));
    let second = gym_svc::tick(&late).await.unwrap();
    let restarted = gym_svc::tick(&gym_svc::scheduler(app.db.clone(), Arc::new(clock)))
        .await
        .unwrap();

    let (expired, pending, per_reservation) = outcome(&app).await;
    assert_eq!((first, second, restarted), (120, 0, 0));
    assert_eq!((expired, pending), (120, 0));
    assert!(per_reservation.iter().all(|&events| events == 1));
}

#[tokio::test]
async fn rows_saved_before_zones_and_due_times_were_kept_are_filled_in_once() {
    let app = TestApp::spawn().await;
    let gym = Uuid::new_v4();
    let (location, availability) = (Uuid::new_v4(), Uuid::new_v4());
    let court = Uuid::new_v4();
    // As the previous version wrote them: El Paso, TX (Mountain time), no zone; a request with no
    // due time.
    sqlx::query(
        "insert into gym.gym_location (location_id, gym_id, name, address, city, state, latitude, longitude)
         values ($1, $2, 'Old Hall', '1 Main St', 'El Paso', 'TX', 31.76, -106.49)",
    )
    .bind(location)
    .bind(gym)
    .execute(&app.db)
    .await
    .unwrap();
    sqlx::query("insert into gym.court (court_id, location_id, court_name) values ($1, $2, 'Court 1')")
        .bind(court)
        .bind(location)
        .execute(&app.db)
        .await
        .unwrap();
    sqlx::query(
        "insert into gym.court_availability (availability_id, court_id, date, start_time, end_time)
         values ($1, $2, '2030-01-15', '09:00', '10:00')",
    )
    .bind(availability)
    .bind(court)
    .execute(&app.db)
    .await
    .unwrap();
    let reservation = sqlx::query_scalar::<_, Uuid>(
        "insert into gym.court_reservation (reservation_id, availability_id, coach_id)
         values (gen_random_uuid(), $1, gen_random_uuid()) returning reservation_id",
    )
    .bind(availability)
    .fetch_one(&app.db)
    .await
    .unwrap();

    gym_svc::fill_in(&app.db).await.unwrap();
    let again = gym_svc::fill_in(&app.db).await.unwrap();

    let zone: String = sqlx::query_scalar("select time_zone from gym.gym_location where location_id = $1")
        .bind(location)
        .fetch_one(&app.db)
        .await
        .unwrap();
    let due: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("select expires_at from gym.court_reservation where reservation_id = $1")
            .bind(reservation)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(zone, "America/Denver");
    // 09:00 MST (UTC-7) on 2030-01-15.
    assert_eq!(due, at("2030-01-15T16:00:00Z"));
    assert_eq!(again, (0, 0));
}
