//! Time zones, the coach's booking policy and the court reservation lifecycle over HTTP: zones on
//! locations (named, derived, refused), the policy's routes and limits, the gym's cancel of an
//! approved reservation, and a request that expires at its start on the real clock.

use chrono::{Duration, Timelike, Utc};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, user},
    gym::{gym_with_court_time, request_court},
    helpers::Mesh,
};

fn detail(body: &Value) -> &str {
    body["detail"].as_str().unwrap_or_default()
}

async fn put(mesh: &Mesh, path: &str, user: &User, body: Value) -> (StatusCode, Value) {
    mesh.call(Method::PUT, path, Some(&user.token), Some(body)).await
}

#[tokio::test]
async fn locations_keep_the_zone_named_or_derive_it_and_refuse_an_unknown_one() {
    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let gym = user(&mesh, "gym", "Gina Gym").await;
    let token = Some(coach.token.as_str());

    let (status, derived) = mesh
        .post(
            "/locations",
            token,
            json!({"name": "Westside", "city": "El Paso", "state": "TX", "latitude": 31.76, "longitude": -106.49}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{derived}");
    assert_eq!(derived["time_zone"], "America/Denver");
    let (status, by_city) = mesh
        .post(
            "/locations",
            token,
            json!({"name": "Downtown", "city": "Austin", "state": "Texas"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{by_city}");
    assert_eq!(by_city["time_zone"], "America/Chicago");
    let (status, named) = mesh
        .post(
            "/locations",
            token,
            json!({"name": "Guam Hall", "city": "Hagåtña", "state": "Guam", "time_zone": "Pacific/Guam"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{named}");
    assert_eq!(named["time_zone"], "Pacific/Guam");

    let (status, unknown) = mesh
        .post(
            "/locations",
            token,
            json!({"name": "Gym", "city": "Austin", "state": "TX", "time_zone": "Central Time"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{unknown}");
    assert!(
        detail(&unknown).contains("\"Central Time\" is not one"),
        "{unknown}"
    );
    let (status, underivable) = mesh
        .post(
            "/locations",
            token,
            json!({"name": "Gym", "city": "Toronto", "state": "Ontario"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{underivable}");
    assert!(
        detail(&underivable).starts_with("time_zone is required"),
        "{underivable}"
    );

    let (status, listed) = mesh.get(&format!("/locations/coach/{}", coach.id), token).await;
    assert_eq!(status, StatusCode::OK);
    let zones: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["time_zone"].as_str().unwrap())
        .collect();
    assert_eq!(zones, ["America/Denver", "America/Chicago", "Pacific/Guam"]);

    let (status, gym_location) = mesh
        .post(
            "/gym/locations",
            Some(&gym.token),
            json!({"name": "North", "address": "1 Main St", "city": "Phoenix", "state": "AZ"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{gym_location}");
    assert_eq!(gym_location["time_zone"], "America/Phoenix");
    let (status, refused) = mesh
        .post(
            "/gym/locations",
            Some(&gym.token),
            json!({"name": "North", "address": "1 Main St", "city": "Phoenix", "state": "AZ",
                   "time_zone": "Arizona"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(detail(&refused).contains("time_zone"), "{refused}");
}

#[tokio::test]
async fn a_coach_sets_a_booking_policy_that_every_signed_in_user_reads() {
    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let theirs = format!("/coach/policy/{}", coach.id);
    let defaults = json!({"min_notice_minutes": 0, "max_advance_days": 365,
                          "response_window_minutes": 2880, "cancellation_window_minutes": 1440,
                          "late_cancellation_fee_percent": 50, "no_show_fee_percent": 100});

    let (status, own) = mesh.get("/coach/policy", Some(&coach.token)).await;
    assert_eq!((status, &own), (StatusCode::OK, &defaults));
    let (status, read) = mesh.get(&theirs, Some(&client.token)).await;
    assert_eq!((status, &read), (StatusCode::OK, &defaults));

    let wanted = json!({"min_notice_minutes": 120, "max_advance_days": 60,
                        "response_window_minutes": 1440, "cancellation_window_minutes": 2880,
                        "late_cancellation_fee_percent": 25, "no_show_fee_percent": 80});
    let (status, saved) = put(&mesh, "/coach/policy", &coach, wanted.clone()).await;
    assert_eq!((status, &saved), (StatusCode::OK, &wanted));
    // Remembered reads of the coach's policy follow the change at once.
    let (status, read) = mesh.get(&theirs, Some(&client.token)).await;
    assert_eq!((status, &read), (StatusCode::OK, &wanted));
    let (status, own) = mesh.get("/coach/policy", Some(&coach.token)).await;
    assert_eq!((status, &own), (StatusCode::OK, &wanted));
}

#[tokio::test]
async fn a_policy_out_of_its_limits_or_incomplete_is_a_400_naming_the_field_and_only_a_coach_sets_one() {
    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let valid = json!({"min_notice_minutes": 60, "max_advance_days": 30,
                       "response_window_minutes": 600, "cancellation_window_minutes": 120});

    for (field, value) in [
        ("min_notice_minutes", 43_201),
        ("max_advance_days", 0),
        ("max_advance_days", 731),
        ("response_window_minutes", 0),
        ("response_window_minutes", 20_161),
        ("cancellation_window_minutes", -1),
        ("late_cancellation_fee_percent", 101),
        ("no_show_fee_percent", -1),
    ] {
        let mut body = valid.clone();
        body[field] = json!(value);
        let (status, answer) = put(&mesh, "/coach/policy", &coach, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{field}={value}: {answer}");
        assert!(detail(&answer).contains(field), "{field}={value}: {answer}");
    }
    let mut partial = valid.clone();
    partial.as_object_mut().unwrap().remove("max_advance_days");
    let (status, answer) = put(&mesh, "/coach/policy", &coach, partial).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(detail(&answer).contains("max_advance_days"), "{answer}");

    let (status, _) = put(&mesh, "/coach/policy", &client, valid.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = mesh.get("/coach/policy", Some(&client.token)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = mesh.get(&format!("/coach/policy/{}", coach.id), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, answer) = mesh.get("/coach/policy/not-a-uuid", Some(&client.token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");

    let (status, own) = mesh.get("/coach/policy", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(own["max_advance_days"], 365, "nothing was saved: {own}");
}

#[tokio::test]
async fn the_gym_cancels_an_approved_reservation_and_the_court_time_is_open_again() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Hoops Hall").await;
    let (first, second) = (
        user(&mesh, "coach", "Carla Coach").await,
        user(&mesh, "coach", "Cody Coach").await,
    );
    let gym = Some(court.gym.token.as_str());
    let requested = request_court(&mesh, &first, &court.availability_id).await;
    assert_eq!(requested["time_zone"], "America/Chicago");
    assert!(
        requested["starts_at"].as_str().unwrap().ends_with('Z'),
        "{requested}"
    );
    assert_eq!(requested["cancellation_reason"], Value::Null);
    let id = requested["reservation_id"].as_str().unwrap().to_owned();
    let (status, _) = mesh
        .call(
            Method::PATCH,
            &format!("/gym/reservations/{id}/approve"),
            gym,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, held) = mesh.get("/gym/court-availability", gym).await;
    assert_eq!(held[0]["reservation_id"], id.as_str(), "{held}");

    let cancel = format!("/gym/reservations/{id}/cancel");
    let (status, _) = mesh
        .call(Method::PATCH, &cancel, Some(&first.token), Some(json!({})))
        .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a coach cannot use the gym's cancel"
    );
    let (status, cancelled) = mesh
        .call(
            Method::PATCH,
            &cancel,
            gym,
            Some(json!({"reason": "The floor is being refinished."})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled");
    assert_eq!(cancelled["cancellation_reason"], "The floor is being refinished.");
    assert_eq!(cancelled["coach_name"], "Carla Coach");
    let (status, again) = mesh.call(Method::PATCH, &cancel, gym, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert!(detail(&again).contains("only an approved reservation"), "{again}");

    let (_, freed) = mesh.get("/gym/court-availability", gym).await;
    assert_eq!(
        (&freed[0]["is_reserved"], &freed[0]["reservation_id"]),
        (&json!(false), &Value::Null)
    );
    let (_, open) = mesh
        .get(
            &format!("/gym/locations/{}/availability", court.location_id),
            Some(&second.token),
        )
        .await;
    assert_eq!(open.as_array().unwrap().len(), 1, "{open}");
    let (_, seen) = mesh.get("/coach/court-reservations", Some(&first.token)).await;
    assert_eq!(seen[0]["status"], "cancelled");
    assert_eq!(seen[0]["cancellation_reason"], "The floor is being refinished.");

    // Without a body at all, the cancel needs no reason.
    let requested = request_court(&mesh, &second, &court.availability_id).await;
    let id = requested["reservation_id"].as_str().unwrap();
    let (status, _) = mesh
        .call(
            Method::PATCH,
            &format!("/gym/reservations/{id}/approve"),
            gym,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, cancelled) = mesh
        .call(
            Method::PATCH,
            &format!("/gym/reservations/{id}/cancel"),
            gym,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["cancellation_reason"], Value::Null);
}

/// A zone where the wall clock is, for the next hour and a half, on the same date as now (court
/// time cannot cross midnight): UTC, or twelve hours behind it late in the UTC day.
fn zone_without_midnight_ahead() -> (&'static str, Duration) {
    if Utc::now().hour() < 22 {
        ("UTC", Duration::zero())
    } else {
        ("Etc/GMT+12", Duration::hours(-12))
    }
}

#[tokio::test]
async fn a_request_nobody_answers_expires_at_its_start_on_the_real_clock() {
    let mesh = Mesh::start().await;
    let gym = user(&mesh, "gym", "Gina Gym").await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let token = Some(gym.token.as_str());
    let (zone, offset) = zone_without_midnight_ahead();
    let (status, location) = mesh
        .post(
            "/gym/locations",
            token,
            json!({"name": "North", "address": "1 Main St", "city": "Austin", "state": "TX", "time_zone": zone}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{location}");
    let location_id = location["location_id"].as_str().unwrap();
    let (status, court) = mesh
        .post(
            &format!("/gym/locations/{location_id}/courts"),
            token,
            json!({"court_name": "Court 1"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{court}");
    // The next whole minute of the place's wall clock at least 30 s away.
    let local = Utc::now() + offset + Duration::seconds(30);
    let start = local.with_second(0).unwrap().with_nanosecond(0).unwrap() + Duration::minutes(1);
    let end = start + Duration::minutes(30);
    let (status, offered) = mesh
        .post(
            "/gym/court-availability",
            token,
            json!({"court_id": court["court_id"], "date": start.format("%Y-%m-%d").to_string(),
                   "start_time": start.format("%H:%M").to_string(),
                   "end_time": end.format("%H:%M").to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{offered}");
    let starts_at = (start - offset).format("%Y-%m-%dT%H:%M:%SZ").to_string();
    assert_eq!(offered["starts_at"], starts_at.as_str());
    request_court(&mesh, &coach, offered["availability_id"].as_str().unwrap()).await;
    let (_, pending) = mesh.get("/gym/pending-reservations", token).await;
    assert_eq!(pending.as_array().unwrap().len(), 1);

    // Due at the start; give the scheduler the minute the issue allows.
    let deadline = start - offset + Duration::seconds(60);
    let (status, seen_at) = loop {
        let (_, mine) = mesh.get("/coach/court-reservations", Some(&coach.token)).await;
        let status = mine[0]["status"].as_str().unwrap_or_default().to_owned();
        if status == "expired" || Utc::now() > deadline {
            break (status, Utc::now());
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    };
    assert_eq!(status, "expired");
    assert!(
        seen_at >= start - offset,
        "expired at {seen_at}, before its start {starts_at}"
    );
    let (_, pending) = mesh.get("/gym/pending-reservations", token).await;
    assert_eq!(pending, json!([]));
    let (_, open) = mesh
        .get(
            &format!("/gym/locations/{location_id}/availability"),
            Some(&coach.token),
        )
        .await;
    assert_eq!(open, json!([]), "started court time is no longer open");
}
