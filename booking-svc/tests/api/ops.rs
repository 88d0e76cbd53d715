//! The ops port: readiness follows the database; an unreachable coaching-svc is reported but
//! does not make booking-svc unready.

use crate::helpers::TestApp;

async fn readyz(app: &TestApp) -> (u16, String) {
    let response = reqwest::get(format!("http://127.0.0.1:{}/readyz", app.ops_port))
        .await
        .expect("the ops port answers");
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn booking_is_ready_when_its_database_and_coaching_answer() {
    let app = TestApp::spawn().await;

    let (status, body) = readyz(&app).await;

    assert_eq!((status, body.as_str()), (200, "ready"));
}

#[tokio::test]
async fn booking_stays_ready_but_says_so_when_coaching_is_unreachable() {
    let app = TestApp::spawn_without_coaching().await;

    let (status, body) = readyz(&app).await;

    assert_eq!(status, 200);
    assert!(body.contains("coaching-svc is unreachable"), "{body}");
}

#[tokio::test]
async fn the_ops_port_serves_metrics_and_liveness() {
    let app = TestApp::spawn().await;
    app.list(&app.client()).await.unwrap();

    let live = reqwest::get(format!("http://127.0.0.1:{}/livez", app.ops_port))
        .await
        .unwrap();
    let metrics = reqwest::get(format!("http://127.0.0.1:{}/metrics", app.ops_port))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();

    assert_eq!(live.status().as_u16(), 200);
    assert!(metrics.contains("grpc_requests_total"), "{metrics}");
}
