//! Gym locations: a gym sees and adds its own; everyone else browses every gym's, with names.

use platform::auth::Role;
use proto::gym::v1 as pb;
use tonic::Code;

use crate::helpers::TestApp;

async fn locations(app: &TestApp, actor: &crate::helpers::Actor) -> Vec<pb::GymLocation> {
    app.client()
        .list_gym_locations(actor.req(pb::ListGymLocationsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .locations
}

#[tokio::test]
async fn a_gym_sees_only_its_own_locations() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let other = app.gym();
    let own = app.create_location(&gym, "Downtown").await;
    app.create_location(&other, "Uptown").await;

    let seen = locations(&app, &gym).await;

    assert_eq!(seen, vec![own]);
}

#[tokio::test]
async fn coaches_see_every_gyms_locations_with_their_gym_names() {
    let app = TestApp::spawn().await;
    let (first, second) = (app.gym(), app.gym());
    app.create_profile(&first, "Hoops Arena").await;
    app.create_profile(&second, "Net Gains").await;
    app.create_location(&first, "Downtown").await;
    app.create_location(&second, "Uptown").await;
    let coach = app.coach();

    let seen = locations(&app, &coach).await;

    let names: Vec<_> = seen
        .iter()
        .map(|l| (l.gym_name.as_str(), l.name.as_str()))
        .collect();
    assert_eq!(names, vec![("Hoops Arena", "Downtown"), ("Net Gains", "Uptown")]);
}

#[tokio::test]
async fn a_location_of_a_gym_without_a_profile_is_named_unnamed_gym() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let created = app.create_location(&gym, "Downtown").await;

    assert_eq!(created.gym_name, "Unnamed gym");
    assert_eq!(created.gym_id, gym.id.to_string());
    assert_eq!(
        (created.latitude, created.longitude),
        (Some(30.2672), Some(-97.7431))
    );
}

#[tokio::test]
async fn coordinates_out_of_range_are_refused_and_nothing_is_added() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .client()
        .create_gym_location(gym.req(pb::CreateGymLocationRequest {
            name: "Downtown".into(),
            address: "100 Congress Ave".into(),
            city: "Austin".into(),
            state: "TX".into(),
            latitude: Some(91.0),
            longitude: None,
            time_zone: None,
        }))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::InvalidArgument);
    assert_eq!(error.message(), "latitude must be a number between -90 and 90");
    assert!(locations(&app, &gym).await.is_empty());
}

#[tokio::test]
async fn a_location_without_coordinates_is_accepted() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let created = app
        .client()
        .create_gym_location(gym.req(pb::CreateGymLocationRequest {
            name: "Downtown".into(),
            address: "100 Congress Ave".into(),
            city: "Austin".into(),
            state: "TX".into(),
            latitude: None,
            longitude: None,
            time_zone: None,
        }))
        .await
        .unwrap()
        .into_inner()
        .location
        .unwrap();

    assert_eq!((created.latitude, created.longitude), (None, None));
}

#[tokio::test]
async fn only_a_gym_can_add_a_location() {
    let app = TestApp::spawn().await;
    let coach = app.coach();

    let error = app.try_create_location(&coach, "Coach Court").await.unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
    assert!(locations(&app, &coach).await.is_empty());
}

#[tokio::test]
async fn an_admin_or_the_gym_itself_counts_its_locations() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let other = app.gym();
    let admin = app.actor(Role::Admin);
    app.create_location(&gym, "Downtown").await;
    app.create_location(&gym, "Uptown").await;
    let count = |actor: &crate::helpers::Actor| {
        let mut client = app.client();
        let request = actor.req(pb::CountGymLocationsRequest {
            gym_id: gym.id.to_string(),
        });
        async move { client.count_gym_locations(request).await }
    };

    let by_admin = count(&admin).await.unwrap().into_inner().count;
    let by_itself = count(&gym).await.unwrap().into_inner().count;
    let by_another_gym = count(&other).await.unwrap_err();

    assert_eq!((by_admin, by_itself), (2, 2));
    assert_eq!(by_another_gym.code(), Code::PermissionDenied);
}
