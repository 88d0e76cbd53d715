//! City search and nearby search.

use tonic::Code;

use crate::helpers::{MILES_PER_DEGREE, TestApp, User, failure, location, location_at};

/// A listed coach (with a profile) at each of `places` (latitude, longitude).
async fn coach_at(app: &TestApp, places: &[(f64, f64)]) -> User {
    let coach = app.coach_with_profile().await;
    for (i, (lat, lng)) in places.iter().enumerate() {
        app.create_location(&coach, location_at(&format!("Court {i}"), *lat, *lng))
            .await
            .unwrap();
    }
    coach
}

/// A listed coach with a location in `city`, `state`.
async fn coach_in(app: &TestApp, city: &str, state: &str) -> User {
    let coach = app.coach_with_profile().await;
    app.create_location(&coach, location("Gym", city, state))
        .await
        .unwrap();
    coach
}

fn ids(coaches: &[proto::coaching::v1::CoachListing]) -> Vec<String> {
    coaches.iter().map(|c| c.coach_id.clone()).collect()
}

const CENTRE: (f64, f64) = (39.0, -100.0);

/// A point `miles` due north of the centre.
fn north(miles: f64) -> (f64, f64) {
    (CENTRE.0 + miles / MILES_PER_DEGREE, CENTRE.1)
}

#[tokio::test]
async fn city_search_ignores_case() {
    let app = TestApp::start().await;
    let austin = coach_in(&app, "Austin", "TX").await;
    coach_in(&app, "Dallas", "TX").await;

    let lower = app.by_city(Some("austin"), None).await.unwrap();
    let upper = app.by_city(Some("  AUSTIN "), Some("tx")).await.unwrap();

    assert_eq!(ids(&lower), vec![austin.id.to_string()]);
    assert_eq!(ids(&upper), vec![austin.id.to_string()]);
}

#[tokio::test]
async fn state_search_finds_a_state_by_code_or_by_name() {
    let app = TestApp::start().await;
    let by_code = coach_in(&app, "Austin", "TX").await;
    let by_name = coach_in(&app, "Dallas", "Texas").await;
    coach_in(&app, "Tulsa", "OK").await;

    let texas = app.by_city(None, Some("texas")).await.unwrap();
    let tx = app.by_city(None, Some("TX")).await.unwrap();

    let expected = vec![by_code.id.to_string(), by_name.id.to_string()];
    assert_eq!(ids(&texas), expected);
    assert_eq!(ids(&tx), expected);
}

#[tokio::test]
async fn city_and_state_must_both_match() {
    let app = TestApp::start().await;
    let texas = coach_in(&app, "Austin", "TX").await;
    coach_in(&app, "Austin", "MN").await;

    let found = app.by_city(Some("Austin"), Some("TX")).await.unwrap();

    assert_eq!(ids(&found), vec![texas.id.to_string()]);
}

#[tokio::test]
async fn city_search_needs_a_city_or_a_state() {
    let app = TestApp::start().await;

    let result = app.by_city(Some("  "), None).await;

    assert_eq!(
        failure(result, Code::InvalidArgument),
        "Please enter a city or state"
    );
}

#[tokio::test]
async fn nearby_search_lists_the_nearest_coach_first_with_distances_in_miles() {
    let app = TestApp::start().await;
    let ten = coach_at(&app, &[north(10.0)]).await;
    let three = coach_at(&app, &[north(3.0)]).await;
    coach_at(&app, &[north(40.0)]).await;

    let coaches = app.nearby(CENTRE.0, CENTRE.1, 0.0).await.unwrap();

    assert_eq!(ids(&coaches), vec![three.id.to_string(), ten.id.to_string()]);
    let distances: Vec<f64> = coaches.iter().map(|c| c.distance.unwrap()).collect();
    assert!((distances[0] - 3.0).abs() < 0.02, "{distances:?}");
    assert!((distances[1] - 10.0).abs() < 0.02, "{distances:?}");
}

#[tokio::test]
async fn the_default_radius_of_25_miles_takes_a_place_just_inside_and_not_one_just_outside() {
    let app = TestApp::start().await;
    let inside = coach_at(&app, &[north(24.9)]).await;
    coach_at(&app, &[north(25.1)]).await;

    let coaches = app.nearby(CENTRE.0, CENTRE.1, 0.0).await.unwrap();

    assert_eq!(ids(&coaches), vec![inside.id.to_string()]);
}

#[tokio::test]
async fn a_place_in_the_corner_of_the_square_around_the_circle_is_too_far() {
    let app = TestApp::start().await;
    let east = 20.0 / (MILES_PER_DEGREE * CENTRE.0.to_radians().cos());
    // 20 miles north and 20 miles east: about 28 miles away.
    coach_at(&app, &[(north(20.0).0, CENTRE.1 + east)]).await;
    let inside = coach_at(&app, &[(north(15.0).0, CENTRE.1 + east * 0.75)]).await;

    let coaches = app.nearby(CENTRE.0, CENTRE.1, 25.0).await.unwrap();

    assert_eq!(ids(&coaches), vec![inside.id.to_string()]);
}

#[tokio::test]
async fn a_wider_radius_takes_farther_places() {
    let app = TestApp::start().await;
    let near = coach_at(&app, &[north(5.0)]).await;
    let far = coach_at(&app, &[north(40.0)]).await;

    let coaches = app.nearby(CENTRE.0, CENTRE.1, 50.0).await.unwrap();

    assert_eq!(ids(&coaches), vec![near.id.to_string(), far.id.to_string()]);
}

#[tokio::test]
async fn a_centre_and_radius_of_subnormal_floats_search_instead_of_failing() {
    let app = TestApp::start().await;
    let at_null_island = coach_at(&app, &[(0.0, 0.0)]).await;

    let coaches = app.nearby(5e-324, -4.9e-154, 6708.2).await.unwrap();
    let tiny_radius = app.nearby(0.0, 0.0, 1e-300).await.unwrap();

    assert_eq!(ids(&coaches), vec![at_null_island.id.to_string()]);
    assert_eq!(ids(&tiny_radius), vec![at_null_island.id.to_string()]);
}

#[tokio::test]
async fn a_coach_with_several_locations_appears_once_at_the_nearest() {
    let app = TestApp::start().await;
    let coach = coach_at(&app, &[north(20.0), north(4.0), north(100.0)]).await;

    let coaches = app.nearby(CENTRE.0, CENTRE.1, 25.0).await.unwrap();

    assert_eq!(ids(&coaches), vec![coach.id.to_string()]);
    assert!((coaches[0].distance.unwrap() - 4.0).abs() < 0.02);
    assert_eq!(
        coaches[0].locations.len(),
        3,
        "the listing still shows every location"
    );
}

#[tokio::test]
async fn a_coach_without_a_profile_is_not_found_nearby() {
    let app = TestApp::start().await;
    let coach = app.coach();
    app.create_location(&coach, location_at("Gym", north(1.0).0, CENTRE.1))
        .await
        .unwrap();

    let coaches = app.nearby(CENTRE.0, CENTRE.1, 25.0).await.unwrap();

    assert!(coaches.is_empty());
}

#[tokio::test]
async fn a_location_saved_without_coordinates_is_found_near_its_city() {
    let app = TestApp::start().await;
    let coach = coach_in(&app, "Round Rock", "TX").await;

    // Downtown Austin is about 17 miles from Round Rock.
    let coaches = app.nearby(30.26715, -97.74306, 25.0).await.unwrap();

    assert_eq!(ids(&coaches), vec![coach.id.to_string()]);
}

#[tokio::test]
async fn a_nearby_search_out_of_range_is_refused() {
    let app = TestApp::start().await;

    let latitude = app.nearby(95.0, 0.0, 25.0).await;
    let radius = app.nearby(30.0, -97.0, -5.0).await;

    assert_eq!(
        failure(latitude, Code::InvalidArgument),
        "lat must be between -90 and 90"
    );
    failure(radius, Code::InvalidArgument);
}
