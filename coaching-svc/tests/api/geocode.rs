//! Geocoding a typed place from the bundled gazetteer.

use proto::coaching::v1 as pb;

use crate::helpers::TestApp;

async fn geocode(app: &TestApp, query: &str) -> pb::GeocodeResponse {
    app.api()
        .geocode(pb::GeocodeRequest { query: query.into() })
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn austin_tx_is_found_at_its_coordinates() {
    let app = TestApp::start().await;

    let place = geocode(&app, "Austin, TX").await;

    assert!(place.found);
    assert_eq!(place.name, "Austin, TX");
    assert!((place.lat - 30.267).abs() < 0.01 && (place.lng + 97.743).abs() < 0.01);
}

#[tokio::test]
async fn a_state_name_in_any_case_finds_the_same_place() {
    let app = TestApp::start().await;

    let lower = geocode(&app, "austin, texas").await;
    let code = geocode(&app, "Austin, TX").await;

    assert!(lower.found);
    assert_eq!(lower, code);
}

#[tokio::test]
async fn an_unknown_place_is_not_found() {
    let app = TestApp::start().await;

    let place = geocode(&app, "Atlantis, ZZ").await;

    assert!(!place.found);
}
