//! The durable scheduler against real PostgreSQL: replicas racing for the same due bookings apply
//! each transition (and write each event) exactly once, and one that starts after the due time
//! applies it late, once.

use std::collections::HashMap;

use chrono::Duration;
use futures::future::join_all;

use crate::helpers::{TestApp, at, weekly};

/// A coach with a Monday slot and `n` bookings of it, one per week from 2030-06-03, each by its own
/// client, booked at 2030-06-01 12:00 UTC; every other one approved. Returns the booking ids.
async fn bookings(app: &TestApp, n: usize) -> Vec<(String, bool)> {
    app.clock.set(at("2030-06-01T12:00:00Z"));
    let coach = app.coach();
    let slot_id = app.slot(&coach, weekly("Monday", "09:00", "10:00", None)).await;
    let mut made = Vec::new();
    for week in 0..n {
        let date = "2030-06-03".parse::<chrono::NaiveDate>().unwrap() + chrono::Days::new(7 * week as u64);
        let booking = app.book(&app.client(), coach.id, &slot_id, date).await.unwrap();
        let approved = week % 2 == 0;
        if approved {
            app.approve(&coach, &booking.booking_id).await.unwrap();
        }
        made.push((booking.booking_id, approved));
    }
    made
}

/// How many outbox events of each type there are about each booking.
async fn event_counts(app: &TestApp) -> HashMap<(String, String), i64> {
    sqlx::query_as::<_, (String, String, i64)>(
        "select payload->'booking'->>'booking_id', payload->>'type', count(*)
         from booking.outbox group by 1, 2",
    )
    .fetch_all(&app.db)
    .await
    .unwrap()
    .into_iter()
    .map(|(id, kind, n)| ((id, kind), n))
    .collect()
}

#[tokio::test]
async fn schedulers_racing_for_the_same_due_bookings_apply_each_transition_exactly_once() {
    let app = TestApp::spawn_with_idle_scheduler().await;
    let made = bookings(&app, 40).await;
    // Past every expiry and every end (the last session is 39 weeks after the first).
    app.clock.set(at("2031-06-01T00:00:00Z"));
    let replicas: Vec<_> = (0..4).map(|_| app.scheduler()).collect();

    let applied = join_all(replicas.iter().map(|s| s.run_due())).await;

    let applied: Vec<usize> = applied.into_iter().map(Result::unwrap).collect();
    assert_eq!(
        applied.iter().sum::<usize>(),
        40,
        "each booking moved once: {applied:?}"
    );
    let counts = event_counts(&app).await;
    for (booking_id, approved) in &made {
        let (status, event) = if *approved {
            ("completed", "booking_completed")
        } else {
            ("expired", "booking_expired")
        };
        assert_eq!(app.status_of(booking_id).await, status);
        assert_eq!(
            counts.get(&(booking_id.clone(), event.to_owned())),
            Some(&1),
            "{booking_id}"
        );
    }
    let timed: i64 = counts
        .iter()
        .filter(|((_, kind), _)| kind == "booking_completed" || kind == "booking_expired")
        .map(|(_, n)| n)
        .sum();
    assert_eq!(timed, 40, "no event written twice");
    let again = join_all(replicas.iter().map(|s| s.run_due())).await;
    assert!(again.into_iter().all(|n| n.unwrap() == 0), "nothing is left due");
}

#[tokio::test]
async fn a_scheduler_that_starts_after_the_due_time_applies_it_late_and_once() {
    // booking-svc's own scheduler ticked once at start and sleeps: as if every replica were down.
    let app = TestApp::spawn_with_idle_scheduler().await;
    let made = bookings(&app, 2).await;
    let (confirmed, pending) = (&made[0].0, &made[1].0);
    app.clock.set(at("2030-06-20T00:00:00Z"));
    assert_eq!(app.status_of(confirmed).await, "confirmed", "nobody ran");
    assert_eq!(app.status_of(pending).await, "pending");

    // The first tick of a replica that starts now applies both, late; its next changes nothing.
    let late = app.scheduler();
    assert_eq!(late.run_due().await.unwrap(), 2);
    assert_eq!(late.run_due().await.unwrap(), 0);
    assert_eq!(app.status_of(confirmed).await, "completed");
    assert_eq!(app.status_of(pending).await, "expired");

    let counts = event_counts(&app).await;
    assert_eq!(counts[&(confirmed.clone(), "booking_completed".into())], 1);
    assert_eq!(counts[&(pending.clone(), "booking_expired".into())], 1);
}

#[tokio::test]
async fn a_scheduler_leaves_what_is_not_due_yet() {
    let app = TestApp::spawn_with_idle_scheduler().await;
    let made = bookings(&app, 2).await;
    // The first session (approved) ends at 10:00 on 2030-06-03; the second booking expires at
    // 12:00 on the 3rd (48 hours after it was made).
    app.clock.set(at("2030-06-03T10:00:00Z") - Duration::seconds(1));

    assert_eq!(app.scheduler().run_due().await.unwrap(), 0);
    app.clock.set(at("2030-06-03T10:00:00Z"));
    assert_eq!(app.scheduler().run_due().await.unwrap(), 1);
    assert_eq!(app.status_of(&made[0].0).await, "completed");
    assert_eq!(app.status_of(&made[1].0).await, "pending");
}

#[tokio::test]
async fn the_scheduler_s_claim_reads_the_partial_index_of_active_bookings_due_times() {
    let app = TestApp::spawn_with_idle_scheduler().await;
    let mut conn = app.db.acquire().await.unwrap();
    // A fresh table is tiny; the planner is told to prefer an index where one applies.
    sqlx::query("set enable_seqscan = off")
        .execute(&mut *conn)
        .await
        .unwrap();

    let plan: Vec<String> = sqlx::query_scalar(
        "explain select booking_id from booking.booking where due_at <= now()
         order by due_at limit 100 for update skip locked",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();

    let plan = plan.join("\n");
    assert!(plan.contains("booking_due_idx"), "{plan}");
    let definition: String = sqlx::query_scalar(
        "select indexdef from pg_indexes where schemaname = 'booking' and indexname = 'booking_due_idx'",
    )
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    assert!(definition.contains("WHERE (due_at IS NOT NULL)"), "{definition}");
}

#[tokio::test]
async fn approvals_racing_the_scheduler_at_the_expiry_never_confirm_and_each_expiry_is_written_once() {
    let app = TestApp::spawn_with_idle_scheduler().await;
    app.clock.set(at("2030-06-01T12:00:00Z"));
    let coach = app.coach();
    let slot_id = app.slot(&coach, weekly("Monday", "09:00", "10:00", None)).await;
    let mut pending = Vec::new();
    for week in 0..10u64 {
        let date = "2030-06-03".parse::<chrono::NaiveDate>().unwrap() + chrono::Days::new(7 * week);
        pending.push(
            app.book(&app.client(), coach.id, &slot_id, date)
                .await
                .unwrap()
                .booking_id,
        );
    }
    // Every one of them expires at 2030-06-03 12:00 (48 hours after it was made).
    app.clock.set(at("2030-06-03T12:00:00Z"));

    let scheduler = app.scheduler();
    let (approvals, applied) = tokio::join!(
        join_all(pending.iter().map(|id| app.approve(&coach, id))),
        scheduler.run_due()
    );

    assert!(
        approvals.iter().all(|a| a
            .as_ref()
            .is_err_and(|s| s.code() == tonic::Code::FailedPrecondition)),
        "{approvals:?}"
    );
    applied.expect("the scheduler's tick succeeds");
    let counts = event_counts(&app).await;
    for booking_id in &pending {
        assert_eq!(app.status_of(booking_id).await, "expired");
        assert_eq!(counts[&(booking_id.clone(), "booking_expired".into())], 1);
        assert!(!counts.contains_key(&(booking_id.clone(), "booking_confirmed".into())));
    }
}
