//! The admin's statistics and user management through the gateway, and the changes that end
//! sessions at once: a deleted user, a changed role, a changed password.

use chrono::{Datelike, NaiveDate, Weekday};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};
use uuid::Uuid;

use crate::{
    coaching::{coach_with_slot, next, user},
    helpers::{ADMIN_EMAIL, Mesh},
};

fn email() -> String {
    format!("made-{}@mesh.test", Uuid::new_v4().simple())
}

/// Creates a user as the admin; returns the user.
async fn create(mesh: &Mesh, admin: &str, role: &str, email: &str) -> Value {
    let (status, body) = mesh
        .post(
            "/admin/users",
            Some(admin),
            json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Made By Admin",
                   "phone": "555-0100", "role": role}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

async fn update(mesh: &Mesh, token: &str, id: &Value, body: Value) -> (StatusCode, Value) {
    let path = format!("/admin/users/{}", id.as_str().unwrap());
    mesh.call(Method::PUT, &path, Some(token), Some(body)).await
}

async fn delete(mesh: &Mesh, token: &str, id: &Value) -> (StatusCode, Value) {
    let path = format!("/admin/users/{}", id.as_str().unwrap());
    mesh.call(Method::DELETE, &path, Some(token), None).await
}

async fn detail(mesh: &Mesh, admin: &str, id: &Value) -> (StatusCode, Value) {
    mesh.get(&format!("/admin/users/{}", id.as_str().unwrap()), Some(admin))
        .await
}

fn count(stats: &Value, key: &str) -> i64 {
    stats[key].as_i64().unwrap_or_else(|| panic!("{key} in {stats}"))
}

#[tokio::test]
async fn stats_count_users_by_role_and_bookings_with_weekly_activity() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (status, before) = mesh.get("/admin/stats", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{before}");

    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    user(&mesh, "gym", "Gina Gym").await;
    let (status, booked) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next(Weekday::Wed).to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booked}");

    let (status, after) = mesh.get("/admin/stats", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(count(&after, "total_users") - count(&before, "total_users"), 3);
    assert_eq!(
        count(&after, "total_coaches") - count(&before, "total_coaches"),
        1
    );
    assert_eq!(count(&after, "total_gyms") - count(&before, "total_gyms"), 1);
    assert_eq!(
        count(&after, "total_bookings") - count(&before, "total_bookings"),
        1
    );

    let activity = after["activity"].as_array().expect("an activity list");
    assert_eq!(activity.len(), 12, "{activity:?}");
    let weeks: Vec<NaiveDate> = activity
        .iter()
        .map(|w| w["week_start"].as_str().unwrap().parse().expect("YYYY-MM-DD"))
        .collect();
    assert!(weeks.iter().all(|w| w.weekday() == Weekday::Mon), "{weeks:?}");
    assert!(weeks.windows(2).all(|p| p[0] < p[1]), "oldest first: {weeks:?}");
    let this_week = activity.last().unwrap();
    assert!(this_week["signups"].as_i64().unwrap() >= 4, "{this_week}");
    assert_eq!(this_week["bookings"], 1);
}

#[tokio::test]
async fn a_list_longer_than_a_page_arrives_whole_newest_first() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    // identity-svc sends 500 users a message: 1,200 more make three pages (made in the database,
    // as the API would hash 1,200 passwords).
    let mut db = PgConnection::connect(&mesh.database_url).await.unwrap();
    sqlx::query(
        "insert into identity.app_user (user_id, email, password_hash, full_name, role, created_at)
         select gen_random_uuid(), 'paged' || n || '@mesh.test', 'not a hash', 'Paged ' || n,
                'client', now() - interval '1 day' + n * interval '1 second'
         from generate_series(1, 1200) as n",
    )
    .execute(&mut db)
    .await
    .unwrap();

    let (status, users) = mesh.get("/admin/users", Some(&admin)).await;

    assert_eq!(status, StatusCode::OK, "{users}");
    let names: Vec<&str> = users
        .as_array()
        .expect("one JSON array")
        .iter()
        .map(|u| u["full_name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 1201);
    assert_eq!(names[1], "Paged 1200");
    assert_eq!(names[500], "Paged 701");
    assert_eq!(names[501], "Paged 700");
    assert_eq!(names[1200], "Paged 1");
}

#[tokio::test]
async fn the_user_list_shows_everyone_without_passwords() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let coach = user(&mesh, "coach", "Carla Coach").await;

    let (status, users) = mesh.get("/admin/users", Some(&admin)).await;

    assert_eq!(status, StatusCode::OK, "{users}");
    let users = users.as_array().expect("a list");
    let emails: Vec<&str> = users.iter().map(|u| u["email"].as_str().unwrap()).collect();
    assert!(emails.contains(&ADMIN_EMAIL));
    let listed = users
        .iter()
        .find(|u| u["user_id"] == coach.id.as_str())
        .expect("the coach");
    assert_eq!(listed["full_name"], "Carla Coach");
    assert_eq!(listed["role"], "coach");
    for u in users {
        let keys: Vec<&String> = u.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["created_at", "email", "full_name", "phone", "role", "user_id"],
            "{u}"
        );
    }
}

#[tokio::test]
async fn a_clients_detail_carries_bookings_and_the_profile() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    mesh.post(
        "/client/profile",
        Some(&client.token),
        json!({"age": 14, "sport": "volleyball"}),
    )
    .await;
    mesh.post(
        "/bookings",
        Some(&client.token),
        json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next(Weekday::Wed).to_string()}),
    )
    .await;

    let (status, seen) = detail(&mesh, &admin, &json!(client.id)).await;

    assert_eq!(status, StatusCode::OK, "{seen}");
    assert_eq!(seen["full_name"], "Chris Client");
    assert_eq!(seen["role"], "client");
    assert_eq!(seen["total_bookings"], 1);
    assert_eq!(seen["total_locations"], 0);
    assert_eq!(seen["profile"]["age"], 14);
    assert_eq!(seen["profile"]["sport"], "volleyball");
    assert_eq!(seen["profile"]["grade"], Value::Null);
}

#[tokio::test]
async fn a_coachs_and_a_gyms_detail_count_their_locations() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (coach, _) = coach_with_slot(&mesh, "Carla Coach").await;
    let gym = user(&mesh, "gym", "Gina Gym").await;
    for name in ["North", "South"] {
        let (status, body) = mesh
            .post(
                "/gym/locations",
                Some(&gym.token),
                json!({"name": name, "address": "2 Court Rd", "city": "Austin", "state": "TX"}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }

    let (_, coach_seen) = detail(&mesh, &admin, &json!(coach.id)).await;
    let (_, gym_seen) = detail(&mesh, &admin, &json!(gym.id)).await;

    assert_eq!(coach_seen["total_locations"], 1, "{coach_seen}");
    assert_eq!(coach_seen["profile"], Value::Null);
    assert_eq!(gym_seen["total_locations"], 2, "{gym_seen}");
    assert_eq!(gym_seen["total_bookings"], 0);
}

#[tokio::test]
async fn an_unknown_user_is_a_404() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;

    let (status, body) = detail(&mesh, &admin, &json!(Uuid::new_v4().to_string())).await;

    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body["detail"].is_string());
}

#[tokio::test]
async fn the_admin_creates_a_user_who_can_sign_in() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let email = email();

    let made = create(&mesh, &admin, "coach", &email).await;

    assert_eq!(made["role"], "coach");
    assert_eq!(made["phone"], "555-0100");
    assert!(made.get("password").is_none());
    let (status, signed_in) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    assert_eq!(status, StatusCode::OK, "{signed_in}");
    assert_eq!(signed_in["user"]["user_id"], made["user_id"]);
}

#[tokio::test]
async fn a_created_user_defaults_to_client_and_an_admin_can_be_created() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;

    let (status, plain) = mesh
        .post(
            "/admin/users",
            Some(&admin),
            json!({"email": email(), "password": platform::testing::FIXTURE_PASSWORD, "full_name": "No Role", "phone": ""}),
        )
        .await;
    let made_admin = create(&mesh, &admin, "admin", &email()).await;

    assert_eq!(status, StatusCode::CREATED, "{plain}");
    assert_eq!(plain["role"], "client");
    assert_eq!(plain["phone"], Value::Null);
    assert_eq!(made_admin["role"], "admin");
}

#[tokio::test]
async fn creating_with_a_taken_email_in_any_case_is_a_conflict() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let email = email();
    create(&mesh, &admin, "client", &email).await;

    for taken in [email.clone(), email.to_uppercase(), ADMIN_EMAIL.to_owned()] {
        let (status, body) = mesh
            .post(
                "/admin/users",
                Some(&admin),
                json!({"email": taken, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Again"}),
            )
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{taken}: {body}");
        assert!(body["detail"].is_string());
    }
}

#[tokio::test]
async fn creating_without_the_required_fields_or_with_a_short_password_is_a_400() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (_, users_before) = mesh.get("/admin/users", Some(&admin)).await;

    let cases = [
        (json!({}), "Email, password, and full name are required"),
        (
            json!({"email": email(), "password": "", "full_name": "X"}),
            "Email, password, and full name are required",
        ),
        (
            json!({"email": email(), "password": "12345", "full_name": "X"}),
            "Password must be at least 10 characters.",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = mesh.post("/admin/users", Some(&admin), body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["detail"], message, "{body}");
    }
    let (status, answer) = mesh
        .post(
            "/admin/users",
            Some(&admin),
            json!({"email": email(), "password": platform::testing::FIXTURE_PASSWORD, "full_name": "X", "role": "superuser"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");

    let (_, users_after) = mesh.get("/admin/users", Some(&admin)).await;
    assert_eq!(users_after, users_before);
}

#[tokio::test]
async fn an_update_changes_only_the_fields_sent() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let made = create(&mesh, &admin, "client", &email()).await;

    let (status, renamed) = update(&mesh, &admin, &made["user_id"], json!({"full_name": "New Name"})).await;

    assert_eq!(status, StatusCode::OK, "{renamed}");
    let mut expected = made.clone();
    expected["full_name"] = json!("New Name");
    assert_eq!(renamed, expected);
    let (_, seen) = detail(&mesh, &admin, &made["user_id"]).await;
    assert_eq!(seen["full_name"], "New Name");
    assert_eq!(seen["phone"], "555-0100");
}

#[tokio::test]
async fn a_null_or_empty_phone_clears_it_and_an_absent_one_keeps_it() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let made = create(&mesh, &admin, "client", &email()).await;
    let id = &made["user_id"];

    let (_, kept) = update(&mesh, &admin, id, json!({"email": email()})).await;
    assert_eq!(kept["phone"], "555-0100");

    let (status, cleared) = update(&mesh, &admin, id, json!({"phone": null})).await;
    assert_eq!(status, StatusCode::OK, "{cleared}");
    assert_eq!(cleared["phone"], Value::Null);

    update(&mesh, &admin, id, json!({"phone": "555-0199"})).await;
    let (_, cleared) = update(&mesh, &admin, id, json!({"phone": ""})).await;
    assert_eq!(cleared["phone"], Value::Null);
}

#[tokio::test]
async fn a_short_new_password_is_refused_and_the_old_one_still_works() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let email = email();
    let made = create(&mesh, &admin, "client", &email).await;

    let (status, body) = update(
        &mesh,
        &admin,
        &made["user_id"],
        json!({"password": "12345", "full_name": "Changed"}),
    )
    .await;

    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["detail"], "Password must be at least 10 characters.");
    let (status, _) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    assert_eq!(status, StatusCode::OK);
    let (_, seen) = detail(&mesh, &admin, &made["user_id"]).await;
    assert_eq!(seen["full_name"], "Made By Admin", "nothing changed");
}

#[tokio::test]
async fn an_update_to_a_taken_email_is_a_conflict() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let first = email();
    create(&mesh, &admin, "client", &first).await;
    let second = create(&mesh, &admin, "client", &email()).await;

    let (status, body) = update(
        &mesh,
        &admin,
        &second["user_id"],
        json!({"email": first.to_uppercase()}),
    )
    .await;

    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (_, seen) = detail(&mesh, &admin, &second["user_id"]).await;
    assert_eq!(seen["email"], second["email"]);
}

#[tokio::test]
async fn a_deleted_user_is_gone_and_their_token_stops_working_at_once() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let client = user(&mesh, "client", "Soon Gone").await;
    let (status, _) = mesh.get("/auth/me", Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK);

    let (status, body) = delete(&mesh, &admin, &json!(client.id)).await;

    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let (status, body) = mesh.get("/auth/me", Some(&client.token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body["detail"].is_string());
    let (status, _) = detail(&mesh, &admin, &json!(client.id)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, users) = mesh.get("/admin/users", Some(&admin)).await;
    assert!(
        users
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["user_id"] != client.id.as_str())
    );
}

#[tokio::test]
async fn a_changed_role_ends_the_old_token_and_a_new_sign_in_carries_the_new_role() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let email = email();
    let made = create(&mesh, &admin, "client", &email).await;
    let (_, signed_in) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    let old_token = signed_in["token"].as_str().unwrap().to_owned();

    let (status, body) = update(&mesh, &admin, &made["user_id"], json!({"role": "coach"})).await;

    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["role"], "coach");
    let (status, _) = mesh.get("/auth/me", Some(&old_token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, signed_in) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    assert_eq!(signed_in["user"]["role"], "coach");
    let (status, me) = mesh.get("/auth/me", signed_in["token"].as_str()).await;
    assert_eq!((status, &me["role"]), (StatusCode::OK, &json!("coach")));
}

#[tokio::test]
async fn a_changed_password_ends_the_old_token_and_only_the_new_password_signs_in() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let email = email();
    let made = create(&mesh, &admin, "gym", &email).await;
    let (_, signed_in) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    let old_token = signed_in["token"].as_str().unwrap().to_owned();

    let (status, body) = update(
        &mesh,
        &admin,
        &made["user_id"],
        json!({"password": platform::testing::NEW_FIXTURE_PASSWORD}),
    )
    .await;

    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = mesh.get("/auth/me", Some(&old_token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = mesh.sign_in(&email, platform::testing::FIXTURE_PASSWORD).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = mesh
        .sign_in(&email, platform::testing::NEW_FIXTURE_PASSWORD)
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_rename_keeps_the_users_session() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let client = user(&mesh, "client", "Old Name").await;

    update(&mesh, &admin, &json!(client.id), json!({"full_name": "New Name"})).await;

    let (status, me) = mesh.get("/auth/me", Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["full_name"], "New Name");
}

#[tokio::test]
async fn revocation_holds_when_the_shared_cache_has_forgotten_the_user() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let client = user(&mesh, "client", "Soon Gone").await;
    delete(&mesh, &admin, &json!(client.id)).await;
    let redis = redis::Client::open("redis://127.0.0.1:6379").unwrap();
    let mut conn = redis.get_multiplexed_async_connection().await.unwrap();
    let key = format!("{}:tv:{}", mesh.redis_namespace, client.id);
    let _: () = redis::AsyncCommands::del(&mut conn, &key).await.unwrap();

    let (status, _) = mesh.get("/auth/me", Some(&client.token)).await;

    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_admin_cannot_be_deleted_nor_delete_themselves() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let other_admin = create(&mesh, &admin, "admin", &email()).await;
    let (_, me) = mesh.get("/auth/me", Some(&admin)).await;

    for target in [&other_admin["user_id"], &me["user_id"]] {
        let (status, body) = delete(&mesh, &admin, target).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(body["detail"].is_string());
        let (status, _) = detail(&mesh, &admin, target).await;
        assert_eq!(status, StatusCode::OK, "still there");
    }
    let (status, _) = mesh.get("/auth/me", Some(&admin)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn nobody_but_an_admin_reads_or_changes_users_and_nothing_changes() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let target = create(&mesh, &admin, "client", &email()).await;
    let id = &target["user_id"];
    let (_, before) = detail(&mesh, &admin, id).await;

    for role in ["client", "coach", "gym"] {
        let someone = user(&mesh, role, "Not An Admin").await;
        let token = someone.token.as_str();
        let answers = [
            mesh.get("/admin/users", Some(token)).await,
            detail(&mesh, token, id).await,
            update(
                &mesh,
                token,
                id,
                json!({"full_name": "Hijacked", "role": "admin"}),
            )
            .await,
            delete(&mesh, token, id).await,
            mesh.post(
                "/admin/users",
                Some(token),
                json!({"email": email(), "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Sneaky", "role": "admin"}),
            )
            .await,
        ];
        for (status, body) in answers {
            assert_eq!(status, StatusCode::FORBIDDEN, "{role}: {body}");
            assert!(body["detail"].is_string());
        }
    }

    let (_, after) = detail(&mesh, &admin, id).await;
    assert_eq!(after, before);
    let (_, users) = mesh.get("/admin/users", Some(&admin)).await;
    assert!(
        users
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["full_name"] != "Sneaky")
    );
}

/// GET `path` as `token`: the status, the body, the `Link` target (without `/api`) and
/// `X-Total-Count`.
async fn page(mesh: &Mesh, token: &str, path: &str) -> (StatusCode, Value, Option<String>, Option<String>) {
    let answer = mesh
        .raw(Method::GET, path, Some(token), None, Vec::<u8>::new())
        .await;
    let header = |name: &str| answer.headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    let next = header("link").map(|link| {
        link[1..link.find('>').unwrap()]
            .trim_start_matches("/api")
            .to_owned()
    });
    let total = header("x-total-count");
    (answer.status, answer.body, next, total)
}

fn names(users: &Value) -> Vec<String> {
    users
        .as_array()
        .expect("a list")
        .iter()
        .map(|u| u["full_name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_admin_pages_searches_and_filters_users_on_the_server() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let mut db = PgConnection::connect(&mesh.database_url).await.unwrap();
    // 120 users a second apart, coaches and clients by turns, every tenth named Smith.
    sqlx::query(
        "insert into identity.app_user (user_id, email, password_hash, full_name, role, created_at)
         select gen_random_uuid(), 'searched' || n || '@mesh.test', 'not a hash',
                case when n % 10 = 0 then 'Sam Smith ' || n else 'Searched ' || n end,
                case when n % 2 = 0 then 'coach' else 'client' end,
                now() - interval '1 day' + n * interval '1 second'
         from generate_series(1, 120) as n",
    )
    .execute(&mut db)
    .await
    .unwrap();

    // Without a limit: every user, and how many.
    let (status, whole, next, total) = page(&mesh, &admin, "/admin/users").await;
    assert_eq!(status, StatusCode::OK, "{whole}");
    assert_eq!(
        (names(&whole).len(), next, total.as_deref()),
        (121, None, Some("121"))
    );

    // Pages of 50, newest first, each with the count, following Link to the end.
    let mut pages = Vec::new();
    let mut path = Some("/admin/users?limit=50".to_owned());
    while let Some(current) = path.take() {
        let (status, users, next, total) = page(&mesh, &admin, &current).await;
        assert_eq!(status, StatusCode::OK, "{current}: {users}");
        assert_eq!(total.as_deref(), Some("121"));
        pages.push(names(&users));
        path = next;
    }
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [50, 50, 21]);
    assert_eq!(pages.concat(), names(&whole));

    // q and role, on the server, in pages; a search carries no count.
    let (status, smiths, next, total) = page(&mesh, &admin, "/admin/users?q=SMITH&limit=5").await;
    assert_eq!(status, StatusCode::OK, "{smiths}");
    assert_eq!(
        names(&smiths),
        [
            "Sam Smith 120",
            "Sam Smith 110",
            "Sam Smith 100",
            "Sam Smith 90",
            "Sam Smith 80"
        ]
    );
    assert_eq!(total, None);
    let next = next.expect("more Smiths");
    assert!(next.contains("q=SMITH"), "{next}");
    let (_, rest, _, _) = page(&mesh, &admin, &next).await;
    assert_eq!(names(&rest).len(), 5, "the next page keeps the limit");
    let (_, coaches, _, coach_total) = page(&mesh, &admin, "/admin/users?role=coach&limit=100").await;
    assert_eq!((names(&coaches).len(), coach_total.as_deref()), (60, Some("60")));
    let (_, client_smiths, _, _) = page(&mesh, &admin, "/admin/users?q=smith&role=client").await;
    assert_eq!(names(&client_smiths), Vec::<String>::new());

    // A cursor is for the filters it came with; a role must be one.
    let cursor = next.split("cursor=").nth(1).unwrap().to_owned();
    for path in [
        format!("/admin/users?q=jones&limit=5&cursor={cursor}"),
        format!("/admin/users?limit=5&cursor={cursor}"),
        "/admin/users?role=owner".to_owned(),
        "/admin/users?limit=0".to_owned(),
    ] {
        let (status, body, _, _) = page(&mesh, &admin, &path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()), "{body}");
    }
}
