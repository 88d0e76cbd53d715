//! Coach locations: adding them, listing them, counting them, coordinates.

use proto::coaching::v1 as pb;
use tonic::Code;

use crate::helpers::{TestApp, as_user, failure, location, location_at};

#[tokio::test]
async fn a_coach_adds_a_location_and_sees_it_in_their_list_and_on_their_page() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let created = app
        .create_location(&coach, location_at("Eastside Rec", 30.3, -97.7))
        .await
        .unwrap();
    let mine = app
        .api()
        .list_my_locations(as_user(&coach, pb::ListMyLocationsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .locations;
    let theirs = app
        .api()
        .list_coach_locations(as_user(
            &app.client_user(),
            pb::ListCoachLocationsRequest {
                coach_id: coach.id.to_string(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .locations;

    assert_eq!(created.name, "Eastside Rec");
    assert_eq!(created.coach_id, coach.id.to_string());
    assert_eq!((created.latitude, created.longitude), (Some(30.3), Some(-97.7)));
    assert_eq!(mine, vec![created.clone()]);
    assert_eq!(theirs, vec![created]);
}

#[tokio::test]
async fn a_location_saved_without_coordinates_gets_them_from_the_gazetteer() {
    let app = TestApp::start().await;

    let created = app
        .create_location(&app.coach(), location("Downtown Gym", "austin", "Texas"))
        .await
        .unwrap();

    let (lat, lng) = (created.latitude.unwrap(), created.longitude.unwrap());
    assert!(
        (lat - 30.267).abs() < 0.01 && (lng + 97.743).abs() < 0.01,
        "{lat} {lng}"
    );
    assert_eq!(
        (created.city.as_str(), created.state.as_str()),
        ("austin", "Texas")
    );
}

#[tokio::test]
async fn a_location_in_a_place_the_gazetteer_does_not_know_keeps_no_coordinates() {
    let app = TestApp::start().await;

    // Its zone cannot be derived either, so the coach names it.
    let created = app
        .create_location(
            &app.coach(),
            pb::CreateLocationRequest {
                time_zone: Some("Pacific/Guam".into()),
                ..location("Court", "Atlantis", "Ocean")
            },
        )
        .await
        .unwrap();

    assert_eq!((created.latitude, created.longitude), (None, None));
    assert_eq!(created.time_zone, "Pacific/Guam");
}

#[tokio::test]
async fn coordinates_out_of_range_are_refused_with_a_detail() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let latitude = app.create_location(&coach, location_at("Gym", 90.5, 0.0)).await;
    let longitude = app.create_location(&coach, location_at("Gym", 0.0, -180.5)).await;

    assert_eq!(
        failure(latitude, Code::InvalidArgument),
        "latitude must be between -90 and 90"
    );
    assert_eq!(
        failure(longitude, Code::InvalidArgument),
        "longitude must be between -180 and 180"
    );
}

#[tokio::test]
async fn a_location_needs_a_name() {
    let app = TestApp::start().await;

    let result = app
        .create_location(&app.coach(), location("  ", "Austin", "TX"))
        .await;

    assert_eq!(failure(result, Code::InvalidArgument), "name is required");
}

#[tokio::test]
async fn only_a_coach_can_add_a_location() {
    let app = TestApp::start().await;
    let client = app.client_user();

    let result = app
        .create_location(&client, location("Gym", "Austin", "TX"))
        .await;

    failure(result, Code::PermissionDenied);
}

#[tokio::test]
async fn a_coach_sees_only_their_own_locations() {
    let app = TestApp::start().await;
    let (ann, bob) = (app.coach(), app.coach());
    app.create_location(&ann, location("Ann's gym", "Austin", "TX"))
        .await
        .unwrap();
    let bobs = app
        .create_location(&bob, location("Bob's gym", "Dallas", "TX"))
        .await
        .unwrap();

    let mine = app
        .api()
        .list_my_locations(as_user(&bob, pb::ListMyLocationsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .locations;

    assert_eq!(mine, vec![bobs]);
}

#[tokio::test]
async fn the_location_count_is_the_number_of_a_coachs_locations() {
    let app = TestApp::start().await;
    let coach = app.coach();
    for name in ["One", "Two", "Three"] {
        app.create_location(&coach, location(name, "Austin", "TX"))
            .await
            .unwrap();
    }

    let count = app
        .api()
        .count_coach_locations(as_user(
            &app.user(platform::auth::Role::Admin),
            pb::CountCoachLocationsRequest {
                coach_id: coach.id.to_string(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .count;

    assert_eq!(count, 3);
}
