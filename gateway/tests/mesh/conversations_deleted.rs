//! Conversations (issue 36): a deleted account's messages stay, its name reads "Deleted user", and
//! nobody can write to it any more.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{coaching::user, helpers::Mesh};

#[tokio::test]
async fn a_deleted_accounts_messages_stay_and_read_deleted_user() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let coach = user(&mesh, "coach", "Gone Coach").await;
    let admin = mesh.admin().await;
    let (status, thread) = mesh
        .post(
            "/conversations",
            Some(&client.token),
            json!({"with_user_id": coach.id}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{thread}");
    let id = thread["conversation_id"].as_str().unwrap().to_owned();
    let path = format!("/conversations/{id}/messages");
    let (status, _) = mesh
        .post(&path, Some(&coach.token), json!({"body": "Welcome!"}))
        .await;
    assert_eq!(status, StatusCode::CREATED);

    let (status, _) = mesh
        .call(
            Method::DELETE,
            &format!("/admin/users/{}", coach.id),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    let (status, history) = mesh.get(&path, Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(history[0]["body"], "Welcome!");
    assert_eq!(
        history[0]["sender"],
        json!({"user_id": Value::Null, "full_name": "Deleted user"})
    );
    let (_, list) = mesh.get("/conversations", Some(&client.token)).await;
    assert_eq!(
        list[0]["other"],
        json!({"user_id": Value::Null, "full_name": "Deleted user", "role": Value::Null})
    );
    assert_eq!(list[0]["can_send"], false);
    let (status, refused) = mesh
        .post(&path, Some(&client.token), json!({"body": "Hello?"}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
}
