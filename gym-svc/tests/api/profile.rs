//! Gym profiles: one per gym, created and updated by the gym, read by anyone signed in.

use proto::gym::v1 as pb;
use tonic::{Code, Request};

use crate::helpers::TestApp;

fn fields(gym_name: &str) -> Option<pb::GymProfileFields> {
    Some(pb::GymProfileFields {
        gym_name: gym_name.into(),
        description: "Two indoor courts".into(),
        phone: "+1 (512) 555-0100".into(),
    })
}

#[tokio::test]
async fn a_gym_without_a_profile_gets_not_found() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .client()
        .get_gym_profile(gym.req(pb::GetGymProfileRequest {
            gym_id: gym.id.to_string(),
        }))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
    assert_eq!(error.message(), "this gym has no profile yet");
}

#[tokio::test]
async fn a_gym_creates_its_profile_and_anyone_signed_in_reads_it() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let coach = app.coach();

    let created = app
        .client()
        .create_gym_profile(gym.req(pb::CreateGymProfileRequest {
            fields: fields("  Hoops Arena  "),
        }))
        .await
        .unwrap()
        .into_inner()
        .profile
        .unwrap();
    let read = app
        .client()
        .get_gym_profile(coach.req(pb::GetGymProfileRequest {
            gym_id: gym.id.to_string(),
        }))
        .await
        .unwrap()
        .into_inner()
        .profile
        .unwrap();

    assert_eq!(created.gym_id, gym.id.to_string());
    assert_eq!(created.gym_name, "Hoops Arena");
    assert_eq!(read, created);
}

#[tokio::test]
async fn a_second_profile_is_refused_as_already_existing() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    app.create_profile(&gym, "Hoops Arena").await;

    let error = app
        .client()
        .create_gym_profile(gym.req(pb::CreateGymProfileRequest {
            fields: fields("Another Name"),
        }))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::AlreadyExists);
    assert_eq!(
        error.message(),
        "this gym already has a profile; update it instead"
    );
}

#[tokio::test]
async fn a_profile_needs_a_gym_name_of_at_most_100_characters() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let blank = app
        .client()
        .create_gym_profile(gym.req(pb::CreateGymProfileRequest {
            fields: fields("   "),
        }))
        .await
        .unwrap_err();
    let long = app
        .client()
        .create_gym_profile(gym.req(pb::CreateGymProfileRequest {
            fields: fields(&"x".repeat(101)),
        }))
        .await
        .unwrap_err();

    assert_eq!(blank.code(), Code::InvalidArgument);
    assert_eq!(blank.message(), "gym_name is required");
    assert_eq!(long.code(), Code::InvalidArgument);
    assert_eq!(long.message(), "gym_name must be at most 100 characters");
}

#[tokio::test]
async fn only_a_gym_can_create_a_profile() {
    let app = TestApp::spawn().await;
    let coach = app.coach();

    let error = app
        .client()
        .create_gym_profile(coach.req(pb::CreateGymProfileRequest {
            fields: fields("Coach Gym"),
        }))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
}

#[tokio::test]
async fn a_call_without_a_token_is_unauthenticated() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .client()
        .get_gym_profile(Request::new(pb::GetGymProfileRequest {
            gym_id: gym.id.to_string(),
        }))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn updating_a_missing_profile_is_not_found() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .client()
        .update_gym_profile(gym.req(pb::UpdateGymProfileRequest {
            fields: fields("Hoops Arena"),
        }))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
}

#[tokio::test]
async fn a_gym_updates_its_own_profile_and_no_other() {
    let app = TestApp::spawn().await;
    let gym = app.gym();
    let other = app.gym();
    app.create_profile(&gym, "Hoops Arena").await;
    let others_before = app.create_profile(&other, "Net Gains").await;

    let updated = app
        .client()
        .update_gym_profile(gym.req(pb::UpdateGymProfileRequest {
            fields: Some(pb::GymProfileFields {
                gym_name: "Hoops Arena North".into(),
                description: "Now with 🏐 courts; drop table gym.gym_profile;--".into(),
                phone: String::new(),
            }),
        }))
        .await
        .unwrap()
        .into_inner()
        .profile
        .unwrap();
    let others_after = app
        .client()
        .get_gym_profile(gym.req(pb::GetGymProfileRequest {
            gym_id: other.id.to_string(),
        }))
        .await
        .unwrap()
        .into_inner()
        .profile
        .unwrap();

    assert_eq!(updated.gym_name, "Hoops Arena North");
    assert_eq!(
        updated.description,
        "Now with 🏐 courts; drop table gym.gym_profile;--"
    );
    assert_eq!(updated.phone, "");
    assert_eq!(others_after, others_before);
}

#[tokio::test]
async fn a_malformed_gym_id_is_invalid_argument() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .client()
        .get_gym_profile(gym.req(pb::GetGymProfileRequest {
            gym_id: "not-a-uuid".into(),
        }))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::InvalidArgument);
    assert_eq!(error.message(), "gym_id must be a UUID");
}
