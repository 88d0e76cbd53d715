//! What the gateway remembers (answers and names under change stamps) is never served after the
//! data changed, never to a caller the route refuses, and survives Redis losing the stamps.

use std::io::Read;

use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};

use crate::{
    coaching::{User, coach_with_slot, next, user},
    gym::gym_with_court_time,
    helpers::Mesh,
};

/// Reads `path` twice as `token`, so the second answer is the remembered one; returns it.
async fn read_twice(mesh: &Mesh, path: &str, token: &str) -> Value {
    let (status, first) = mesh.get(path, Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{path}: {first}");
    let (status, second) = mesh.get(path, Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{path}: {second}");
    assert_eq!(
        first, second,
        "{path} changed between two reads with no change in between"
    );
    second
}

/// The coach's profile with a new bio and rate.
async fn rewrite_profile(mesh: &Mesh, coach: &User, bio: &str, hourly_rate: f64) {
    let (status, body) = mesh
        .call(
            Method::PUT,
            "/coach/profile",
            Some(&coach.token),
            Some(
                json!({"bio": bio, "specialties": ["Passing"], "hourly_rate": hourly_rate,
                        "years_experience": 12}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// The change stamps this mesh keeps in Redis.
async fn stamp_keys(mesh: &Mesh, conn: &mut redis::aio::MultiplexedConnection) -> Vec<String> {
    redis::cmd("KEYS")
        .arg(format!("{}:stamp:*", mesh.redis_namespace))
        .query_async(conn)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_remembered_profile_its_locations_and_slots_show_every_change_at_once() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Remy Remembered").await;
    let reader = user(&mesh, "client", "Reading Client").await;
    let profile = format!("/coach/profile/{}", coach.id);
    let locations = format!("/locations/coach/{}", coach.id);
    let slots = format!("/availability/coach/{}", coach.id);
    read_twice(&mesh, &profile, &reader.token).await;
    read_twice(&mesh, &locations, &reader.token).await;
    assert_eq!(
        read_twice(&mesh, &slots, &reader.token)
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );

    rewrite_profile(&mesh, &coach, "Rewritten.", 95.0).await;
    let (_, seen) = mesh.get(&profile, Some(&reader.token)).await;
    assert_eq!(
        (&seen["bio"], &seen["hourly_rate"]),
        (&json!("Rewritten."), &json!(95.0))
    );

    let (status, body) = mesh
        .post(
            "/locations",
            Some(&coach.token),
            json!({"name": "Second Gym", "address": "2 Hoop Rd", "city": "Dallas", "state": "TX",
                   "latitude": 32.7767, "longitude": -96.797}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, seen) = mesh.get(&locations, Some(&reader.token)).await;
    assert_eq!(seen.as_array().unwrap().len(), 2, "{seen}");

    let (status, body) = mesh
        .call(
            Method::DELETE,
            &format!("/availability/{slot_id}"),
            Some(&coach.token),
            None,
        )
        .await;
    assert!(status.is_success(), "{status}: {body}");
    let (_, seen) = mesh.get(&slots, Some(&reader.token)).await;
    assert_eq!(seen, json!([]), "a deleted slot is never offered again");
}

#[tokio::test]
async fn a_rename_shows_at_once_on_a_remembered_profile_and_on_bookings() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "First Name").await;
    let client = user(&mesh, "client", "Booking Client").await;
    let (status, body) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": next(chrono::Weekday::Wed)}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let profile = format!("/coach/profile/{}", coach.id);
    assert_eq!(
        read_twice(&mesh, &profile, &client.token).await["coach_name"],
        "First Name"
    );
    assert_eq!(
        read_twice(&mesh, "/bookings", &client.token).await[0]["coach_name"],
        "First Name"
    );
    // A page of the public directory: its names are remembered too (no token, no gate).
    let page = "/coaches?limit=10";
    for _ in 0..2 {
        let (status, seen) = mesh.get(page, None).await;
        assert_eq!(status, StatusCode::OK, "{seen}");
        assert_eq!(seen[0]["coach_name"], "First Name");
    }

    let admin = mesh.admin().await;
    let (status, body) = mesh
        .call(
            Method::PUT,
            &format!("/admin/users/{}", coach.id),
            Some(&admin),
            Some(json!({"full_name": "Second Name"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (_, seen) = mesh.get(&profile, Some(&client.token)).await;
    assert_eq!(seen["coach_name"], "Second Name");
    let (_, seen) = mesh.get("/bookings", Some(&client.token)).await;
    assert_eq!(seen[0]["coach_name"], "Second Name");
    let (_, seen) = mesh.get(page, None).await;
    assert_eq!(seen[0]["coach_name"], "Second Name");
}

#[tokio::test]
async fn a_new_court_shows_at_once_on_a_remembered_location() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Memo Gym").await;
    let coach = user(&mesh, "coach", "Court Reader").await;
    let courts = format!("/gym/locations/{}/courts", court.location_id);
    assert_eq!(
        read_twice(&mesh, &courts, &coach.token)
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let (status, body) = mesh
        .post(
            &courts,
            Some(&court.gym.token),
            json!({"court_name": "Court 2", "court_type": "basketball"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, seen) = mesh.get(&courts, Some(&coach.token)).await;
    assert_eq!(seen.as_array().unwrap().len(), 2, "{seen}");
}

#[tokio::test]
async fn a_remembered_answer_still_needs_a_sign_in_and_a_live_session() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_slot(&mesh, "Gated Coach").await;
    let reader = user(&mesh, "client", "Leaving Client").await;
    let profile = format!("/coach/profile/{}", coach.id);
    read_twice(&mesh, &profile, &reader.token).await;

    let (status, _) = mesh.get(&profile, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = mesh
        .call(Method::POST, "/auth/logout", Some(&reader.token), None)
        .await;
    assert!(status.is_success(), "{status}");
    let (status, _) = mesh.get(&profile, Some(&reader.token)).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a logged-out token reads nothing remembered"
    );
}

#[tokio::test]
async fn answers_stay_correct_when_redis_loses_the_stamps() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_slot(&mesh, "Forgetful Coach").await;
    let reader = user(&mesh, "client", "Stamp Reader").await;
    let profile = format!("/coach/profile/{}", coach.id);
    read_twice(&mesh, &profile, &reader.token).await;

    // Redis restarted empty, as far as the stamps go.
    let redis = redis::Client::open("redis://127.0.0.1:6379").unwrap();
    let mut conn = redis.get_multiplexed_async_connection().await.unwrap();
    let keys = stamp_keys(&mesh, &mut conn).await;
    assert_eq!(keys.len(), 3, "one stamp per context: {keys:?}");
    redis::cmd("DEL")
        .arg(&keys)
        .query_async::<()>(&mut conn)
        .await
        .unwrap();

    rewrite_profile(&mesh, &coach, "After the restart.", 70.0).await;
    assert_eq!(
        read_twice(&mesh, &profile, &reader.token).await["bio"],
        "After the restart."
    );
    let restored = stamp_keys(&mesh, &mut conn).await;
    assert_eq!(restored.len(), 3, "missing stamps are set again: {restored:?}");
}

#[tokio::test]
async fn the_directory_comes_gzipped_to_a_client_that_takes_it_with_the_same_etag() {
    let mesh = Mesh::start().await;
    coach_with_slot(&mesh, "Zipped Coach").await;
    let plain = mesh.http.get(mesh.url("/coaches")).send().await.unwrap();
    assert_eq!(plain.status(), StatusCode::OK);
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
    let etag = plain.headers()[header::ETAG].clone();
    let plain: Value = plain.json().await.unwrap();

    let zipped = mesh
        .http
        .get(mesh.url("/coaches"))
        .header(header::ACCEPT_ENCODING, "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(zipped.status(), StatusCode::OK);
    assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");
    assert_eq!(zipped.headers()[header::VARY], "Accept-Encoding");
    assert_eq!(zipped.headers()[header::ETAG], etag);
    let mut json = String::new();
    flate2::read::GzDecoder::new(&zipped.bytes().await.unwrap()[..])
        .read_to_string(&mut json)
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), plain);

    let revalidated = mesh
        .http
        .get(mesh.url("/coaches"))
        .header(header::ACCEPT_ENCODING, "gzip")
        .header(header::IF_NONE_MATCH, etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), StatusCode::NOT_MODIFIED);
}

/// The names stamp's value: only the gateway renews it after a write (identity-svc renews it at
/// start), so what renews it is the cache declaration alone. (coaching-svc and gym-svc renew
/// theirs after applying events too, at their own pace: not comparable here.)
async fn names_stamp(mesh: &Mesh, conn: &mut redis::aio::MultiplexedConnection) -> Option<String> {
    redis::cmd("GET")
        .arg(format!("{}:stamp:names", mesh.redis_namespace))
        .query_async(conn)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_write_renews_the_names_stamp_exactly_when_the_cache_declaration_says_so() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Declared Client").await;
    let redis = redis::Client::open("redis://127.0.0.1:6379").unwrap();
    let mut conn = redis.get_multiplexed_async_connection().await.unwrap();
    // A signed-in request sets any stamp still missing.
    mesh.get("/auth/me", Some(&client.token)).await;
    let before = names_stamp(&mesh, &mut conn).await;
    assert!(before.is_some());

    // POST /client/profile changes nothing any remembered answer shows.
    let (status, body) = mesh
        .post("/client/profile", Some(&client.token), json!({"age": 15}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(names_stamp(&mesh, &mut conn).await, before);

    // PUT /admin/users/{user_id} changes names.
    let admin = mesh.admin().await;
    let (status, body) = mesh
        .call(
            Method::PUT,
            &format!("/admin/users/{}", client.id),
            Some(&admin),
            Some(json!({"full_name": "Renamed Client"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let after = names_stamp(&mesh, &mut conn).await;
    assert!(after.is_some() && after != before);

    // A write refused before it reaches a service (the role gate) renews nothing.
    let (status, _) = mesh
        .call(
            Method::PUT,
            &format!("/admin/users/{}", client.id),
            Some(&client.token),
            Some(json!({"full_name": "Not Allowed"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(names_stamp(&mesh, &mut conn).await, after);
}

#[tokio::test]
async fn booking_svc_books_against_a_slot_as_the_last_write_of_the_api_left_it() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Remembered Slot").await;
    let client = user(&mesh, "client", "Rita Rebook").await;
    let book = |date: String| {
        let body = json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date});
        mesh.post("/bookings", Some(&client.token), body)
    };
    let first = next(chrono::Weekday::Wed);
    let (status, body) = book(first.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    // booking-svc now remembers the slot with the default policy (a year ahead). The policy
    // write is declared as changing coaching's data, so the next booking reads the new one.
    let policy = json!({"min_notice_minutes": 0, "max_advance_days": 21,
                        "response_window_minutes": 2880, "cancellation_window_minutes": 1440});
    let (status, body) = mesh
        .call(Method::PUT, "/coach/policy", Some(&coach.token), Some(policy))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = book((first + chrono::Days::new(21)).to_string()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("21 days"), "{body}");

    // Likewise a deleted slot cannot be booked on another of its dates.
    let (status, body) = mesh
        .call(
            Method::DELETE,
            &format!("/availability/{slot_id}"),
            Some(&coach.token),
            None,
        )
        .await;
    assert!(status.is_success(), "{status} {body}");
    let (status, body) = book((first + chrono::Days::new(7)).to_string()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}
