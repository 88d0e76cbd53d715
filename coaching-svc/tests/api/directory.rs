//! The coach directory: who is listed, with what, and the revision that changes with it.

use std::collections::HashSet;

use proto::coaching::v1 as pb;
use uuid::Uuid;

use crate::helpers::{TestApp, as_user, location, profile_fields};

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
    let first = app.statements_run() - statements_before;
    let statements_before = app.statements_run();
    let again = app.directory().await.coaches;
    let unchanged = app.statements_run() - statements_before;

    assert_eq!(
        (first, unchanged),
        (2, 1),
        "the revision and the directory in one statement; then, unchanged, the revision only"
    );
    assert_eq!(again, coaches);
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

    assert_eq!(
        (without, with),
        (2, 2),
        "the revision, then one statement, rated or not: the figures moved the revision"
    );
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

/// A page of the directory sorted by price, first page of two coaches.
async fn cheapest_two(app: &TestApp) -> Vec<pb::CoachListing> {
    let query = pb::DirectoryQuery {
        sort: "price".into(),
        limit: 2,
        ..Default::default()
    };
    let request = pb::ListCoachesRequest { query: Some(query) };
    app.api()
        .list_coaches(request)
        .await
        .unwrap()
        .into_inner()
        .coaches
}

#[tokio::test]
async fn a_page_shows_every_change_at_once_and_costs_one_statement_while_nothing_changes() {
    let app = TestApp::start().await;
    let dear = app.coach();
    app.create_profile(&dear, profile_fields(90.0, 5, &["Shooting"]))
        .await
        .unwrap();
    let cheap = app.coach();
    app.create_profile(&cheap, profile_fields(40.0, 5, &["Defense"]))
        .await
        .unwrap();
    let ids = |page: &[pb::CoachListing]| page.iter().map(|c| c.coach_id.clone()).collect::<Vec<_>>();
    assert_eq!(
        ids(&cheapest_two(&app).await),
        [cheap.id.to_string(), dear.id.to_string()]
    );

    let before = app.statements_run();
    cheapest_two(&app).await;
    assert_eq!(app.statements_run() - before, 1, "unchanged: the revision only");

    // A profile change, a new location and new review figures are each on the next page read.
    let request = as_user(
        &dear,
        pb::UpdateCoachProfileRequest {
            fields: Some(profile_fields(30.0, 5, &["Shooting"])),
        },
    );
    app.api().update_coach_profile(request).await.unwrap();
    let page = cheapest_two(&app).await;
    assert_eq!(ids(&page), [dear.id.to_string(), cheap.id.to_string()]);
    assert_eq!(page[0].hourly_rate, 30.0);

    app.create_location(&cheap, location("Gym", "Austin", "TX"))
        .await
        .unwrap();
    assert_eq!(
        city_states(&cheapest_two(&app).await[1]),
        [("Austin".into(), "TX".into())]
    );

    sqlx::query(
        "insert into coaching.coach_rating (coach_id, rating_count, rating_sum, revision) values ($1, 2, 9, 1)",
    )
    .bind(cheap.id)
    .execute(&app.db)
    .await
    .unwrap();
    let page = cheapest_two(&app).await;
    assert_eq!((page[1].rating_count, page[1].rating_average), (2, Some(4.5)));
}
