//! The coach directory: who is listed, with what, and the version that changes with it.

use std::collections::HashSet;

use proto::coaching::v1 as pb;
use uuid::Uuid;

use crate::helpers::{TestApp, location};

fn city_states(listing: &pb::CoachListing) -> Vec<(String, String)> {
    listing
        .locations
        .iter()
        .map(|l| (l.city.clone(), l.state.clone()))
        .collect()
}

#[tokio::test]
async fn the_directory_lists_only_coaches_with_a_profile_each_with_their_locations() {
    let app = TestApp::start().await;
    let listed = app.coach_with_profile().await;
    app.create_location(&listed, location("North", "Austin", "TX"))
        .await
        .unwrap();
    app.create_location(&listed, location("South", "Dallas", "TX"))
        .await
        .unwrap();
    let without_profile = app.coach();
    app.create_location(&without_profile, location("Gym", "Austin", "TX"))
        .await
        .unwrap();
    let without_locations = app.coach_with_profile().await;

    let coaches = app.directory().await.coaches;

    let ids: Vec<&str> = coaches.iter().map(|c| c.coach_id.as_str()).collect();
    assert_eq!(ids, vec![listed.id.to_string(), without_locations.id.to_string()]);
    assert_eq!(
        city_states(&coaches[0]),
        vec![("Austin".into(), "TX".into()), ("Dallas".into(), "TX".into())]
    );
    assert!(coaches[1].locations.is_empty());
    assert_eq!(coaches[0].hourly_rate, 50.0);
    assert_eq!(coaches[0].years_experience, 5);
    assert_eq!(coaches[0].specialties, vec!["Shooting"]);
    assert_eq!(coaches[0].bio, "I coach.");
    assert_eq!(coaches[0].distance, None);
}

#[tokio::test]
async fn an_empty_directory_is_an_empty_list() {
    let app = TestApp::start().await;

    let directory = app.directory().await;

    assert!(directory.coaches.is_empty());
}

#[tokio::test]
async fn the_unread_directory_version_and_its_triggers_are_gone() {
    let app = TestApp::start().await;

    let (table, function): (Option<String>, Option<String>) = sqlx::query_as(
        "select to_regclass('coaching.directory_version')::text,
                to_regprocedure('coaching.bump_directory_version()')::text",
    )
    .fetch_one(&app.db)
    .await
    .unwrap();
    let triggers: i64 =
        sqlx::query_scalar("select count(*) from pg_trigger where tgname like '%directory_version%'")
            .fetch_one(&app.db)
            .await
            .unwrap();

    assert_eq!((table, function, triggers), (None, None, 0));
}

#[tokio::test]
async fn a_directory_of_1000_coaches_comes_back_whole_with_their_locations_from_one_statement() {
    let app = TestApp::start().await;
    sqlx::query(
        "insert into coaching.coach_profile (coach_id, bio, specialties, hourly_rate, years_experience)
         select gen_random_uuid(), 'Coach ' || i, array['Shooting', 'Defense'], 40 + i % 50, i % 30
         from generate_series(1, 1000) i",
    )
    .execute(&app.db)
    .await
    .unwrap();
    sqlx::query(
        "insert into coaching.location (location_id, coach_id, name, city, state, created_at)
         select gen_random_uuid(), p.coach_id, 'Court ' || n, 'City ' || n, 'TX', now() + n * interval '1 second'
         from coaching.coach_profile p cross join generate_series(1, 2) n",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let seeded: HashSet<Uuid> = sqlx::query_scalar("select coach_id from coaching.coach_profile")
        .fetch_all(&app.db)
        .await
        .unwrap()
        .into_iter()
        .collect();

    let statements_before = app.statements_run();
    let coaches = app.directory().await.coaches;

    assert_eq!(
        app.statements_run() - statements_before,
        1,
        "the directory is one statement"
    );
    let listed: HashSet<Uuid> = coaches.iter().map(|c| c.coach_id.parse().unwrap()).collect();
    assert_eq!(coaches.len(), 1000);
    assert_eq!(listed, seeded);
    for coach in &coaches {
        assert_eq!(
            city_states(coach),
            vec![("City 1".into(), "TX".into()), ("City 2".into(), "TX".into())],
            "{}",
            coach.coach_id
        );
    }
}

#[tokio::test]
async fn the_directory_needs_no_sign_in() {
    let app = TestApp::start().await;
    app.coach_with_profile().await;

    let result = app.api().list_coaches(pb::ListCoachesRequest::default()).await;

    assert_eq!(result.unwrap().into_inner().coaches.len(), 1);
}

#[tokio::test]
async fn a_directory_of_1000_rated_coaches_costs_the_statements_of_one_without_ratings() {
    let app = TestApp::start().await;
    sqlx::query(
        "insert into coaching.coach_profile (coach_id, bio, specialties, hourly_rate, years_experience)
         select gen_random_uuid(), 'Coach ' || i, array['Shooting'], 40 + i % 50, i % 30
         from generate_series(1, 1000) i",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let before = app.statements_run();
    let unrated = app.directory().await.coaches;
    let without = app.statements_run() - before;
    sqlx::query(
        "insert into coaching.coach_rating (coach_id, rating_count, rating_sum, revision)
         select coach_id, 3, 3 + years_experience % 12, 1 from coaching.coach_profile",
    )
    .execute(&app.db)
    .await
    .unwrap();

    let before = app.statements_run();
    let rated = app.directory().await.coaches;
    let with = app.statements_run() - before;

    assert_eq!((without, with), (1, 1), "one statement, rated or not");
    assert!(
        unrated
            .iter()
            .all(|c| c.rating_average.is_none() && c.rating_count == 0)
    );
    assert_eq!(rated.len(), 1000);
    assert!(
        rated
            .iter()
            .all(|c| c.rating_count == 3 && c.rating_average.is_some_and(|a| (1.0..=5.0).contains(&a))),
        "every coach rated"
    );
}
