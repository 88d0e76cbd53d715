//! A client's own profile: created once, replaced whole, read by any signed-in user.

use platform::auth::Role;
use proto::identity::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, authed, refused};

fn fields() -> pb::ClientProfileFields {
    pb::ClientProfileFields {
        age: Some(16),
        grade: Some("11th".into()),
        sport: Some("basketball".into()),
        skill_level: Some("intermediate".into()),
        profile_picture_url: Some("/uploads/0f1e2d3c-b4a5.png".into()),
    }
}

async fn create(
    app: &TestApp,
    token: &str,
    fields: pb::ClientProfileFields,
) -> Result<pb::ClientProfile, tonic::Status> {
    Ok(app
        .client()
        .create_client_profile(authed(
            pb::CreateClientProfileRequest { fields: Some(fields) },
            token,
        ))
        .await?
        .into_inner()
        .profile
        .expect("a profile"))
}

async fn update(
    app: &TestApp,
    token: &str,
    fields: pb::ClientProfileFields,
) -> Result<pb::ClientProfile, tonic::Status> {
    Ok(app
        .client()
        .update_client_profile(authed(
            pb::UpdateClientProfileRequest { fields: Some(fields) },
            token,
        ))
        .await?
        .into_inner()
        .profile
        .expect("a profile"))
}

async fn get(app: &TestApp, token: &str, user_id: &str) -> Result<pb::ClientProfile, tonic::Status> {
    Ok(app
        .client()
        .get_client_profile(authed(
            pb::GetClientProfileRequest {
                user_id: user_id.into(),
            },
            token,
        ))
        .await?
        .into_inner()
        .profile
        .expect("a profile"))
}

#[tokio::test]
async fn a_client_creates_a_profile_that_any_signed_in_user_can_read() {
    let app = TestApp::start().await;
    let (client, user) = app.register("client").await;
    let (coach, _) = app.register("coach").await;

    let created = create(&app, &client, fields()).await.expect("create");
    let read = get(&app, &coach, &user.user_id).await.expect("get");

    assert_eq!(created.user_id, user.user_id);
    assert_eq!(created.age, Some(16));
    assert_eq!(created.skill_level.as_deref(), Some("intermediate"));
    assert_eq!(read, created);
}

#[tokio::test]
async fn empty_profile_fields_are_stored_as_nothing() {
    let app = TestApp::start().await;
    let (client, user) = app.register("client").await;
    let empty = pb::ClientProfileFields {
        age: None,
        grade: Some("".into()),
        sport: Some("  ".into()),
        skill_level: Some("".into()),
        profile_picture_url: Some("".into()),
    };

    create(&app, &client, empty).await.expect("create");
    let read = get(&app, &client, &user.user_id).await.expect("get");

    assert_eq!(
        read,
        pb::ClientProfile {
            user_id: user.user_id,
            ..Default::default()
        }
    );
    let grade: Option<String> = sqlx::query_scalar("select grade from identity.client_profile")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(grade, None);
}

#[tokio::test]
async fn an_update_replaces_every_field() {
    let app = TestApp::start().await;
    let (client, user) = app.register("client").await;
    create(&app, &client, fields()).await.expect("create");

    let updated = update(
        &app,
        &client,
        pb::ClientProfileFields {
            sport: Some("volleyball".into()),
            skill_level: Some("Advanced".into()),
            ..Default::default()
        },
    )
    .await
    .expect("update");

    assert_eq!(
        updated,
        pb::ClientProfile {
            user_id: user.user_id.clone(),
            sport: Some("volleyball".into()),
            skill_level: Some("advanced".into()),
            ..Default::default()
        }
    );
    assert_eq!(get(&app, &client, &user.user_id).await.unwrap(), updated);
}

#[tokio::test]
async fn a_client_without_a_profile_has_none_to_show() {
    let app = TestApp::start().await;
    let (client, user) = app.register("client").await;

    let message = refused(get(&app, &client, &user.user_id).await, Code::NotFound);

    assert_eq!(message, "this client has no profile yet");
}

#[tokio::test]
async fn a_second_profile_is_a_conflict() {
    let app = TestApp::start().await;
    let (client, _) = app.register("client").await;
    create(&app, &client, fields()).await.expect("create");

    let message = refused(create(&app, &client, fields()).await, Code::AlreadyExists);

    assert_eq!(message, "you already have a profile; update it instead");
}

#[tokio::test]
async fn updating_a_profile_that_does_not_exist_is_not_found() {
    let app = TestApp::start().await;
    let (client, _) = app.register("client").await;

    let message = refused(update(&app, &client, fields()).await, Code::NotFound);

    assert_eq!(message, "you have no profile yet; create it first");
}

#[tokio::test]
async fn out_of_range_or_unsafe_profile_values_are_refused() {
    let app = TestApp::start().await;
    let (client, _) = app.register("client").await;
    let cases = [
        (
            pb::ClientProfileFields {
                age: Some(0),
                ..fields()
            },
            "age must be a whole number from 1 to 120",
        ),
        (
            pb::ClientProfileFields {
                age: Some(121),
                ..fields()
            },
            "age must be a whole number from 1 to 120",
        ),
        (
            pb::ClientProfileFields {
                skill_level: Some("pro".into()),
                ..fields()
            },
            "skill_level must be beginner, intermediate or advanced",
        ),
        (
            pb::ClientProfileFields {
                grade: Some("g".repeat(51)),
                ..fields()
            },
            "grade must be at most 50 characters",
        ),
        (
            pb::ClientProfileFields {
                sport: Some("a\u{7}b".into()),
                ..fields()
            },
            "sport must not contain control characters",
        ),
        (
            pb::ClientProfileFields {
                profile_picture_url: Some("https://evil.example/x.png".into()),
                ..fields()
            },
            "profile_picture_url must be an uploaded picture such as /uploads/<name>.png",
        ),
        (
            pb::ClientProfileFields {
                profile_picture_url: Some("/uploads/../secrets.png".into()),
                ..fields()
            },
            "profile_picture_url must be an uploaded picture such as /uploads/<name>.png",
        ),
    ];
    for (bad, expected) in cases {
        let message = refused(create(&app, &client, bad).await, Code::InvalidArgument);

        assert_eq!(message, expected);
    }
    let rows: i64 = sqlx::query_scalar("select count(*) from identity.client_profile")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(rows, 0);
}

#[tokio::test]
async fn only_a_client_keeps_a_client_profile() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    for role in ["coach", "gym"] {
        let (token, _) = app.register(role).await;

        let created = create(&app, &token, fields()).await;
        let updated = update(&app, &token, fields()).await;

        assert_eq!(
            refused(created, Code::PermissionDenied),
            format!("a {role} account cannot do this")
        );
        refused(updated, Code::PermissionDenied);
    }
    refused(create(&app, &admin, fields()).await, Code::PermissionDenied);
}

#[tokio::test]
async fn a_client_changes_only_their_own_profile() {
    let app = TestApp::start().await;
    let (ann, ann_user) = app.register("client").await;
    let (bob, _) = app.register("client").await;
    create(&app, &ann, fields()).await.expect("ann's profile");

    // Bob has no profile of his own; the caller's identity comes from the token alone.
    let result = update(&app, &bob, pb::ClientProfileFields::default()).await;

    refused(result, Code::NotFound);
    assert_eq!(get(&app, &bob, &ann_user.user_id).await.unwrap().age, Some(16));
}

#[tokio::test]
async fn reading_a_profile_needs_a_signed_in_caller_and_a_uuid() {
    let app = TestApp::start().await;
    let (token, user) = app.register("client").await;

    let anonymous = app
        .client()
        .get_client_profile(pb::GetClientProfileRequest {
            user_id: user.user_id,
        })
        .await;
    let malformed = get(&app, &token, "not-a-uuid").await;

    refused(anonymous, Code::Unauthenticated);
    assert_eq!(
        refused(malformed, Code::InvalidArgument),
        "user_id must be a UUID"
    );
}

#[tokio::test]
async fn a_deleted_clients_token_cannot_create_a_profile() {
    let app = TestApp::start().await;
    let ghost = app.token_for(Uuid::new_v4(), Role::Client);

    let result = create(&app, &ghost, fields()).await;

    refused(result, Code::Unauthenticated);
}
