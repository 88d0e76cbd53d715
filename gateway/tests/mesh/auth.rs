//! Register, login, me and logout through the gateway.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::Mesh;

#[tokio::test]
async fn each_role_registers_signs_in_and_sees_itself() {
    let mesh = Mesh::start().await;
    for role in ["client", "coach", "gym"] {
        let (token, user) = mesh.register(role).await;
        assert_eq!(user["role"], role);

        let (status, me) = mesh.get("/auth/me", Some(&token)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(me["user_id"], user["user_id"]);

        let (status, login) = mesh
            .post(
                "/auth/login",
                None,
                json!({"email": user["email"], "password": "password1"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{login}");
        assert_eq!(login["user"]["role"], role);
    }
}

#[tokio::test]
async fn a_logged_out_token_stops_working() {
    let mesh = Mesh::start().await;
    let (token, _) = mesh.register("client").await;

    let (status, _) = mesh
        .call(reqwest::Method::POST, "/auth/logout", Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    let (status, body) = mesh.get("/auth/me", Some(&token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["detail"].as_str().is_some());
}

#[tokio::test]
async fn malformed_json_is_a_400_with_a_detail() {
    let mesh = Mesh::start().await;
    let response = mesh
        .http
        .post(mesh.url("/auth/login"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["detail"].as_str().unwrap().contains("JSON"));
}

#[tokio::test]
async fn an_unknown_api_route_is_a_json_404() {
    let mesh = Mesh::start().await;
    let (status, body) = mesh.get("/no/such/thing", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["detail"].as_str().is_some());
}
