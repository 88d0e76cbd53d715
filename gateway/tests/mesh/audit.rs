//! The admin audit trail: every admin create, update and delete of a user is recorded once, in
//! the transaction of the change, with the admin, the target, the time, the request id and the
//! changed fields (a password only as changed); a refused action records nothing; the trail reads
//! newest first a page at a time, for admins only, and nothing edits or removes an entry.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};
use uuid::Uuid;

use crate::{
    coaching::user,
    helpers::{ADMIN_EMAIL, Mesh},
};

/// Sends an admin request with an `X-Request-Id`, as nginx sets one.
async fn with_request_id(
    mesh: &Mesh,
    method: Method,
    path: &str,
    token: &str,
    request_id: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = mesh
        .http
        .request(method, mesh.url(path))
        .bearer_auth(token)
        .header("X-Request-Id", request_id);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn trail(mesh: &Mesh, admin: &str) -> Vec<Value> {
    let (status, entries) = mesh.get("/admin/audit", Some(admin)).await;
    assert_eq!(status, StatusCode::OK, "{entries}");
    entries.as_array().expect("a list").clone()
}

fn change<'a>(entry: &'a Value, field: &str) -> &'a Value {
    entry["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .find(|c| c["field"] == field)
        .unwrap_or_else(|| panic!("a change of {field} in {entry}"))
}

#[tokio::test]
async fn every_admin_action_on_a_user_is_recorded_once_with_who_what_when_and_which_request() {
    // Arrange
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let (_, me) = mesh.get("/auth/me", Some(&admin)).await;
    let email = format!("audited-{}@mesh.test", Uuid::new_v4().simple());

    // Act: create, update (name, phone, password), delete.
    let (status, created) = with_request_id(
        &mesh,
        Method::POST,
        "/admin/users",
        &admin,
        "req-create",
        Some(json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Audited Person", "role": "coach"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["user_id"].as_str().unwrap().to_owned();
    let path = format!("/admin/users/{id}");
    let (status, _) = with_request_id(
        &mesh,
        Method::PUT,
        &path,
        &admin,
        "req-update",
        Some(json!({"full_name": "Renamed Person", "phone": "555-0100", "password": platform::testing::NEW_FIXTURE_PASSWORD})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = with_request_id(&mesh, Method::DELETE, &path, &admin, "req-delete", None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    // Assert: three entries, newest first, each naming the admin, the target and the request.
    let entries = trail(&mesh, &admin).await;
    let actions: Vec<_> = entries.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["user_deleted", "user_updated", "user_created"]);
    let requests: Vec<_> = entries
        .iter()
        .map(|e| e["request_id"].as_str().unwrap())
        .collect();
    assert_eq!(requests, ["req-delete", "req-update", "req-create"]);
    for entry in &entries {
        assert_eq!(entry["admin_id"], me["user_id"], "{entry}");
        assert_eq!(entry["admin_name"], me["full_name"], "{entry}");
        assert_eq!(entry["target_type"], "user");
        assert_eq!(entry["target_id"], id.as_str());
        assert!(entry["at"].as_str().unwrap().ends_with('Z'), "{entry}");
    }
    let (deleted, updated, made) = (&entries[0], &entries[1], &entries[2]);
    assert_eq!(made["target_label"], email.as_str());
    assert_eq!(change(made, "role")["new"], "coach");
    assert_eq!(change(made, "email")["new"], email.as_str());
    assert_eq!(
        updated["changes"].as_array().unwrap().len(),
        3,
        "only the fields that changed: {updated}"
    );
    assert_eq!(
        (
            &change(updated, "full_name")["old"],
            &change(updated, "full_name")["new"]
        ),
        (&json!("Audited Person"), &json!("Renamed Person"))
    );
    assert_eq!(
        (&change(updated, "phone")["old"], &change(updated, "phone")["new"]),
        (&Value::Null, &json!("555-0100"))
    );
    assert_eq!(
        (
            &change(updated, "password")["old"],
            &change(updated, "password")["new"]
        ),
        (&Value::Null, &Value::Null),
        "a password is only recorded as changed"
    );
    assert_eq!(change(deleted, "full_name")["old"], "Renamed Person");
    let text = serde_json::to_string(&entries).unwrap();
    assert!(
        !text.contains("fixture-2026") && !text.contains("renewed-2026") && !text.contains("argon2"),
        "no password or hash: {text}"
    );
}

#[tokio::test]
async fn a_refused_admin_action_records_nothing() {
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (_, me) = mesh.get("/auth/me", Some(&admin)).await;
    let client_path = format!("/admin/users/{}", client.id);

    let refusals = [
        // The email is taken (409).
        mesh.post(
            "/admin/users",
            Some(&admin),
            json!({"email": ADMIN_EMAIL, "password": platform::testing::FIXTURE_PASSWORD, "full_name": "Twin"}),
        )
        .await
        .0,
        // A password too short (400).
        mesh.call(
            Method::PUT,
            &client_path,
            Some(&admin),
            Some(json!({"password": "x"})),
        )
        .await
        .0,
        // No such user (404).
        mesh.call(
            Method::DELETE,
            &format!("/admin/users/{}", Uuid::new_v4()),
            Some(&admin),
            None,
        )
        .await
        .0,
        // An admin cannot delete themselves (403).
        mesh.call(
            Method::DELETE,
            &format!("/admin/users/{}", me["user_id"].as_str().unwrap()),
            Some(&admin),
            None,
        )
        .await
        .0,
        // Not an admin (403).
        mesh.call(Method::DELETE, &client_path, Some(&client.token), None)
            .await
            .0,
    ];

    assert_eq!(
        refusals,
        [
            StatusCode::CONFLICT,
            StatusCode::BAD_REQUEST,
            StatusCode::NOT_FOUND,
            StatusCode::FORBIDDEN,
            StatusCode::FORBIDDEN
        ]
    );
    assert!(trail(&mesh, &admin).await.is_empty());
}

#[tokio::test]
async fn the_trail_comes_newest_first_in_pages_for_admins_only_and_cannot_be_changed() {
    // Arrange: three users made by the admin.
    let mesh = Mesh::start().await;
    let admin = mesh.admin().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let mut emails = Vec::new();
    for n in 0..3 {
        let email = format!("page-{n}-{}@mesh.test", Uuid::new_v4().simple());
        let (status, body) = mesh
            .post(
                "/admin/users",
                Some(&admin),
                json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": format!("Paged {n}")}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        emails.push(email);
    }

    // Act
    let first = mesh
        .http
        .get(mesh.url("/admin/audit?limit=2"))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    let link = first
        .headers()
        .get("link")
        .map(|v| v.to_str().unwrap().to_owned())
        .expect("a Link to the next page");
    let first: Vec<Value> = first.json().await.unwrap();
    let next = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .trim_start_matches("/api")
        .to_owned();
    let second = mesh
        .http
        .get(mesh.url(&next))
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    let second_has_link = second.headers().contains_key("link");
    let second: Vec<Value> = second.json().await.unwrap();
    let (as_client, _) = mesh.get("/admin/audit", Some(&client.token)).await;
    let (edit, _) = mesh
        .call(Method::PUT, "/admin/audit", Some(&admin), Some(json!({})))
        .await;
    let (remove, _) = mesh
        .call(Method::DELETE, "/admin/audit", Some(&admin), None)
        .await;
    let mut db = PgConnection::connect(&mesh.database_url).await.unwrap();
    let tampered = sqlx::query("delete from identity.admin_audit")
        .execute(&mut db)
        .await;

    // Assert
    let labels: Vec<_> = first
        .iter()
        .chain(&second)
        .map(|e| e["target_label"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(labels, [emails[2].clone(), emails[1].clone(), emails[0].clone()]);
    assert!(!second_has_link, "the last page has no Link");
    assert_eq!(as_client, StatusCode::FORBIDDEN);
    assert_eq!(edit, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(remove, StatusCode::METHOD_NOT_ALLOWED);
    assert!(tampered.is_err(), "the table itself refuses a delete");
    assert_eq!(trail(&mesh, &admin).await.len(), 3);
}
