//! Identity's events: a coach who is deleted or stops being a coach leaves the directory.

use platform::{
    auth::Role,
    events::{Envelope, Event, publish, stream_key},
};
use proto::coaching::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, User, eventually, location, recurring};

async fn send(app: &TestApp, envelope: &Envelope) {
    let client = redis::Client::open("redis://127.0.0.1:6379").unwrap();
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("Redis is up");
    publish(&mut conn, &stream_key(&app.redis_namespace), envelope)
        .await
        .unwrap();
}

fn envelope(event: Event) -> Envelope {
    Envelope {
        event_id: Uuid::new_v4(),
        occurred_at: chrono::Utc::now().to_rfc3339(),
        event,
    }
}

fn deleted(user: &User) -> Envelope {
    envelope(Event::UserDeleted {
        user_id: user.id,
        role: Role::Coach,
    })
}

/// A coach with a profile, a location and a slot.
async fn set_up_coach(app: &TestApp) -> User {
    let coach = app.coach_with_profile().await;
    app.create_location(&coach, location("Gym", "Austin", "TX"))
        .await
        .unwrap();
    app.create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();
    coach
}

async fn has_profile(app: &TestApp, coach: &User) -> bool {
    match app.get_profile(&app.client_user(), coach.id).await {
        Ok(_) => true,
        Err(status) if status.code() == Code::NotFound => false,
        Err(status) => panic!("{status:?}"),
    }
}

async fn location_count(app: &TestApp, coach: &User) -> i64 {
    app.api()
        .count_coach_locations(crate::helpers::as_user(
            &app.client_user(),
            pb::CountCoachLocationsRequest {
                coach_id: coach.id.to_string(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .count
}

/// Waits until the coach's profile is gone.
async fn until_removed(app: &TestApp, coach: &User) {
    eventually("the coach's profile is removed", move || async move {
        !has_profile(app, coach).await
    })
    .await;
}

#[tokio::test]
async fn a_deleted_coach_leaves_the_directory_with_their_locations_slots_and_policy() {
    let app = TestApp::start().await;
    let coach = set_up_coach(&app).await;
    let other = set_up_coach(&app).await;
    let strict = pb::BookingPolicy {
        min_notice_minutes: 600,
        max_advance_days: 10,
        response_window_minutes: 60,
        cancellation_window_minutes: 60,
        late_cancellation_fee_percent: Some(10),
        no_show_fee_percent: Some(75),
    };
    app.api()
        .update_booking_policy(crate::helpers::as_user(
            &coach,
            pb::UpdateBookingPolicyRequest { policy: Some(strict) },
        ))
        .await
        .unwrap();

    send(&app, &deleted(&coach)).await;

    until_removed(&app, &coach).await;
    let policies: i64 =
        sqlx::query_scalar("select count(*) from coaching.booking_policy where coach_id = $1")
            .bind(coach.id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(policies, 0);
    assert_eq!(location_count(&app, &coach).await, 0);
    assert!(app.slots_of(&app.client_user(), coach.id).await.is_empty());
    let listed: Vec<String> = app
        .directory()
        .await
        .coaches
        .into_iter()
        .map(|c| c.coach_id)
        .collect();
    assert_eq!(listed, vec![other.id.to_string()]);
}

#[tokio::test]
async fn a_coach_who_becomes_a_client_leaves_the_directory() {
    let app = TestApp::start().await;
    let coach = set_up_coach(&app).await;

    send(
        &app,
        &envelope(Event::RoleChanged {
            user_id: coach.id,
            old_role: Role::Coach,
            new_role: Role::Client,
        }),
    )
    .await;

    until_removed(&app, &coach).await;
    assert_eq!(location_count(&app, &coach).await, 0);
    assert!(app.directory().await.coaches.is_empty());
}

#[tokio::test]
async fn an_event_delivered_twice_is_applied_once() {
    let app = TestApp::start().await;
    let coach = set_up_coach(&app).await;
    let event = deleted(&coach);
    send(&app, &event).await;
    until_removed(&app, &coach).await;
    // The same person signs up as a coach again under the same id (as a test can say).
    app.create_profile(&coach, crate::helpers::profile_fields(30.0, 1, &[]))
        .await
        .unwrap();
    let marker = set_up_coach(&app).await;

    send(&app, &event).await;
    send(&app, &deleted(&marker)).await;

    // Events are applied in order: once the marker is gone, the redelivery has been handled.
    until_removed(&app, &marker).await;
    assert!(has_profile(&app, &coach).await);
}

/// Coaching's change stamp as it reads in Redis.
async fn coaching_stamp(app: &TestApp) -> Option<String> {
    let mut conn = redis::Client::open(platform::testing::REDIS_URL)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let key = platform::stamps::key(&app.redis_namespace, platform::stamps::Context::Coaching);
    redis::AsyncCommands::get(&mut conn, key).await.unwrap()
}

/// Waits until coaching's consumer group has been handed and has acknowledged every entry.
async fn until_consumed(app: &TestApp) {
    let conn = redis::Client::open(platform::testing::REDIS_URL)
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let stream = stream_key(&app.redis_namespace);
    eventually("coaching-svc acknowledges every event", || {
        let (mut conn, stream) = (conn.clone(), stream.clone());
        async move {
            let groups: redis::streams::StreamInfoGroupsReply =
                redis::AsyncCommands::xinfo_groups(&mut conn, &stream)
                    .await
                    .unwrap();
            groups
                .groups
                .iter()
                .any(|g| g.name == "coaching-svc" && g.pending == 0 && g.lag == Some(0))
        }
    })
    .await;
}

#[tokio::test]
async fn another_context_s_event_leaves_coaching_s_stamp_alone_and_a_removal_renews_it() {
    let app = TestApp::start().await;
    let coach = set_up_coach(&app).await;
    let before = coaching_stamp(&app).await;
    assert!(before.is_some(), "coaching-svc sets its stamp when it starts");

    // Every booking's event passes by on the shared stream: what gateways and booking-svc
    // remember of coaching must outlive it.
    send(
        &app,
        &envelope(Event::UserRenamed {
            user_id: Uuid::new_v4(),
            full_name: "Somebody Else".into(),
        }),
    )
    .await;
    until_consumed(&app).await;
    assert_eq!(coaching_stamp(&app).await, before);

    send(&app, &deleted(&coach)).await;
    until_removed(&app, &coach).await;
    until_consumed(&app).await;
    assert_ne!(coaching_stamp(&app).await, before);
}

fn rated(coach: &User, rating_count: i64, rating_sum: i64, revision: i64) -> Envelope {
    envelope(Event::CoachRatingChanged {
        coach_id: coach.id,
        rating_count,
        rating_sum,
        stars: [0, 0, 0, 0, rating_count],
        revision,
    })
}

async fn rating_of(app: &TestApp, coach: &User) -> (Option<f64>, i64) {
    let profile = app.get_profile(&app.client_user(), coach.id).await.unwrap();
    (profile.rating_average, profile.rating_count)
}

async fn stars_of(app: &TestApp, coach: &User) -> Vec<i64> {
    app.get_profile(&app.client_user(), coach.id)
        .await
        .unwrap()
        .rating_stars
}

#[tokio::test]
async fn a_coach_s_review_figures_reach_the_profile_and_the_directory_with_one_decimal() {
    let app = TestApp::start().await;
    let coach = set_up_coach(&app).await;
    assert_eq!(rating_of(&app, &coach).await, (None, 0));

    send(
        &app,
        &envelope(Event::CoachRatingChanged {
            coach_id: coach.id,
            rating_count: 3,
            rating_sum: 14,
            stars: [0, 0, 0, 1, 2],
            revision: 1,
        }),
    )
    .await;

    eventually("the figures arrive", || async {
        rating_of(&app, &coach).await == (Some(4.7), 3)
    })
    .await;
    assert_eq!(stars_of(&app, &coach).await, [0, 0, 0, 1, 2]);
    let listed = app.directory().await.coaches;
    assert_eq!((listed[0].rating_average, listed[0].rating_count), (Some(4.7), 3));
}

#[tokio::test]
async fn figures_of_an_older_revision_arriving_late_change_nothing() {
    let app = TestApp::start().await;
    let coach = set_up_coach(&app).await;

    send(&app, &rated(&coach, 2, 10, 2)).await;
    eventually("revision 2 arrives", || async {
        rating_of(&app, &coach).await == (Some(5.0), 2)
    })
    .await;
    send(&app, &rated(&coach, 1, 5, 1)).await;
    // A marker after the late event: once it is applied, so is the late one.
    send(&app, &rated(&coach, 0, 0, 3)).await;
    eventually("revision 3 arrives", || async {
        rating_of(&app, &coach).await == (None, 0)
    })
    .await;
    let again = rated(&coach, 2, 10, 2);
    send(&app, &again).await;
    send(&app, &rated(&coach, 1, 4, 4)).await;

    eventually("revision 4 arrives", || async {
        rating_of(&app, &coach).await == (Some(4.0), 1)
    })
    .await;
}

#[tokio::test]
async fn a_renamed_coach_is_found_by_the_new_name() {
    let app = TestApp::start().await;
    let coach = set_up_coach(&app).await;
    let named = |q: &'static str| {
        let app = &app;
        async move {
            app.api()
                .list_coaches(pb::ListCoachesRequest {
                    query: Some(pb::DirectoryQuery {
                        q: Some(q.into()),
                        ..Default::default()
                    }),
                })
                .await
                .unwrap()
                .into_inner()
                .coaches
                .len()
        }
    };
    assert_eq!(named("zed").await, 0);

    send(
        &app,
        &envelope(Event::UserRenamed {
            user_id: coach.id,
            full_name: "Zed Newname".into(),
        }),
    )
    .await;

    eventually("the new name is found", || async { named("NEWNAME").await == 1 }).await;
}
