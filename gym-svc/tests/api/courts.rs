//! Courts: the owning gym adds them (basketball unless told otherwise); anyone signed in lists them.

use tonic::Code;

use crate::helpers::TestApp;

#[tokio::test]
async fn a_court_without_a_type_is_a_basketball_court() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let location = app.create_location(&gym, "Downtown").await;

    let court = app
        .try_create_court(&gym, &location.location_id, "Court 1", "")
        .await
        .unwrap();

    assert_eq!(court.court_type, "basketball");
    assert_eq!(court.court_name, "Court 1");
    assert_eq!(court.location_id, location.location_id);
}

#[tokio::test]
async fn volleyball_and_multi_purpose_courts_keep_their_type() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let location = app.create_location(&gym, "Downtown").await;

    let volleyball = app
        .try_create_court(&gym, &location.location_id, "Sand", "volleyball")
        .await
        .unwrap();
    let multi = app
        .try_create_court(&gym, &location.location_id, "Hall", "multi-purpose")
        .await
        .unwrap();

    assert_eq!(volleyball.court_type, "volleyball");
    assert_eq!(multi.court_type, "multi-purpose");
}

#[tokio::test]
async fn an_unknown_court_type_is_refused_and_nothing_is_added() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let location = app.create_location(&gym, "Downtown").await;

    let error = app
        .try_create_court(&gym, &location.location_id, "Court 1", "tennis")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::InvalidArgument);
    assert_eq!(
        error.message(),
        "court_type must be basketball, volleyball or multi-purpose"
    );
    assert!(
        app.list_courts(&gym, &location.location_id)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn another_gym_cannot_add_a_court_to_a_location() {
    let app = TestApp::spawn().await;
    let owner = app.gym();
    let intruder = app.gym();
    let location = app.create_location(&owner, "Downtown").await;

    let error = app
        .try_create_court(&intruder, &location.location_id, "Sneaky", "")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
    assert!(
        app.list_courts(&owner, &location.location_id)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn a_coach_lists_a_locations_courts_in_the_order_they_were_added() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let location = app.create_location(&gym, "Downtown").await;
    let first = app.create_court(&gym, &location.location_id, "Court 1").await;
    let second = app.create_court(&gym, &location.location_id, "Court 2").await;
    let coach = app.coach();

    let courts = app.list_courts(&coach, &location.location_id).await.unwrap();

    assert_eq!(courts, vec![first, second]);
}

#[tokio::test]
async fn listing_the_courts_of_an_unknown_location_is_not_found() {
    let app = TestApp::spawn().await;
    let coach = app.coach();

    let error = app
        .list_courts(&coach, &uuid::Uuid::new_v4().to_string())
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
    assert_eq!(error.message(), "this gym location does not exist");
}

#[tokio::test]
async fn a_malformed_location_id_is_invalid_argument() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app.try_create_court(&gym, "42", "Court 1", "").await.unwrap_err();

    assert_eq!(error.code(), Code::InvalidArgument);
    assert_eq!(error.message(), "location_id must be a UUID");
}

#[tokio::test]
async fn adding_a_court_to_an_unknown_location_is_not_found() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .try_create_court(&gym, &uuid::Uuid::new_v4().to_string(), "Court 1", "")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
}
