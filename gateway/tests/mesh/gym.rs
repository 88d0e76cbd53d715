//! Gyms and court time over HTTP: a gym publishes profile, locations, courts and availability; a
//! coach requests court time; the gym approves or denies; neither another gym nor another coach
//! can touch what is not theirs.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, in_days, user},
    helpers::Mesh,
};

/// A gym with a profile, one location, one court and one availability; all of it, by id.
pub struct Court {
    pub gym: User,
    pub location_id: String,
    pub court_id: String,
    pub availability_id: String,
    pub date: String,
}

pub async fn gym_with_court_time(mesh: &Mesh, gym_name: &str) -> Court {
    let gym = user(mesh, "gym", &format!("{gym_name} Owner")).await;
    let token = Some(gym.token.as_str());
    let (status, profile) = mesh
        .post(
            "/gym/profile",
            token,
            json!({"gym_name": gym_name, "description": "Indoor courts", "phone": "555-0100"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{profile}");
    let (status, location) = mesh
        .post(
            "/gym/locations",
            token,
            json!({"name": format!("{gym_name} North"), "address": "1 Court St", "city": "Austin",
                   "state": "TX", "latitude": 30.3, "longitude": -97.7}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{location}");
    let location_id = location["location_id"].as_str().unwrap().to_owned();
    let (status, court) = mesh
        .post(
            &format!("/gym/locations/{location_id}/courts"),
            token,
            json!({"court_name": "Court 1", "court_type": "volleyball"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{court}");
    let court_id = court["court_id"].as_str().unwrap().to_owned();
    let date = in_days(12).to_string();
    let (status, availability) = mesh
        .post(
            "/gym/court-availability",
            token,
            json!({"court_id": court_id, "date": date, "start_time": "08:00", "end_time": "10:00"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{availability}");
    Court {
        gym,
        location_id,
        court_id,
        availability_id: availability["availability_id"].as_str().unwrap().to_owned(),
        date,
    }
}

/// The coach's request for the court time `availability_id`, as answered.
pub async fn request(mesh: &Mesh, coach: &User, availability_id: &str) -> (StatusCode, Value) {
    mesh.post(
        "/coach/court-reservations",
        Some(&coach.token),
        json!({"availability_id": availability_id}),
    )
    .await
}

/// The coach's request for the court time `availability_id`, which must be made (201): the
/// reservation.
pub async fn request_court(mesh: &Mesh, coach: &User, availability_id: &str) -> Value {
    let (status, reservation) = request(mesh, coach, availability_id).await;
    assert_eq!(status, StatusCode::CREATED, "{reservation}");
    reservation
}

fn list(body: &Value) -> &Vec<Value> {
    body.as_array().unwrap_or_else(|| panic!("a list, got {body}"))
}

fn refused(status: StatusCode) -> bool {
    matches!(status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND)
}

#[tokio::test]
async fn a_gym_sets_up_its_profile_locations_and_courts() {
    let mesh = Mesh::start().await;
    let gym = user(&mesh, "gym", "Gina Gym").await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let token = Some(gym.token.as_str());

    let (status, body) = mesh.get(&format!("/gym/profile/{}", gym.id), token).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, created) = mesh
        .post(
            "/gym/profile",
            token,
            json!({"gym_name": "Hoops Hall", "description": "Six courts", "phone": "555-0100"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (status, updated) = mesh
        .call(
            Method::PUT,
            "/gym/profile",
            token,
            Some(json!({"gym_name": "Hoops Hall", "description": "Eight courts", "phone": "555-0199"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    let (status, read) = mesh
        .get(&format!("/gym/profile/{}", gym.id), Some(&coach.token))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        read,
        json!({"gym_id": gym.id, "gym_name": "Hoops Hall", "description": "Eight courts", "phone": "555-0199"})
    );

    let (status, location) = mesh
        .post(
            "/gym/locations",
            token,
            json!({"name": "Hoops Hall East", "address": "7 Rim Rd", "city": "Austin", "state": "TX"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{location}");
    assert_eq!(location["gym_name"], "Hoops Hall");
    assert_eq!(location["latitude"], Value::Null);
    let location_id = location["location_id"].as_str().unwrap();
    let courts = format!("/gym/locations/{location_id}/courts");
    let (status, court) = mesh.post(&courts, token, json!({"court_name": "Main"})).await;
    assert_eq!(status, StatusCode::CREATED, "{court}");
    assert_eq!(court["court_type"], "basketball", "the default court type");

    let (status, seen) = mesh.get("/gym/locations", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK);
    let found = list(&seen)
        .iter()
        .find(|l| l["location_id"] == location_id)
        .expect("a coach sees every gym's locations");
    assert_eq!(
        (&found["gym_name"], &found["gym_id"], &found["city"]),
        (&json!("Hoops Hall"), &json!(gym.id), &json!("Austin"))
    );
    let (status, seen_courts) = mesh.get(&courts, Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        seen_courts,
        json!([{"court_id": court["court_id"], "location_id": location_id, "court_name": "Main",
                "court_type": "basketball"}])
    );
}

#[tokio::test]
async fn a_coach_requests_open_court_time_and_the_gym_approves_it() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Hoops Hall").await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let gym = Some(court.gym.token.as_str());

    let (status, open) = mesh
        .get(
            &format!("/gym/locations/{}/availability", court.location_id),
            Some(&coach.token),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{open}");
    assert_eq!(list(&open).len(), 1);
    assert_eq!(
        (
            &open[0]["availability_id"],
            &open[0]["court_name"],
            &open[0]["is_reserved"]
        ),
        (&json!(court.availability_id), &json!("Court 1"), &json!(false))
    );

    let (status, requested) = request(&mesh, &coach, &court.availability_id).await;
    assert_eq!(status, StatusCode::CREATED, "{requested}");
    assert_eq!(requested["status"], "pending");
    assert_eq!(
        (
            &requested["gym_name"],
            &requested["location_name"],
            &requested["court_name"]
        ),
        (
            &json!("Hoops Hall"),
            &json!("Hoops Hall North"),
            &json!("Court 1")
        )
    );
    assert_eq!(
        (
            &requested["date"],
            &requested["start_time"],
            &requested["end_time"]
        ),
        (&json!(court.date), &json!("08:00"), &json!("10:00"))
    );
    let reservation_id = requested["reservation_id"].as_str().unwrap();

    let (status, pending) = mesh.get("/gym/pending-reservations", gym).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list(&pending).len(), 1, "{pending}");
    assert_eq!(pending[0]["reservation_id"], reservation_id);
    assert_eq!(pending[0]["coach_name"], "Carla Coach");
    assert_eq!(pending[0]["court_name"], "Court 1");

    let (status, approved) = mesh
        .call(
            Method::PATCH,
            &format!("/gym/reservations/{reservation_id}/approve"),
            gym,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    assert_eq!(approved["status"], "approved");

    let (_, mine) = mesh.get("/coach/court-reservations", Some(&coach.token)).await;
    assert_eq!(list(&mine).len(), 1);
    assert_eq!(mine[0]["status"], "approved");
    assert_eq!(mine[0]["gym_name"], "Hoops Hall");
    // The coach can reach the gym from it (a conversation, for one).
    assert_eq!(mine[0]["gym_id"], json!(court.gym.id), "{mine}");
    let (_, availability) = mesh.get("/gym/court-availability", gym).await;
    assert_eq!(availability[0]["is_reserved"], true, "{availability}");
    assert_eq!(availability[0]["location_name"], "Hoops Hall North");
    let (_, pending) = mesh.get("/gym/pending-reservations", gym).await;
    assert_eq!(pending, json!([]));
    let (_, open) = mesh
        .get(
            &format!("/gym/locations/{}/availability", court.location_id),
            Some(&coach.token),
        )
        .await;
    assert_eq!(open, json!([]), "reserved time is no longer open");

    let another = user(&mesh, "coach", "Late Larry").await;
    let (status, body) = request(&mesh, &another, &court.availability_id).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "reserved time cannot be requested: {body}"
    );
}

#[tokio::test]
async fn a_gym_denies_a_request_and_a_coach_cancels_their_own_pending_request() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Hoops Hall").await;
    let denied_coach = user(&mesh, "coach", "Denied Dan").await;
    let cancelling_coach = user(&mesh, "coach", "Cancel Cat").await;
    let (_, first) = request(&mesh, &denied_coach, &court.availability_id).await;
    let (_, second) = request(&mesh, &cancelling_coach, &court.availability_id).await;

    let (status, denied) = mesh
        .call(
            Method::PATCH,
            &format!(
                "/gym/reservations/{}/deny",
                first["reservation_id"].as_str().unwrap()
            ),
            Some(&court.gym.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{denied}");
    assert_eq!(denied["status"], "denied");
    assert_eq!(denied["coach_name"], "Denied Dan");
    let (_, dans) = mesh
        .get("/coach/court-reservations", Some(&denied_coach.token))
        .await;
    assert_eq!(dans[0]["status"], "denied");

    let (status, _) = mesh
        .call(
            Method::DELETE,
            &format!(
                "/coach/court-reservations/{}",
                second["reservation_id"].as_str().unwrap()
            ),
            Some(&cancelling_coach.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, pending) = mesh
        .get("/gym/pending-reservations", Some(&court.gym.token))
        .await;
    assert_eq!(pending, json!([]), "nothing is left to decide");
    let (_, availability) = mesh.get("/gym/court-availability", Some(&court.gym.token)).await;
    assert_eq!(availability[0]["is_reserved"], false);
}

#[tokio::test]
async fn another_gym_cannot_touch_a_gyms_courts_or_reservations() {
    let mesh = Mesh::start().await;
    let mine = gym_with_court_time(&mesh, "Hoops Hall").await;
    let theirs = gym_with_court_time(&mesh, "Rival Rec").await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let (_, requested) = request(&mesh, &coach, &mine.availability_id).await;
    let reservation_id = requested["reservation_id"].as_str().unwrap();
    let rival = Some(theirs.gym.token.as_str());

    let (status, body) = mesh
        .post(
            &format!("/gym/locations/{}/courts", mine.location_id),
            rival,
            json!({"court_name": "Sneaky"}),
        )
        .await;
    assert!(
        refused(status),
        "a court at another gym's location: {status} {body}"
    );
    let (status, body) = mesh
        .post(
            "/gym/court-availability",
            rival,
            json!({"court_id": mine.court_id, "date": in_days(13).to_string(), "start_time": "12:00",
                   "end_time": "13:00"}),
        )
        .await;
    assert!(refused(status), "time on another gym's court: {status} {body}");
    for action in ["approve", "deny"] {
        let (status, body) = mesh
            .call(
                Method::PATCH,
                &format!("/gym/reservations/{reservation_id}/{action}"),
                rival,
                None,
            )
            .await;
        assert!(
            refused(status),
            "{action} another gym's reservation: {status} {body}"
        );
        assert!(body["detail"].as_str().is_some());
    }

    let (_, courts) = mesh
        .get(
            &format!("/gym/locations/{}/courts", mine.location_id),
            Some(&mine.gym.token),
        )
        .await;
    assert_eq!(list(&courts).len(), 1, "no court was added: {courts}");
    let (_, availability) = mesh.get("/gym/court-availability", Some(&mine.gym.token)).await;
    assert_eq!(list(&availability).len(), 1, "no time was added: {availability}");
    assert_eq!(availability[0]["is_reserved"], false);
    let (_, pending) = mesh.get("/gym/pending-reservations", Some(&mine.gym.token)).await;
    assert_eq!(pending[0]["reservation_id"], reservation_id, "still pending");
    let (_, rival_pending) = mesh.get("/gym/pending-reservations", rival).await;
    assert_eq!(rival_pending, json!([]));
    let (_, rival_locations) = mesh.get("/gym/locations", rival).await;
    assert_eq!(
        list(&rival_locations).len(),
        1,
        "a gym sees only its own locations"
    );
    assert_eq!(rival_locations[0]["location_id"], theirs.location_id.as_str());
}

#[tokio::test]
async fn another_coach_cannot_cancel_a_coachs_request_and_clients_cannot_request() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Hoops Hall").await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let other = user(&mesh, "coach", "Other Otto").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (_, requested) = request(&mesh, &coach, &court.availability_id).await;
    let reservation_id = requested["reservation_id"].as_str().unwrap();

    let (status, body) = mesh
        .call(
            Method::DELETE,
            &format!("/coach/court-reservations/{reservation_id}"),
            Some(&other.token),
            None,
        )
        .await;
    assert!(refused(status), "{status} {body}");
    let (status, _) = request(&mesh, &client, &court.availability_id).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = mesh
        .call(
            Method::PATCH,
            &format!("/gym/reservations/{reservation_id}/approve"),
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a coach cannot approve their own request"
    );

    let (_, mine) = mesh.get("/coach/court-reservations", Some(&coach.token)).await;
    assert_eq!(mine[0]["status"], "pending");
    let (_, others) = mesh.get("/coach/court-reservations", Some(&other.token)).await;
    assert_eq!(others, json!([]));
}

#[tokio::test]
async fn bad_gym_input_is_a_4xx_with_a_detail() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Hoops Hall").await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let token = Some(court.gym.token.as_str());
    let time = |date: &str, start: &str, end: &str| json!({"court_id": court.court_id, "date": date, "start_time": start, "end_time": end});
    let later = in_days(20).to_string();
    let cases = [
        (
            "/gym/court-availability",
            time(&later, "11:00", "10:00"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/gym/court-availability",
            time("2020-01-01", "10:00", "11:00"),
            StatusCode::CONFLICT,
        ),
        (
            "/gym/court-availability",
            time("someday", "10:00", "11:00"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/gym/court-availability",
            time(&court.date, "09:00", "11:00"),
            StatusCode::CONFLICT,
        ),
        (
            "/gym/locations",
            json!({"name": "Far", "city": "X", "state": "Y", "latitude": 91.0, "longitude": 0.0}),
            StatusCode::BAD_REQUEST,
        ),
        ("/gym/profile", json!({"gym_name": "Again"}), StatusCode::CONFLICT),
        (
            "/gym/profile",
            json!({"description": "no name"}),
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (path, body, expected) in cases {
        let (status, answer) = mesh.post(path, token, body.clone()).await;
        assert_eq!(status, expected, "{path} {body}: {answer}");
        assert!(
            answer["detail"].as_str().is_some_and(|d| !d.is_empty()),
            "{answer}"
        );
    }
    let (status, answer) = mesh
        .post(
            &format!("/gym/locations/{}/courts", court.location_id),
            token,
            json!({"court_name": "Odd", "court_type": "tennis"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (status, answer) = mesh.get("/gym/locations/not-a-uuid/courts", token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(answer["detail"].as_str().unwrap().contains("UUID"));
    let (status, answer) = request(&mesh, &coach, "not-a-uuid").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");

    let (_, availability) = mesh.get("/gym/court-availability", token).await;
    assert_eq!(
        list(&availability).len(),
        1,
        "nothing bad was stored: {availability}"
    );
}

/// The pages of `path` for `who`, following each `Link: rel="next"`: each page's values of `id`.
async fn walk_pages(mesh: &Mesh, who: &User, path: &str, id: &str) -> Vec<Vec<String>> {
    let mut pages = Vec::new();
    let mut next = Some(path.to_owned());
    while let Some(path) = next.take() {
        let answer = mesh
            .raw(Method::GET, &path, Some(&who.token), None, Vec::<u8>::new())
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.body);
        pages.push(
            list(&answer.body)
                .iter()
                .map(|v| v[id].as_str().unwrap().to_owned())
                .collect(),
        );
        next = answer.headers.get("link").map(|link| {
            let link = link.to_str().unwrap();
            link[1..link.find('>').unwrap()]
                .trim_start_matches("/api")
                .to_owned()
        });
        assert!(pages.len() <= 10, "the pages never end");
    }
    pages
}

#[tokio::test]
async fn court_time_and_both_sides_reservations_come_in_pages_and_stay_whole_without_a_limit() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Paged Courts").await;
    let mut offered = vec![court.availability_id.clone()];
    for day in 13..17 {
        let (status, time) = mesh
            .post(
                "/gym/court-availability",
                Some(&court.gym.token),
                json!({"court_id": court.court_id, "date": in_days(day).to_string(),
                       "start_time": "08:00", "end_time": "10:00"}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{time}");
        offered.push(time["availability_id"].as_str().unwrap().to_owned());
    }
    let coach = user(&mesh, "coach", "Pia Pages").await;
    for availability_id in &offered {
        let (status, body) = request(&mesh, &coach, availability_id).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }

    for (who, path, id) in [
        (&court.gym, "/gym/court-availability", "availability_id"),
        (&court.gym, "/gym/pending-reservations", "reservation_id"),
        (&coach, "/coach/court-reservations", "reservation_id"),
    ] {
        let (status, whole) = mesh.get(path, Some(&who.token)).await;
        assert_eq!(status, StatusCode::OK, "{whole}");
        let whole: Vec<String> = list(&whole)
            .iter()
            .map(|v| v[id].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(whole.len(), 5, "{path}: without a limit the list is whole");
        let pages = walk_pages(&mesh, who, &format!("{path}?limit=2"), id).await;
        assert_eq!(
            pages.iter().map(Vec::len).collect::<Vec<_>>(),
            [2, 2, 1],
            "{path}"
        );
        assert_eq!(
            pages.concat(),
            whole,
            "{path}: the pages are the whole list, in order"
        );
        let (status, body) = mesh
            .get(
                &format!("{path}?limit=2&cursor=bm90LWEtY3Vyc29y"),
                Some(&who.token),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
    }
}
