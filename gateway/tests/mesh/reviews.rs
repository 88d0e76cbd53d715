//! Issue 19's reviews over HTTP: only the client of a completed session reviews it, once; edits
//! within 14 days (booking-svc's clock is injected, so time moves without sleeping); the coach
//! replies once; the admin hides a review and it leaves the list and the averages; a coach's
//! reviews page newest first with a `Link`. Ratings reach the directory as coaching's copy,
//! refreshed by booking's events, so the checks on them poll.

use std::time::Duration;

use chrono::{DateTime, Utc};
use platform::clock::ManualClock;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, coach_with_slot, user},
    helpers::Mesh,
};

/// Wednesdays; the fixture's 17:00–18:00 slot in Austin ends at 23:00 UTC on each.
const WEDNESDAYS: [&str; 3] = ["2030-06-05", "2030-06-12", "2030-06-19"];
const BEFORE: &str = "2030-06-04T12:00:00Z";

fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

/// A client's confirmed booking of the coach's slot on `date`; returns its id.
pub async fn confirmed(mesh: &Mesh, client: &User, coach: &User, slot_id: &str, date: &str) -> String {
    let (status, booking) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    let booking_id = booking["booking_id"].as_str().unwrap().to_owned();
    let (status, body) = mesh
        .call(
            Method::PATCH,
            &format!("/coach/bookings/{booking_id}/approve"),
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    booking_id
}

/// Waits until the scheduler has completed the booking.
pub async fn until_completed(mesh: &Mesh, client: &User, booking_id: &str) {
    for _ in 0..100 {
        let (status, list) = mesh.get("/bookings", Some(&client.token)).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        let booking = list
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["booking_id"] == booking_id)
            .cloned()
            .unwrap();
        if booking["status"] == "completed" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("booking {booking_id} never completed");
}

/// A mesh on a clock before [`WEDNESDAYS`], a coach with the Wednesday slot, a client with a
/// confirmed booking of the first one.
async fn session() -> (Mesh, ManualClock, User, String, User, String) {
    let clock = ManualClock::at(at(BEFORE));
    let mesh = Mesh::start_with_booking_clock(clock.clone()).await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Riley Rated").await;
    let client = user(&mesh, "client", "Casey Critic").await;
    let booking_id = confirmed(&mesh, &client, &coach, &slot_id, WEDNESDAYS[0]).await;
    (mesh, clock, coach, slot_id, client, booking_id)
}

/// Moves the clock past the first session's end and waits for its completion.
async fn complete(mesh: &Mesh, clock: &ManualClock, client: &User, booking_id: &str) {
    clock.set(at("2030-06-05T23:00:00Z"));
    until_completed(mesh, client, booking_id).await;
}

async fn review(
    mesh: &Mesh,
    method: Method,
    who: &User,
    booking_id: &str,
    body: Value,
) -> (StatusCode, Value) {
    mesh.call(
        method,
        &format!("/bookings/{booking_id}/review"),
        Some(&who.token),
        Some(body),
    )
    .await
}

/// Polls (up to ten seconds) until `check` holds of the coach's profile and directory entry.
async fn until_rated(mesh: &Mesh, viewer: &User, coach: &User, check: impl Fn(&Value) -> bool) {
    let mut last = (Value::Null, Value::Null);
    for _ in 0..100 {
        let (_, profile) = mesh
            .get(&format!("/coach/profile/{}", coach.id), Some(&viewer.token))
            .await;
        let (_, directory) = mesh.get("/coaches", None).await;
        let entry = directory
            .as_array()
            .and_then(|all| all.iter().find(|c| c["coach_id"] == coach.id.as_str()).cloned())
            .unwrap_or(Value::Null);
        if check(&profile) && check(&entry) {
            return;
        }
        last = (profile, entry);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "the ratings never matched: profile {}, directory {}",
        last.0, last.1
    );
}

#[tokio::test]
async fn only_the_client_of_a_completed_session_reviews_it_once_and_everyone_sees_the_rating() {
    let (mesh, clock, coach, _, client, booking_id) = session().await;
    let stranger = user(&mesh, "client", "Sam Stranger").await;

    let (status, body) = review(&mesh, Method::POST, &client, &booking_id, json!({"rating": 5})).await;
    assert_eq!(status, StatusCode::CONFLICT, "not taken place yet: {body}");
    assert!(body["detail"].as_str().unwrap().contains("completed"), "{body}");

    complete(&mesh, &clock, &client, &booking_id).await;
    until_rated(&mesh, &client, &coach, |c| {
        c["rating_average"].is_null() && c["rating_count"] == 0
    })
    .await;

    let (status, body) = review(&mesh, Method::POST, &stranger, &booking_id, json!({"rating": 1})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "someone else's booking: {body}");
    let (status, body) = review(&mesh, Method::POST, &coach, &booking_id, json!({"rating": 5})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a coach reviews nothing: {body}");
    for bad in [
        json!({"rating": 0}),
        json!({"rating": 6}),
        json!({"rating": "five"}),
        json!({}),
        json!({"rating": 4, "comment": "x".repeat(2001)}),
    ] {
        let (status, body) = review(&mesh, Method::POST, &client, &booking_id, bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["detail"].is_string(), "{body}");
    }

    let (status, posted) = review(
        &mesh,
        Method::POST,
        &client,
        &booking_id,
        json!({"rating": 4, "comment": "  Great footwork drills.  "}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    assert_eq!(posted["booking_id"], booking_id.as_str());
    assert_eq!(posted["coach_id"], coach.id.as_str());
    assert_eq!(posted["client_name"], "Casey Critic");
    assert_eq!(posted["rating"], 4);
    assert_eq!(posted["comment"], "Great footwork drills.");
    assert_eq!(posted["created_at"], "2030-06-05T23:00:00Z");
    assert_eq!(posted["updated_at"], posted["created_at"]);
    assert_eq!(posted["reply"], Value::Null);
    assert_eq!(posted["hidden"], false);

    let (status, body) = review(&mesh, Method::POST, &client, &booking_id, json!({"rating": 5})).await;
    assert_eq!(status, StatusCode::CONFLICT, "one review per booking: {body}");

    let (status, listed) = mesh
        .get(&format!("/coach/{}/reviews", coach.id), Some(&stranger.token))
        .await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert_eq!(listed, json!([posted]));
    let (status, mine) = mesh
        .get(&format!("/bookings/{booking_id}/review"), Some(&coach.token))
        .await;
    assert_eq!((status, &mine), (StatusCode::OK, &posted));

    until_rated(&mesh, &stranger, &coach, |c| {
        c["rating_average"] == 4.0 && c["rating_count"] == 1
    })
    .await;
}

#[tokio::test]
async fn a_review_is_edited_within_fourteen_days_of_posting_and_not_after() {
    let (mesh, clock, coach, _, client, booking_id) = session().await;
    complete(&mesh, &clock, &client, &booking_id).await;
    let (status, body) = review(&mesh, Method::PUT, &client, &booking_id, json!({"rating": 3})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "nothing to edit yet: {body}");
    let (status, posted) = review(&mesh, Method::POST, &client, &booking_id, json!({"rating": 2})).await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");

    clock.advance(chrono::Duration::days(14));
    let (status, edited) = review(
        &mesh,
        Method::PUT,
        &client,
        &booking_id,
        json!({"rating": 5, "comment": "Changed my mind"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    assert_eq!(
        (edited["rating"].clone(), edited["comment"].clone()),
        (json!(5), json!("Changed my mind"))
    );
    assert_eq!(edited["created_at"], posted["created_at"]);
    assert_eq!(edited["updated_at"], "2030-06-19T23:00:00Z");
    until_rated(&mesh, &client, &coach, |c| c["rating_average"] == 5.0).await;

    clock.advance(chrono::Duration::minutes(1));
    let (status, body) = review(&mesh, Method::PUT, &client, &booking_id, json!({"rating": 1})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("14 days"), "{body}");
}

#[tokio::test]
async fn the_coach_replies_once_and_a_hidden_review_leaves_the_list_and_the_average() {
    let (mesh, clock, coach, _, client, booking_id) = session().await;
    complete(&mesh, &clock, &client, &booking_id).await;
    let (status, posted) = review(&mesh, Method::POST, &client, &booking_id, json!({"rating": 1})).await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    let review_id = posted["review_id"].as_str().unwrap().to_owned();
    until_rated(&mesh, &client, &coach, |c| c["rating_count"] == 1).await;

    let other_coach = user(&mesh, "coach", "Otto Other").await;
    let reply = format!("/coach/reviews/{review_id}/reply");
    let (status, body) = mesh
        .post(&reply, Some(&other_coach.token), json!({"reply": "Not mine"}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "another coach's review: {body}");
    let (status, body) = mesh
        .post(&reply, Some(&coach.token), json!({"reply": "  "}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, replied) = mesh
        .post(&reply, Some(&coach.token), json!({"reply": "Sorry to hear it."}))
        .await;
    assert_eq!(status, StatusCode::OK, "{replied}");
    assert_eq!(replied["reply"], "Sorry to hear it.");
    let (status, body) = mesh
        .post(&reply, Some(&coach.token), json!({"reply": "Again"}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "one reply: {body}");

    let hide = format!("/admin/reviews/{review_id}/hide");
    let admin = mesh.admin().await;
    let (status, body) = mesh
        .call(
            Method::PATCH,
            &hide,
            Some(&coach.token),
            Some(json!({"reason": "Mean"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = mesh
        .call(Method::PATCH, &hide, Some(&admin), Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a reason is required: {body}");
    let (status, hidden) = mesh
        .call(
            Method::PATCH,
            &hide,
            Some(&admin),
            Some(json!({"reason": "Personal insults"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{hidden}");
    assert_eq!(
        (hidden["hidden"].clone(), hidden["hidden_reason"].clone()),
        (json!(true), json!("Personal insults"))
    );
    let (status, body) = mesh
        .call(
            Method::PATCH,
            &hide,
            Some(&admin),
            Some(json!({"reason": "Again"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    let (_, listed) = mesh
        .get(&format!("/coach/{}/reviews", coach.id), Some(&client.token))
        .await;
    assert_eq!(listed, json!([]));
    until_rated(&mesh, &client, &coach, |c| {
        c["rating_average"].is_null() && c["rating_count"] == 0
    })
    .await;
    let (status, body) = review(&mesh, Method::PUT, &client, &booking_id, json!({"rating": 5})).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a hidden review stays as it was: {body}"
    );
}

#[tokio::test]
async fn a_coach_s_reviews_page_newest_first_with_a_link_to_the_next_page() {
    let (mesh, clock, coach, slot_id, first_client, first) = session().await;
    let mut sessions = vec![(first_client, first)];
    for (i, date) in WEDNESDAYS.iter().enumerate().skip(1) {
        let client = user(&mesh, "client", &format!("Client {i}")).await;
        let booking_id = confirmed(&mesh, &client, &coach, &slot_id, date).await;
        sessions.push((client, booking_id));
    }
    clock.set(at("2030-06-20T00:00:00Z"));
    for (stars, (client, booking_id)) in (3..).zip(&sessions) {
        until_completed(&mesh, client, booking_id).await;
        clock.advance(chrono::Duration::hours(1));
        let (status, body) = review(&mesh, Method::POST, client, booking_id, json!({"rating": stars})).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }

    let reader = &sessions[0].0;
    let page = mesh
        .raw(
            Method::GET,
            &format!("/coach/{}/reviews?limit=2", coach.id),
            Some(&reader.token),
            None,
            Vec::<u8>::new(),
        )
        .await;
    let ratings = |page: &Value| -> Vec<Value> {
        page.as_array()
            .unwrap()
            .iter()
            .map(|r| r["rating"].clone())
            .collect()
    };
    assert_eq!(ratings(&page.body), [json!(5), json!(4)], "newest first");
    let link = page.headers["link"].to_str().unwrap();
    let next = link[1..link.find('>').unwrap()].trim_start_matches("/api");
    let (status, rest) = mesh.get(next, Some(&reader.token)).await;
    assert_eq!(status, StatusCode::OK, "{rest}");
    assert_eq!(ratings(&rest), [json!(3)]);
    until_rated(&mesh, reader, &coach, |c| {
        c["rating_average"] == 4.0 && c["rating_count"] == 3
    })
    .await;

    let (status, body) = mesh
        .get(
            &format!("/coach/{}/reviews?limit=101", coach.id),
            Some(&reader.token),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn the_admin_lists_every_review_newest_first_hidden_ones_marked_with_their_reason() {
    let (mesh, clock, coach, slot_id, first_client, first) = session().await;
    let mut sessions = vec![(first_client, first)];
    for (i, date) in WEDNESDAYS.iter().enumerate().skip(1) {
        let client = user(&mesh, "client", &format!("Client {i}")).await;
        let booking_id = confirmed(&mesh, &client, &coach, &slot_id, date).await;
        sessions.push((client, booking_id));
    }
    clock.set(at("2030-06-20T00:00:00Z"));
    let mut review_ids = Vec::new();
    for (stars, (client, booking_id)) in (3..).zip(&sessions) {
        until_completed(&mesh, client, booking_id).await;
        clock.advance(chrono::Duration::hours(1));
        let (status, body) = review(
            &mesh,
            Method::POST,
            client,
            booking_id,
            json!({"rating": stars, "comment": format!("{stars} stars")}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        review_ids.push(body["review_id"].as_str().unwrap().to_owned());
    }
    let admin = mesh.admin().await;
    let (status, body) = mesh
        .call(
            Method::PATCH,
            &format!("/admin/reviews/{}/hide", review_ids[1]),
            Some(&admin),
            Some(json!({"reason": "Personal insults"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let page = mesh
        .raw(
            Method::GET,
            "/admin/reviews?limit=2",
            Some(&admin),
            None,
            Vec::<u8>::new(),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let shown = |page: &Value| -> Vec<Value> {
        page.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                json!([
                    r["review_id"],
                    r["rating"],
                    r["comment"],
                    r["coach_name"],
                    r["client_name"],
                    r["hidden"],
                    r["hidden_reason"]
                ])
            })
            .collect()
    };
    assert_eq!(
        shown(&page.body),
        [
            json!([
                review_ids[2],
                5,
                "5 stars",
                "Riley Rated",
                "Client 2",
                false,
                null
            ]),
            json!([
                review_ids[1],
                4,
                "4 stars",
                "Riley Rated",
                "Client 1",
                true,
                "Personal insults"
            ]),
        ],
        "newest first, the hidden one marked with its reason"
    );
    let link = page.headers["link"].to_str().unwrap();
    let next = link[1..link.find('>').unwrap()].trim_start_matches("/api");
    let (status, rest) = mesh.get(next, Some(&admin)).await;
    assert_eq!(status, StatusCode::OK, "{rest}");
    assert_eq!(
        shown(&rest),
        [json!([
            review_ids[0],
            3,
            "3 stars",
            "Riley Rated",
            "Casey Critic",
            false,
            null
        ])],
        "the next page holds the rest, and only the rest"
    );

    for who in [&coach, &sessions[0].0] {
        let (status, body) = mesh.get("/admin/reviews", Some(&who.token)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    }
    let (status, body) = mesh.get("/admin/reviews?limit=101", Some(&admin)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}
