//! What the admin changes reaches every context: identity-svc's outbox relays "user deleted" over
//! the Redis stream, and coaching, booking and gym react, each exactly once.

use std::time::Duration;

use chrono::Weekday;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{coach_with_slot, next, user},
    gym::{gym_with_court_time, request_court},
    helpers::Mesh,
};

/// Polls until `check` holds: events arrive asynchronously. Gives up after ten seconds.
pub async fn eventually<F, Fut>(mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    for _ in 0..200 {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

async fn delete_user(mesh: &Mesh, id: &str) {
    let admin = mesh.admin().await;
    let (status, body) = mesh
        .call(Method::DELETE, &format!("/admin/users/{id}"), Some(&admin), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
}

fn first(list: &Value) -> &Value {
    &list.as_array().unwrap_or_else(|| panic!("a list, got {list}"))[0]
}

#[tokio::test]
async fn a_deleted_coachs_locations_go_and_their_clients_open_booking_is_cancelled() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Dana Departing").await;
    let client = user(&mesh, "client", "Casey Client").await;
    let date = next(Weekday::Wed).to_string();
    let (status, booked) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booked}");

    delete_user(&mesh, &coach.id).await;

    let locations = format!("/locations/coach/{}", coach.id);
    let gone = eventually(|| async {
        let (_, list) = mesh.get(&locations, Some(&client.token)).await;
        list.as_array().is_some_and(Vec::is_empty)
    })
    .await;
    assert!(gone, "the deleted coach's locations are still listed");
    let cancelled = eventually(|| async {
        let (_, list) = mesh.get("/bookings", Some(&client.token)).await;
        first(&list)["status"] == "cancelled"
    })
    .await;
    assert!(
        cancelled,
        "the client's booking with the deleted coach is still open"
    );
}

#[tokio::test]
async fn a_deleted_gyms_open_court_time_is_withdrawn_and_pending_requests_denied() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Closing Courts").await;
    let coach = user(&mesh, "coach", "Riley Requester").await;
    request_court(&mesh, &coach, &court.availability_id).await;

    delete_user(&mesh, &court.gym.id).await;

    let denied = eventually(|| async {
        let (_, list) = mesh.get("/coach/court-reservations", Some(&coach.token)).await;
        first(&list)["status"] == "denied"
    })
    .await;
    assert!(denied, "the coach's request to the deleted gym is still pending");
    let (status, locations) = mesh.get("/gym/locations", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK, "{locations}");
    assert!(
        !locations
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["location_id"] == court.location_id.as_str()),
        "the deleted gym's location is still browsable"
    );
    let open = format!("/gym/locations/{}/availability", court.location_id);
    let (status, body) = mesh.get(&open, Some(&coach.token)).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the deleted gym's court time is still offered: {body}"
    );
}
