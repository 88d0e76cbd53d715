//! The admin's user management: lists, details, create, partial update, delete and counts, and
//! nobody else may use them.

use chrono::{Datelike, Utc, Weekday};
use proto::identity::v1 as pb;
use tonic::{Code, Request};
use uuid::Uuid;

use crate::helpers::{TestApp, authed, refused};

fn new_user(email: &str, role: &str) -> pb::CreateUserRequest {
    pb::CreateUserRequest {
        email: email.into(),
        password: platform::testing::FIXTURE_PASSWORD.into(),
        full_name: "Created Person".into(),
        phone: Some("+1 555 0100".into()),
        role: role.into(),
    }
}

/// `message`, signed in when there is a token.
fn maybe_authed<T>(message: T, token: Option<&str>) -> Request<T> {
    match token {
        Some(token) => authed(message, token),
        None => Request::new(message),
    }
}

async fn create(
    app: &TestApp,
    admin: &str,
    request: pb::CreateUserRequest,
) -> Result<pb::User, tonic::Status> {
    Ok(app
        .client()
        .create_user(authed(request, admin))
        .await?
        .into_inner()
        .user
        .expect("a user"))
}

async fn update(
    app: &TestApp,
    admin: &str,
    request: pb::UpdateUserRequest,
) -> Result<pb::User, tonic::Status> {
    Ok(app
        .client()
        .update_user(authed(request, admin))
        .await?
        .into_inner()
        .user
        .expect("a user"))
}

async fn get_user(app: &TestApp, admin: &str, user_id: &str) -> Result<pb::GetUserResponse, tonic::Status> {
    Ok(app
        .client()
        .get_user(authed(
            pb::GetUserRequest {
                user_id: user_id.into(),
            },
            admin,
        ))
        .await?
        .into_inner())
}

async fn delete(app: &TestApp, admin: &str, user_id: &str) -> Result<(), tonic::Status> {
    app.client()
        .delete_user(authed(
            pb::DeleteUserRequest {
                user_id: user_id.into(),
            },
            admin,
        ))
        .await?;
    Ok(())
}

#[tokio::test]
async fn every_admin_call_refuses_other_roles_and_anonymous_callers() {
    let app = TestApp::start().await;
    let (_, victim) = app.register("client").await;
    let mut callers = vec![(None, Code::Unauthenticated)];
    for role in ["client", "coach", "gym"] {
        callers.push((Some(app.register(role).await.0), Code::PermissionDenied));
    }

    for (token, expected) in callers {
        let token = token.as_deref();
        let id = victim.user_id.clone();
        let mut c = app.client();
        let results = [
            c.list_users(maybe_authed(pb::ListUsersRequest::default(), token))
                .await
                .map(drop),
            c.get_user(maybe_authed(pb::GetUserRequest { user_id: id.clone() }, token))
                .await
                .map(drop),
            c.create_user(maybe_authed(new_user("x@identity.test", "admin"), token))
                .await
                .map(drop),
            c.update_user(maybe_authed(
                pb::UpdateUserRequest {
                    user_id: id.clone(),
                    role: Some("admin".into()),
                    ..Default::default()
                },
                token,
            ))
            .await
            .map(drop),
            c.delete_user(maybe_authed(pb::DeleteUserRequest { user_id: id.clone() }, token))
                .await
                .map(drop),
            c.count_users(maybe_authed(pb::CountUsersRequest {}, token))
                .await
                .map(drop),
        ];

        for result in results {
            refused(result, expected);
        }
    }
    let (admin, _) = app.admin().await;
    let after = get_user(&app, &admin, &victim.user_id)
        .await
        .expect("still there");
    assert_eq!(after.user.unwrap(), victim);
    assert!(
        app.login("x@identity.test", platform::testing::FIXTURE_PASSWORD)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn the_admin_lists_every_user_newest_first() {
    let app = TestApp::start().await;
    let (admin, admin_user) = app.admin().await;
    let (_, first) = app.register("coach").await;
    let (_, second) = app.register("gym").await;

    let users: Vec<pb::User> = list_pages(&app, &admin).await.concat();

    let ids: Vec<&str> = users.iter().map(|u| u.user_id.as_str()).collect();
    assert_eq!(ids, [&second.user_id, &first.user_id, &admin_user.user_id]);
    assert_eq!(users[0], second);
}

/// The pages of `ListUsers`, as they came.
async fn list_pages(app: &TestApp, admin: &str) -> Vec<Vec<pb::User>> {
    let mut pages = app
        .client()
        .list_users(authed(pb::ListUsersRequest::default(), admin))
        .await
        .expect("list")
        .into_inner();
    let mut out = Vec::new();
    while let Some(page) = pages.message().await.expect("a page") {
        out.push(page.users);
    }
    out
}

#[tokio::test]
async fn a_long_list_comes_in_pages_of_500_newest_first_with_nobody_twice() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    // 1,200 users a second apart (the API would hash 1,200 passwords), plus the admin.
    sqlx::query(
        "insert into identity.app_user (user_id, email, password_hash, full_name, role, created_at)
         select gen_random_uuid(), 'user' || n || '@identity.test', 'not a hash', 'User ' || n,
                'client', now() - interval '1 day' + n * interval '1 second'
         from generate_series(1, 1200) as n",
    )
    .execute(&app.db)
    .await
    .expect("arrange users");

    let pages = list_pages(&app, &admin).await;

    let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
    assert_eq!(sizes, [500, 500, 201]);
    let users = pages.concat();
    let mut ids: Vec<&str> = users.iter().map(|u| u.user_id.as_str()).collect();
    assert_eq!(users[1].full_name, "User 1200");
    assert_eq!(users[1200].full_name, "User 1");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 1201);
}

#[tokio::test]
async fn a_clients_details_include_their_profile() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (client, user) = app.register("client").await;
    app.client()
        .create_client_profile(authed(
            pb::CreateClientProfileRequest {
                fields: Some(pb::ClientProfileFields {
                    age: Some(30),
                    sport: Some("volleyball".into()),
                    ..Default::default()
                }),
            },
            &client,
        ))
        .await
        .expect("profile");

    let details = get_user(&app, &admin, &user.user_id).await.expect("details");

    assert_eq!(details.user.unwrap(), user);
    let profile = details.profile.expect("the client's profile");
    assert_eq!(
        (profile.age, profile.sport.as_deref()),
        (Some(30), Some("volleyball"))
    );
}

#[tokio::test]
async fn details_of_a_user_without_a_profile_have_none() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, coach) = app.register("coach").await;
    let (_, client) = app.register("client").await;

    for user in [coach, client] {
        let details = get_user(&app, &admin, &user.user_id).await.expect("details");

        assert_eq!(details.user.unwrap(), user);
        assert_eq!(details.profile, None);
    }
}

#[tokio::test]
async fn details_of_an_unknown_or_malformed_id_are_refused() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;

    let unknown = get_user(&app, &admin, &Uuid::new_v4().to_string()).await;
    let malformed = get_user(&app, &admin, "12; drop table identity.app_user").await;

    assert_eq!(refused(unknown, Code::NotFound), "no user with this id exists");
    assert_eq!(
        refused(malformed, Code::InvalidArgument),
        "user_id must be a UUID"
    );
}

#[tokio::test]
async fn the_admin_creates_users_of_every_role_who_can_then_sign_in() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;

    for role in ["client", "coach", "gym", "admin"] {
        let email = format!("{role}-made@identity.test");

        let user = create(&app, &admin, new_user(&email, role))
            .await
            .expect("create");

        assert_eq!((user.email.as_str(), user.role.as_str()), (email.as_str(), role));
        assert_eq!(user.phone.as_deref(), Some("+1 555 0100"));
        let (_, signed_in) = app
            .login(&email, platform::testing::FIXTURE_PASSWORD)
            .await
            .expect("sign in");
        assert_eq!(signed_in, user);
    }
}

#[tokio::test]
async fn a_created_user_without_a_role_or_phone_is_a_client_without_a_phone() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let request = pb::CreateUserRequest {
        phone: Some("".into()),
        role: "".into(),
        ..new_user("plain@identity.test", "")
    };

    let user = create(&app, &admin, request).await.expect("create");

    assert_eq!((user.role.as_str(), user.phone), ("client", None));
}

#[tokio::test]
async fn creating_a_user_shows_the_spec_messages() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let cases = [
        (
            pb::CreateUserRequest {
                email: "".into(),
                ..new_user("", "client")
            },
            "Email, password, and full name are required",
        ),
        (
            pb::CreateUserRequest {
                password: "".into(),
                ..new_user("a@identity.test", "client")
            },
            "Email, password, and full name are required",
        ),
        (
            pb::CreateUserRequest {
                full_name: "".into(),
                ..new_user("a@identity.test", "client")
            },
            "Email, password, and full name are required",
        ),
        (
            pb::CreateUserRequest {
                password: "12345".into(),
                ..new_user("a@identity.test", "client")
            },
            "Password must be at least 10 characters.",
        ),
        (
            new_user("a@identity.test", "owner"),
            "role must be one of admin, coach, client or gym",
        ),
    ];

    for (request, expected) in cases {
        let message = refused(create(&app, &admin, request).await, Code::InvalidArgument);

        assert_eq!(message, expected);
    }
}

#[tokio::test]
async fn creating_a_user_with_a_taken_email_is_a_conflict() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, existing) = app.register("coach").await;

    let result = create(&app, &admin, new_user(&existing.email.to_uppercase(), "client")).await;

    assert_eq!(
        refused(result, Code::AlreadyExists),
        "an account with this email already exists"
    );
}

#[tokio::test]
async fn a_partial_update_changes_only_the_fields_sent() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let user = create(&app, &admin, new_user("partial@identity.test", "coach"))
        .await
        .unwrap();

    let renamed = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: user.user_id.clone(),
            full_name: Some("  New Name ".into()),
            ..Default::default()
        },
    )
    .await
    .expect("update");

    assert_eq!(
        renamed,
        pb::User {
            full_name: "New Name".into(),
            ..user.clone()
        }
    );
    let hash_unchanged = app
        .login("partial@identity.test", platform::testing::FIXTURE_PASSWORD)
        .await;
    assert!(hash_unchanged.is_ok());
}

#[tokio::test]
async fn an_update_of_every_field_changes_them_all() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let user = create(&app, &admin, new_user("before@identity.test", "coach"))
        .await
        .unwrap();

    let after = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: user.user_id.clone(),
            full_name: Some("After".into()),
            email: Some("After@Identity.test".into()),
            phone: Some("555 0199".into()),
            clear_phone: false,
            role: Some("gym".into()),
            password: Some("after-password".into()),
        },
    )
    .await
    .expect("update");

    assert_eq!(
        after,
        pb::User {
            user_id: user.user_id,
            email: "after@identity.test".into(),
            full_name: "After".into(),
            phone: Some("555 0199".into()),
            role: "gym".into(),
            created_at: user.created_at,
        }
    );
    assert!(app.login("after@identity.test", "after-password").await.is_ok());
    assert!(
        app.login("after@identity.test", platform::testing::FIXTURE_PASSWORD)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn clear_phone_and_an_empty_phone_both_remove_the_phone() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let first = create(&app, &admin, new_user("p1@identity.test", "client"))
        .await
        .unwrap();
    let second = create(&app, &admin, new_user("p2@identity.test", "client"))
        .await
        .unwrap();

    let cleared = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: first.user_id,
            clear_phone: true,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let emptied = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: second.user_id,
            phone: Some("".into()),
            ..Default::default()
        },
    )
    .await
    .unwrap();

    assert_eq!((cleared.phone, emptied.phone), (None, None));
    let phones: i64 = sqlx::query_scalar("select count(phone) from identity.app_user")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(phones, 0);
}

#[tokio::test]
async fn a_short_new_password_is_refused_and_the_old_one_still_works() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let user = create(&app, &admin, new_user("short@identity.test", "client"))
        .await
        .unwrap();

    let result = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: user.user_id,
            password: Some("12345".into()),
            full_name: Some("Not Applied".into()),
            ..Default::default()
        },
    )
    .await;

    assert_eq!(
        refused(result, Code::InvalidArgument),
        "Password must be at least 10 characters."
    );
    let (_, unchanged) = app
        .login("short@identity.test", platform::testing::FIXTURE_PASSWORD)
        .await
        .expect("old password");
    assert_eq!(unchanged.full_name, "Created Person");
}

#[tokio::test]
async fn an_update_to_a_taken_email_is_a_conflict() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, taken) = app.register("coach").await;
    let user = create(&app, &admin, new_user("mine@identity.test", "client"))
        .await
        .unwrap();

    let result = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: user.user_id,
            email: Some(taken.email.to_uppercase()),
            ..Default::default()
        },
    )
    .await;

    assert_eq!(
        refused(result, Code::AlreadyExists),
        "an account with this email already exists"
    );
}

#[tokio::test]
async fn an_update_with_nothing_in_it_changes_nothing() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (_, user) = app.register("gym").await;

    let after = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: user.user_id.clone(),
            ..Default::default()
        },
    )
    .await
    .expect("update");

    assert_eq!(after, user);
    assert!(app.outbox().await.is_empty());
}

#[tokio::test]
async fn updating_an_unknown_user_is_not_found() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;

    let result = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: Uuid::new_v4().to_string(),
            full_name: Some("Nobody".into()),
            ..Default::default()
        },
    )
    .await;

    assert_eq!(refused(result, Code::NotFound), "no user with this id exists");
}

#[tokio::test]
async fn an_admin_cannot_change_their_own_role() {
    let app = TestApp::start().await;
    let (admin, me) = app.admin().await;

    let result = update(
        &app,
        &admin,
        pb::UpdateUserRequest {
            user_id: me.user_id,
            role: Some("client".into()),
            ..Default::default()
        },
    )
    .await;

    assert_eq!(
        refused(result, Code::PermissionDenied),
        "you cannot change your own role"
    );
}

#[tokio::test]
async fn an_admin_cannot_be_deleted_even_by_another_admin() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let other = create(&app, &admin, new_user("other-admin@identity.test", "admin"))
        .await
        .unwrap();

    let result = delete(&app, &admin, &other.user_id).await;

    assert_eq!(
        refused(result, Code::PermissionDenied),
        "admin accounts cannot be deleted"
    );
    assert!(get_user(&app, &admin, &other.user_id).await.is_ok());
}

#[tokio::test]
async fn an_admin_cannot_delete_themselves() {
    let app = TestApp::start().await;
    let (admin, me) = app.admin().await;

    let result = delete(&app, &admin, &me.user_id).await;

    assert_eq!(
        refused(result, Code::PermissionDenied),
        "you cannot delete your own account"
    );
    assert!(
        app.login(crate::helpers::ADMIN_EMAIL, crate::helpers::ADMIN_PASSWORD)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_deleted_user_and_their_profile_are_gone() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    let (client, user) = app.register("client").await;
    app.client()
        .create_client_profile(authed(pb::CreateClientProfileRequest { fields: None }, &client))
        .await
        .expect("profile");

    delete(&app, &admin, &user.user_id).await.expect("delete");

    refused(get_user(&app, &admin, &user.user_id).await, Code::NotFound);
    refused(
        app.login(&user.email, crate::helpers::PASSWORD).await,
        Code::Unauthenticated,
    );
    let profiles: i64 = sqlx::query_scalar("select count(*) from identity.client_profile")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(profiles, 0);
}

#[tokio::test]
async fn deleting_an_unknown_user_is_not_found() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;

    let result = delete(&app, &admin, &Uuid::new_v4().to_string()).await;

    assert_eq!(refused(result, Code::NotFound), "no user with this id exists");
}

#[tokio::test]
async fn counts_are_by_role_with_twelve_weeks_of_sign_ups() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    for role in ["client", "client", "coach", "gym", "gym", "gym"] {
        app.register(role).await;
    }
    let (_, old) = app.register("coach").await;
    sqlx::query("update identity.app_user set created_at = now() - interval '14 days' where user_id = $1")
        .bind(Uuid::parse_str(&old.user_id).unwrap())
        .execute(&app.db)
        .await
        .unwrap();
    let (_, ancient) = app.register("client").await;
    sqlx::query("update identity.app_user set created_at = now() - interval '400 days' where user_id = $1")
        .bind(Uuid::parse_str(&ancient.user_id).unwrap())
        .execute(&app.db)
        .await
        .unwrap();

    let counts = app
        .client()
        .count_users(authed(pb::CountUsersRequest {}, &admin))
        .await
        .expect("counts")
        .into_inner();

    let totals = (
        counts.total_users,
        counts.total_admins,
        counts.total_clients,
        counts.total_coaches,
        counts.total_gyms,
    );
    assert_eq!(totals, (9, 1, 3, 2, 3));
    let weeks: Vec<(chrono::NaiveDate, i64)> = counts
        .signups_per_week
        .iter()
        .map(|w| (w.week_start.parse().expect("YYYY-MM-DD"), w.count))
        .collect();
    assert_eq!(weeks.len(), 12);
    let today = Utc::now().date_naive();
    let this_monday = today - chrono::Days::new(today.weekday().num_days_from_monday().into());
    for (i, (monday, _)) in weeks.iter().enumerate() {
        assert_eq!(monday.weekday(), Weekday::Mon);
        assert_eq!(*monday, this_monday - chrono::Days::new(7 * (11 - i as u64)));
    }
    let two_weeks_ago = (Utc::now() - chrono::Duration::days(14)).date_naive();
    let old_week = two_weeks_ago - chrono::Days::new(two_weeks_ago.weekday().num_days_from_monday().into());
    let count_in = |week| weeks.iter().find(|(m, _)| *m == week).map(|(_, c)| *c);
    assert_eq!(count_in(this_monday), Some(7));
    assert_eq!(count_in(old_week), Some(1));
    assert_eq!(weeks.iter().map(|(_, c)| c).sum::<i64>(), 8);
}
