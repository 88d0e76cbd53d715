//! Coach profiles: create, read, update; who may.

use proto::coaching::v1 as pb;
use tonic::{Code, Request};

use crate::helpers::{TestApp, as_user, failure, profile_fields};

#[tokio::test]
async fn a_coach_creates_a_profile_that_any_signed_in_user_can_read() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let created = app
        .create_profile(&coach, profile_fields(75.5, 12, &["Shooting", "Defense"]))
        .await
        .unwrap();
    let read = app.get_profile(&app.client_user(), coach.id).await.unwrap();

    assert_eq!(created, read);
    assert_eq!(read.coach_id, coach.id.to_string());
    assert_eq!(read.hourly_rate, 75.5);
    assert_eq!(read.years_experience, 12);
    assert_eq!(read.specialties, vec!["Shooting", "Defense"]);
}

#[tokio::test]
async fn a_coach_without_a_profile_is_not_found_with_a_reason() {
    let app = TestApp::start().await;

    let result = app.get_profile(&app.client_user(), app.coach().id).await;

    assert_eq!(failure(result, Code::NotFound), "this coach has no profile yet");
}

#[tokio::test]
async fn a_second_profile_for_the_same_coach_already_exists() {
    let app = TestApp::start().await;
    let coach = app.coach_with_profile().await;

    let result = app.create_profile(&coach, profile_fields(99.0, 1, &[])).await;

    failure(result, Code::AlreadyExists);
    assert_eq!(app.get_profile(&coach, coach.id).await.unwrap().hourly_rate, 50.0);
}

#[tokio::test]
async fn updating_replaces_every_field_of_the_profile() {
    let app = TestApp::start().await;
    let coach = app.coach_with_profile().await;

    let request = as_user(
        &coach,
        pb::UpdateCoachProfileRequest {
            fields: Some(pb::CoachProfileFields {
                bio: "Now coaching volleyball too.".into(),
                specialties: vec!["Volleyball".into()],
                hourly_rate: 80.0,
                years_experience: 6,
                time_zone: None,
                coach_name: None,
            }),
        },
    );
    app.api().update_coach_profile(request).await.unwrap();

    let profile = app.get_profile(&coach, coach.id).await.unwrap();
    assert_eq!(profile.bio, "Now coaching volleyball too.");
    assert_eq!(profile.specialties, vec!["Volleyball"]);
    assert_eq!((profile.hourly_rate, profile.years_experience), (80.0, 6));
}

#[tokio::test]
async fn updating_a_profile_that_does_not_exist_is_not_found() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let request = as_user(
        &coach,
        pb::UpdateCoachProfileRequest {
            fields: Some(profile_fields(10.0, 1, &[])),
        },
    );
    let result = app.api().update_coach_profile(request).await;

    failure(result, Code::NotFound);
}

#[tokio::test]
async fn a_negative_rate_or_negative_years_are_refused_with_a_detail_and_nothing_changes() {
    let app = TestApp::start().await;
    let coach = app.coach_with_profile().await;

    let rate = app
        .create_profile(&app.coach(), profile_fields(-1.0, 3, &[]))
        .await;
    let years = app
        .api()
        .update_coach_profile(as_user(
            &coach,
            pb::UpdateCoachProfileRequest {
                fields: Some(profile_fields(10.0, -2, &[])),
            },
        ))
        .await;

    assert_eq!(
        failure(rate, Code::InvalidArgument),
        "hourly_rate must not be negative"
    );
    assert_eq!(
        failure(years, Code::InvalidArgument),
        "years_experience must not be negative"
    );
    assert_eq!(
        app.get_profile(&coach, coach.id).await.unwrap().years_experience,
        5
    );
}

#[tokio::test]
async fn specialties_are_trimmed_and_unusual_text_is_kept_verbatim() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let bio = "Robert'); DROP TABLE coaching.coach_profile;-- <script>alert(1)</script> 🏀🏐\nSecond line";

    let profile = app
        .create_profile(
            &coach,
            pb::CoachProfileFields {
                bio: bio.into(),
                specialties: vec![" Shooting ".into(), "".into(), " Post moves".into()],
                hourly_rate: 40.0,
                years_experience: 2,
                time_zone: None,
                coach_name: None,
            },
        )
        .await
        .unwrap();

    assert_eq!(profile.bio, bio);
    assert_eq!(profile.specialties, vec!["Shooting", "Post moves"]);
}

#[tokio::test]
async fn only_a_coach_can_create_a_coach_profile() {
    let app = TestApp::start().await;
    let client = app.client_user();

    let result = app.create_profile(&client, profile_fields(10.0, 1, &[])).await;

    failure(result, Code::PermissionDenied);
    failure(app.get_profile(&client, client.id).await, Code::NotFound);
}

#[tokio::test]
async fn reading_a_profile_needs_a_signed_in_caller() {
    let app = TestApp::start().await;
    let coach = app.coach_with_profile().await;

    let result = app
        .api()
        .get_coach_profile(Request::new(pb::GetCoachProfileRequest {
            coach_id: coach.id.to_string(),
        }))
        .await;

    failure(result, Code::Unauthenticated);
}

#[tokio::test]
async fn a_malformed_coach_id_is_invalid_and_named() {
    let app = TestApp::start().await;

    let result = app
        .api()
        .get_coach_profile(as_user(
            &app.client_user(),
            pb::GetCoachProfileRequest {
                coach_id: "not-a-uuid".into(),
            },
        ))
        .await;

    assert_eq!(failure(result, Code::InvalidArgument), "coach_id must be a UUID");
}
