//! The coach's side over HTTP: profile, locations and availability; the public directory with
//! its ETag, nearby and city search, and geocoding; what other users cannot do; bad input.
//!
//! Also the fixtures the booking and gym journeys share: named users, a coach with a bookable
//! slot, and dates in the future.

use chrono::{Datelike, Days, NaiveDate, Utc, Weekday};
use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::Mesh;

/// A signed-in user.
pub struct User {
    pub token: String,
    pub id: String,
    pub name: String,
}

/// Registers a user with `role` and a distinct, recognisable full name.
pub async fn user(mesh: &Mesh, role: &str, name: &str) -> User {
    let email = format!("{role}-{}@mesh.test", Uuid::new_v4().simple());
    let (status, body) = mesh
        .post(
            "/auth/register",
            None,
            json!({"email": email, "password": platform::testing::FIXTURE_PASSWORD, "full_name": name, "role": role}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "register {role}: {body}");
    User {
        token: body["token"].as_str().expect("a token").to_owned(),
        id: body["user"]["user_id"].as_str().expect("a user id").to_owned(),
        name: name.to_owned(),
    }
}

/// A date `days` from today.
pub fn in_days(days: u64) -> NaiveDate {
    Utc::now().date_naive() + Days::new(days)
}

/// The first date at least two weeks ahead that falls on `weekday`.
pub fn next(weekday: Weekday) -> NaiveDate {
    let mut date = in_days(14);
    while date.weekday() != weekday {
        date = date + Days::new(1);
    }
    date
}

/// A coach with a profile ($60 an hour) and one location; returns the coach and the location id.
pub async fn coach_with_location(mesh: &Mesh, name: &str, city: &str, lat: f64, lng: f64) -> (User, String) {
    coach_at_rate(mesh, name, city, lat, lng, 60.0).await
}

/// A coach with a profile at `hourly_rate` dollars and one location; returns the coach and the
/// location id.
pub async fn coach_at_rate(
    mesh: &Mesh,
    name: &str,
    city: &str,
    lat: f64,
    lng: f64,
    hourly_rate: f64,
) -> (User, String) {
    let coach = user(mesh, "coach", name).await;
    let (status, body) = mesh
        .post(
            "/coach/profile",
            Some(&coach.token),
            json!({"bio": format!("{name} coaches."), "specialties": ["Shooting", "Defense"],
                   "hourly_rate": hourly_rate, "years_experience": 8}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, location) = mesh
        .post(
            "/locations",
            Some(&coach.token),
            json!({"name": format!("{city} Rec Center"), "address": "1 Main St", "court_number": "2",
                   "city": city, "state": "TX", "latitude": lat, "longitude": lng}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{location}");
    (coach, location["location_id"].as_str().unwrap().to_owned())
}

/// A coach who coaches for free (no card needed: the money has its own tests, `payments.rs`) with
/// a profile, a location and a recurring Wednesday 17:00-18:00 slot there; returns the coach and
/// the slot id.
pub async fn coach_with_slot(mesh: &Mesh, name: &str) -> (User, String) {
    paid_coach_with_slot(mesh, name, 0.0).await
}

/// [`coach_with_slot`] at `hourly_rate` dollars an hour.
pub async fn paid_coach_with_slot(mesh: &Mesh, name: &str, hourly_rate: f64) -> (User, String) {
    let (coach, location_id) = coach_at_rate(mesh, name, "Austin", 30.2672, -97.7431, hourly_rate).await;
    let (status, slot) = mesh
        .post(
            "/availability",
            Some(&coach.token),
            json!({"slot_type": "recurring", "day_of_week": "Wednesday", "start_time": "17:00",
                   "end_time": "18:00", "location_id": location_id}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{slot}");
    (coach, slot["slot_id"].as_str().unwrap().to_owned())
}

fn detail(body: &Value) -> &str {
    body["detail"]
        .as_str()
        .unwrap_or_else(|| panic!("a detail in {body}"))
}

fn find<'a>(list: &'a Value, key: &str, id: &str) -> Option<&'a Value> {
    list.as_array()
        .expect("a list")
        .iter()
        .find(|item| item[key] == id)
}

#[tokio::test]
async fn a_coach_creates_and_updates_a_profile_that_anyone_signed_in_can_read_with_the_name() {
    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let path = format!("/coach/profile/{}", coach.id);

    let (status, body) = mesh.get(&path, Some(&coach.token)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no profile yet: {body}");
    assert!(!detail(&body).is_empty());

    let (status, created) = mesh
        .post(
            "/coach/profile",
            Some(&coach.token),
            json!({"bio": "Guards and shooting.", "specialties": ["Shooting", "Ball handling"],
                   "hourly_rate": 55.5, "years_experience": 6}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["coach_id"], coach.id.as_str());
    assert_eq!(created["coach_name"], "Carla Coach");
    assert_eq!(created["specialties"], json!(["Shooting", "Ball handling"]));
    assert_eq!(created["hourly_rate"], 55.5);
    assert_eq!(created["time_zone"], "UTC", "no zone given: UTC");

    let (status, again) = mesh
        .post(
            "/coach/profile",
            Some(&coach.token),
            json!({"bio": "", "specialties": [], "hourly_rate": 1.0, "years_experience": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "a second create: {again}");

    let (status, updated) = mesh
        .call(
            Method::PUT,
            "/coach/profile",
            Some(&coach.token),
            Some(
                json!({"bio": "Guards, shooting and footwork.", "specialties": ["Shooting"],
                        "hourly_rate": 70.0, "years_experience": 7, "time_zone": "America/Chicago"}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{updated}");

    let (status, read) = mesh.get(&path, Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_eq!(
        read,
        json!({"coach_id": coach.id, "coach_name": "Carla Coach", "bio": "Guards, shooting and footwork.",
               "specialties": ["Shooting"], "hourly_rate": 70.0, "years_experience": 7,
               "time_zone": "America/Chicago", "rating_average": null, "rating_count": 0,
               "rating_distribution": [0, 0, 0, 0, 0]})
    );
}

#[tokio::test]
async fn a_coach_adds_locations_with_and_without_coordinates_and_recurring_and_one_time_slots() {
    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;

    let (status, pinned) = mesh
        .post(
            "/locations",
            Some(&coach.token),
            json!({"name": "Eastside Gym", "address": "12 Oak Ave", "court_number": "3", "city": "Austin",
                   "state": "TX", "latitude": 30.2672, "longitude": -97.7431}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{pinned}");
    assert_eq!(pinned["latitude"], 30.2672);
    let (status, unpinned) = mesh
        .post(
            "/locations",
            Some(&coach.token),
            json!({"name": "Downtown Y", "address": "5 Elm St", "court_number": "A", "city": "Dallas",
                   "state": "TX"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{unpinned}");
    assert_eq!(unpinned["name"], "Downtown Y");

    let (status, own) = mesh.get("/locations", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(own.as_array().unwrap().len(), 2, "{own}");
    let (status, seen) = mesh
        .get(&format!("/locations/coach/{}", coach.id), Some(&client.token))
        .await;
    assert_eq!(status, StatusCode::OK);
    let eastside = find(&seen, "name", "Eastside Gym").expect("the client sees Eastside Gym");
    assert_eq!(eastside["court_number"], "3");
    assert_eq!(eastside["address"], "12 Oak Ave");

    let location_id = pinned["location_id"].as_str().unwrap();
    let (status, recurring) = mesh
        .post(
            "/availability",
            Some(&coach.token),
            json!({"slot_type": "recurring", "day_of_week": "Monday", "start_time": "09:00",
                   "end_time": "10:30", "location_id": location_id}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{recurring}");
    let date = in_days(10).to_string();
    let (status, once) = mesh
        .post(
            "/availability",
            Some(&coach.token),
            json!({"slot_type": "one-time", "specific_date": date, "start_time": "18:00",
                   "end_time": "19:00", "location_id": ""}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{once}");

    let (status, slots) = mesh
        .get(&format!("/availability/coach/{}", coach.id), Some(&client.token))
        .await;
    assert_eq!(status, StatusCode::OK);
    let monday = find(&slots, "slot_id", recurring["slot_id"].as_str().unwrap()).expect("the weekly slot");
    assert_eq!(
        (
            monday["slot_type"].clone(),
            monday["day_of_week"].clone(),
            monday["specific_date"].clone()
        ),
        (json!("recurring"), json!("Monday"), Value::Null)
    );
    assert_eq!(
        (&monday["start_time"], &monday["end_time"]),
        (&json!("09:00"), &json!("10:30"))
    );
    assert_eq!(monday["location_id"], location_id);
    let one_off = find(&slots, "slot_id", once["slot_id"].as_str().unwrap()).expect("the one-time slot");
    assert_eq!(
        (
            one_off["slot_type"].clone(),
            one_off["specific_date"].clone(),
            one_off["location_id"].clone()
        ),
        (json!("one-time"), json!(date), Value::Null)
    );
}

#[tokio::test]
async fn the_directory_shows_a_coach_with_name_and_places_and_revalidates_with_an_etag() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_location(&mesh, "Dana Dribble", "Austin", 30.2672, -97.7431).await;

    let first = mesh.http.get(mesh.url("/coaches")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.headers()[header::CACHE_CONTROL], "no-cache");
    let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
    let listing: Value = first.json().await.unwrap();
    let dana = find(&listing, "coach_id", &coach.id).expect("the coach is listed");
    assert_eq!(dana["coach_name"], "Dana Dribble");
    assert_eq!(dana["locations"], json!([{"city": "Austin", "state": "TX"}]));
    assert_eq!(dana["specialties"], json!(["Shooting", "Defense"]));
    assert_eq!(
        (&dana["hourly_rate"], &dana["years_experience"]),
        (&json!(60.0), &json!(8))
    );
    assert_eq!(dana["distance"], Value::Null);

    let unchanged = mesh
        .http
        .get(mesh.url("/coaches"))
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(unchanged.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(unchanged.headers()[header::ETAG], etag.as_str());
    assert!(unchanged.bytes().await.unwrap().is_empty());

    let (status, _) = mesh
        .call(
            Method::PUT,
            "/coach/profile",
            Some(&coach.token),
            Some(
                json!({"bio": "Now also post moves.", "specialties": ["Shooting"], "hourly_rate": 80.0,
                        "years_experience": 9}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let changed = mesh
        .http
        .get(mesh.url("/coaches"))
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    assert_ne!(changed.headers()[header::ETAG], etag.as_str());
    let listing: Value = changed.json().await.unwrap();
    assert_eq!(
        find(&listing, "coach_id", &coach.id).unwrap()["hourly_rate"],
        80.0
    );
}

#[tokio::test]
async fn a_coach_without_a_profile_is_not_in_the_directory() {
    let mesh = Mesh::start().await;
    let (listed, _) = coach_with_location(&mesh, "Listed Lee", "Austin", 30.2672, -97.7431).await;
    let unlisted = user(&mesh, "coach", "Unlisted Una").await;

    let (status, listing) = mesh.get("/coaches", None).await;

    assert_eq!(status, StatusCode::OK);
    assert!(find(&listing, "coach_id", &listed.id).is_some());
    assert!(find(&listing, "coach_id", &unlisted.id).is_none());
}

#[tokio::test]
async fn nearby_search_finds_coaches_within_the_radius_nearest_first() {
    let mesh = Mesh::start().await;
    let (austin, _) = coach_with_location(&mesh, "Austin Ace", "Austin", 30.2672, -97.7431).await;
    let (round_rock, _) = coach_with_location(&mesh, "Rocky Round", "Round Rock", 30.5083, -97.6789).await;
    let (dallas, _) = coach_with_location(&mesh, "Dallas Dunk", "Dallas", 32.7767, -96.7970).await;

    let (status, near) = mesh
        .get("/coaches/search/nearby?lat=30.2672&lng=-97.7431", None)
        .await;

    assert_eq!(status, StatusCode::OK, "{near}");
    let ids: Vec<&str> = near
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["coach_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [austin.id.as_str(), round_rock.id.as_str()],
        "within 25 miles, nearest first"
    );
    assert_eq!(near[0]["coach_name"], "Austin Ace");
    let miles = near[1]["distance"].as_f64().expect("a distance in miles");
    assert!(
        (15.0..20.0).contains(&miles),
        "Round Rock is about 17 miles away, got {miles}"
    );

    let (status, wide) = mesh
        .get("/coaches/search/nearby?lat=30.2672&lng=-97.7431&radius=300", None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(wide.as_array().unwrap().len(), 3);
    assert_eq!(wide[2]["coach_id"], dallas.id.as_str());
}

#[tokio::test]
async fn city_search_matches_city_or_state_whatever_the_case() {
    let mesh = Mesh::start().await;
    let (austin, _) = coach_with_location(&mesh, "Austin Ace", "Austin", 30.2672, -97.7431).await;
    let (dallas, _) = coach_with_location(&mesh, "Dallas Dunk", "Dallas", 32.7767, -96.7970).await;

    let (status, by_city) = mesh.get("/coaches/search/city?city=aUSTIN", None).await;
    assert_eq!(status, StatusCode::OK, "{by_city}");
    assert_eq!(by_city.as_array().unwrap().len(), 1);
    assert_eq!(by_city[0]["coach_id"], austin.id.as_str());
    assert_eq!(by_city[0]["coach_name"], "Austin Ace");

    let (status, by_state) = mesh.get("/coaches/search/city?state=tx", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(find(&by_state, "coach_id", &austin.id).is_some());
    assert!(find(&by_state, "coach_id", &dallas.id).is_some());

    let (status, body) = mesh.get("/coaches/search/city?city=%20&state=", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(detail(&body), "Please enter a city or state");
}

#[tokio::test]
async fn a_typed_place_is_geocoded_and_a_location_without_coordinates_is_found_near_it() {
    let mesh = Mesh::start().await;
    let coach = user(&mesh, "coach", "Gina Geo").await;
    let (status, _) = mesh
        .post(
            "/coach/profile",
            Some(&coach.token),
            json!({"bio": "", "specialties": ["Passing"], "hourly_rate": 40.0, "years_experience": 2}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, location) = mesh
        .post(
            "/locations",
            Some(&coach.token),
            json!({"name": "Denver Courts", "address": "9 Pine St", "court_number": "1", "city": "Denver",
                   "state": "CO", "latitude": null, "longitude": null}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{location}");

    let (status, place) = mesh.get("/geocode?city=denver&state=CO", None).await;
    assert_eq!(status, StatusCode::OK, "{place}");
    assert_eq!(place["found"], true);
    assert_eq!(place["name"], "Denver, CO");
    let (lat, lng) = (place["lat"].as_f64().unwrap(), place["lng"].as_f64().unwrap());
    assert!(
        (39.0..40.5).contains(&lat) && (-105.5..-104.5).contains(&lng),
        "{place}"
    );

    let (status, near) = mesh
        .get(&format!("/coaches/search/nearby?lat={lat}&lng={lng}"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(near[0]["coach_id"], coach.id.as_str(), "{near}");

    let (status, unknown) = mesh.get("/geocode?city=Nowhereville&state=ZZ", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        unknown,
        json!({"found": false, "lat": null, "lng": null, "name": null})
    );

    let (status, body) = mesh.get("/geocode", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(detail(&body), "Please enter a city or state");
}

#[tokio::test]
async fn nearby_search_needs_coordinates_in_range() {
    let mesh = Mesh::start().await;
    for (query, word) in [
        ("", "lat"),
        ("?lat=30.2", "lng"),
        ("?lat=91&lng=0", "lat"),
        ("?lat=0&lng=-181", "lng"),
        ("?lat=abc&lng=0", "lat"),
        ("?lat=0&lng=0&radius=-5", "radius"),
    ] {
        let (status, body) = mesh.get(&format!("/coaches/search/nearby{query}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert!(detail(&body).contains(word), "{query}: {body}");
    }
}

#[tokio::test]
async fn another_coach_cannot_delete_a_slot_and_it_stays_until_its_coach_deletes_it() {
    let mesh = Mesh::start().await;
    let (owner, slot_id) = coach_with_slot(&mesh, "Owner Olive").await;
    let (other, _) = coach_with_slot(&mesh, "Other Otto").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let path = format!("/availability/{slot_id}");
    let slots = format!("/availability/coach/{}", owner.id);

    let (status, body) = mesh.call(Method::DELETE, &path, Some(&other.token), None).await;
    assert!(
        matches!(status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND),
        "{status}: {body}"
    );
    assert!(!detail(&body).is_empty());
    let (status, body) = mesh.call(Method::DELETE, &path, Some(&client.token), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (_, still) = mesh.get(&slots, Some(&client.token)).await;
    assert!(find(&still, "slot_id", &slot_id).is_some(), "the slot stays");

    let (status, _) = mesh.call(Method::DELETE, &path, Some(&owner.token), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, gone) = mesh.get(&slots, Some(&client.token)).await;
    assert!(find(&gone, "slot_id", &slot_id).is_none(), "the slot is gone");
}

#[tokio::test]
async fn a_slot_cannot_use_another_coachs_location() {
    let mesh = Mesh::start().await;
    let (_, their_location) = coach_with_location(&mesh, "Other Otto", "Austin", 30.2672, -97.7431).await;
    let (me, _) = coach_with_location(&mesh, "Me Myself", "Austin", 30.2672, -97.7431).await;

    let (status, body) = mesh
        .post(
            "/availability",
            Some(&me.token),
            json!({"slot_type": "recurring", "day_of_week": "Friday", "start_time": "10:00",
                   "end_time": "11:00", "location_id": their_location}),
        )
        .await;

    assert!(status.is_client_error(), "{status}: {body}");
    assert!(!detail(&body).is_empty());
    let (_, slots) = mesh
        .get(&format!("/availability/coach/{}", me.id), Some(&me.token))
        .await;
    assert_eq!(slots, json!([]));
}

#[tokio::test]
async fn bad_coaching_input_is_a_4xx_with_a_detail() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_location(&mesh, "Carla Coach", "Austin", 30.2672, -97.7431).await;
    let token = Some(coach.token.as_str());
    let profile = |rate: Value, years: Value| json!({"bio": "x", "specialties": [], "hourly_rate": rate, "years_experience": years});
    let slot = |day: Value, start: &str, end: &str| json!({"slot_type": "recurring", "day_of_week": day, "start_time": start, "end_time": end});
    let cases: Vec<(Method, &str, Value)> = vec![
        (Method::PUT, "/coach/profile", profile(json!(-1.0), json!(3))),
        (Method::PUT, "/coach/profile", profile(json!(10.0), json!(-2))),
        (Method::PUT, "/coach/profile", profile(json!("ten"), json!(3))),
        (Method::PUT, "/coach/profile", json!({"bio": "no rate"})),
        (
            Method::POST,
            "/locations",
            json!({"name": "Far", "city": "X", "state": "Y", "latitude": 95.0, "longitude": 0.0}),
        ),
        (
            Method::POST,
            "/locations",
            json!({"name": "Far", "city": "X", "state": "Y", "latitude": 0.0, "longitude": 200.0}),
        ),
        (
            Method::POST,
            "/locations",
            json!({"name": "Half", "city": "X", "state": "Y", "latitude": 30.0, "longitude": null}),
        ),
        (
            Method::POST,
            "/availability",
            slot(json!("Funday"), "10:00", "11:00"),
        ),
        (Method::POST, "/availability", slot(Value::Null, "10:00", "11:00")),
        (
            Method::POST,
            "/availability",
            slot(json!("Monday"), "25:00", "26:00"),
        ),
        (
            Method::POST,
            "/availability",
            json!({"slot_type": "one-time", "start_time": "10:00", "end_time": "11:00"}),
        ),
    ];
    for (method, path, body) in cases {
        let (status, answer) = mesh.call(method.clone(), path, token, Some(body.clone())).await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{method} {path} {body}: {answer}"
        );
        assert!(!detail(&answer).is_empty());
    }

    // Every field well-formed, but the end before the start: a rule across fields, 422.
    let (status, answer) = mesh
        .call(
            Method::POST,
            "/availability",
            token,
            Some(slot(json!("Monday"), "10:00", "09:00")),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(detail(&answer), "end_time must be after start_time");
    // A real date the clock has passed: a conflict with the present, 409.
    let yesterday = (chrono::Utc::now() - chrono::Duration::days(2))
        .format("%Y-%m-%d")
        .to_string();
    let (status, answer) = mesh
        .call(
            Method::POST,
            "/availability",
            token,
            Some(json!({"slot_type": "one-time", "specific_date": yesterday, "start_time": "10:00", "end_time": "11:00"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(detail(&answer), "specific_date must not be in the past");

    let (status, answer) = mesh.get("/coach/profile/not-a-uuid", token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(detail(&answer).contains("UUID"), "{answer}");
    let (status, _) = mesh
        .get(&format!("/coach/profile/{}", Uuid::new_v4()), token)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, answer) = mesh
        .call(
            Method::DELETE,
            &format!("/availability/{}", Uuid::new_v4()),
            token,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
}

#[tokio::test]
async fn only_coaches_write_coaching_data_and_the_detail_reads_need_a_sign_in() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_location(&mesh, "Carla Coach", "Austin", 30.2672, -97.7431).await;
    let client = user(&mesh, "client", "Chris Client").await;

    let (status, body) = mesh
        .post(
            "/coach/profile",
            Some(&client.token),
            json!({"bio": "", "specialties": [], "hourly_rate": 1.0, "years_experience": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = mesh.get("/locations", Some(&client.token)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for path in [
        format!("/coach/profile/{}", coach.id),
        format!("/locations/coach/{}", coach.id),
        format!("/availability/coach/{}", coach.id),
    ] {
        let (status, body) = mesh.get(&path, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}: {body}");
    }
    let (status, _) = mesh.get("/coaches", None).await;
    assert_eq!(status, StatusCode::OK, "the directory is public");
}

#[tokio::test]
async fn the_directory_etag_changes_when_a_coach_is_renamed() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_location(&mesh, "Old Name", "Austin", 30.2672, -97.7431).await;
    let admin = mesh.admin().await;
    let first = mesh.http.get(mesh.url("/coaches")).send().await.unwrap();
    let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();

    let (status, body) = mesh
        .call(
            Method::PUT,
            &format!("/admin/users/{}", coach.id),
            Some(&admin),
            Some(json!({"full_name": "New Name"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let again = mesh
        .http
        .get(mesh.url("/coaches"))
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::OK, "a rename is a change");
    let listing: Value = again.json().await.unwrap();
    assert_eq!(
        find(&listing, "coach_id", &coach.id).unwrap()["coach_name"],
        "New Name"
    );
}
