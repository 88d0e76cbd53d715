//! Calendars over HTTP (issue 18): each person's feed address, the feed itself fetched without a
//! token and read by an iCalendar parser (the `ical` crate, not the crate that writes it), its
//! SEQUENCE growing with every change, a session called off staying in it as cancelled for 30
//! days, a reset address answering 404 at once, and one booking's `.ics` for its client and coach
//! only.

use std::{collections::HashMap, io::BufReader};

use chrono::{DateTime, Utc, Weekday};
use platform::clock::ManualClock;
use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};

use crate::{
    coaching::{User, coach_with_slot, next, user},
    gym::{gym_with_court_time, request_court},
    helpers::Mesh,
};

/// The mesh's PUBLIC_URL (tests/mesh/helpers.rs).
const PUBLIC_URL: &str = "http://courtside.test";

/// A Wednesday; the fixture's 17:00–18:00 slot in Austin (CDT, UTC-5) is 22:00–23:00 UTC then.
const WEDNESDAY: &str = "2030-06-05";

fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

/// One VEVENT: its properties by name (values as written, still escaped).
#[derive(Debug)]
struct Event(HashMap<String, String>);

impl Event {
    fn get(&self, name: &str) -> &str {
        self.0
            .get(name)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("{name} in {:?}", self.0))
    }

    fn sequence(&self) -> u32 {
        self.get("SEQUENCE").parse().expect("SEQUENCE is a number")
    }
}

/// A calendar as the parser reads it: its own properties and its events.
#[derive(Debug)]
struct Calendar {
    properties: HashMap<String, String>,
    events: Vec<Event>,
}

impl Calendar {
    fn event(&self, uid: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.get("UID") == uid)
    }
}

fn properties(list: Vec<ical::property::Property>) -> HashMap<String, String> {
    list.into_iter()
        .map(|p| (p.name, p.value.unwrap_or_default()))
        .collect()
}

/// Parses an iCalendar document that must hold exactly one VCALENDAR.
fn parse(text: &str) -> Calendar {
    let mut calendars = ical::IcalParser::new(BufReader::new(text.as_bytes()))
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("an iCalendar document ({e}):\n{text}"));
    assert_eq!(calendars.len(), 1, "one calendar in\n{text}");
    let calendar = calendars.remove(0);
    Calendar {
        properties: properties(calendar.properties),
        events: calendar
            .events
            .into_iter()
            .map(|e| Event(properties(e.properties)))
            .collect(),
    }
}

/// The address of `who`'s feed, as the API gives it, and its path under the mesh's `/api`: the
/// first ask shows it; once a feed exists its address is not kept, so a reset gives a new one.
async fn feed_address(mesh: &Mesh, who: &User) -> (String, String) {
    let (status, mut body) = mesh.get("/calendar/feed", Some(&who.token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    if body["url"].is_null() {
        let (status, reset) = mesh.post("/calendar/feed", Some(&who.token), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{reset}");
        body = reset;
    }
    let url = body["url"].as_str().expect("a url").to_owned();
    let path = url
        .strip_prefix(&format!("{PUBLIC_URL}/api"))
        .unwrap_or_else(|| panic!("{url} under PUBLIC_URL/api"))
        .to_owned();
    (url, path)
}

/// A raw GET without a token: status, headers and body text.
async fn fetch(
    mesh: &Mesh,
    path: &str,
    headers: &[(header::HeaderName, &str)],
) -> (StatusCode, header::HeaderMap, String) {
    let mut request = mesh.http.get(mesh.url(path));
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap_or_default())
}

/// `who`'s feed, fetched without a token and parsed.
async fn feed_of(mesh: &Mesh, who: &User) -> Calendar {
    let (_, path) = feed_address(mesh, who).await;
    let (status, headers, text) = fetch(mesh, &path, &[]).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(headers[header::CONTENT_TYPE], "text/calendar; charset=utf-8");
    parse(&text)
}

/// Books the slot and answers the booking as the API shows it.
async fn book_session(mesh: &Mesh, client: &User, coach: &User, slot_id: &str, date: &str) -> Value {
    let (status, booking) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    booking
}

async fn book(mesh: &Mesh, client: &User, coach: &User, slot_id: &str, date: &str) -> String {
    let booking = book_session(mesh, client, coach, slot_id, date).await;
    booking["booking_id"].as_str().unwrap().to_owned()
}

/// An RFC 3339 instant of the API as iCalendar writes a UTC DATE-TIME.
fn in_ical(rfc3339: &Value) -> String {
    at(rfc3339.as_str().expect("an instant"))
        .format("%Y%m%dT%H%M%SZ")
        .to_string()
}

async fn patch(mesh: &Mesh, path: &str, who: &User, body: Option<Value>) -> Value {
    let (status, answer) = mesh.call(Method::PATCH, path, Some(&who.token), body).await;
    assert_eq!(status, StatusCode::OK, "{path}: {answer}");
    answer
}

fn booking_uid(booking_id: &str) -> String {
    format!("booking-{booking_id}@courtside")
}

#[tokio::test]
async fn a_signed_in_person_gets_one_feed_address_under_public_url_shown_once() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;

    let (_, path) = feed_address(&mesh, &client).await;
    let (status, again) = mesh.get("/calendar/feed", Some(&client.token)).await;

    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(
        again,
        json!({"url": null}),
        "the address is kept only hashed: shown once"
    );
    assert_eq!(
        fetch(&mesh, &path, &[]).await.0,
        StatusCode::OK,
        "and still opens the feed"
    );
    let file = path.strip_prefix("/calendar/").expect("under /calendar/");
    let secret = file.strip_suffix(".ics").expect("an .ics file");
    assert_eq!(secret.len(), 43, "{secret}");
    let (status, body) = mesh.get("/calendar/feed", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let admin = mesh.admin().await;
    let (status, body) = mesh.get("/calendar/feed", Some(&admin)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "an admin has no sessions: {body}");
}

#[tokio::test]
async fn a_clients_request_is_tentative_in_their_feed_and_confirmed_with_a_higher_sequence_once_approved() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let booking = book_session(&mesh, &client, &coach, &slot_id, &next(Weekday::Wed).to_string()).await;
    let booking_id = booking["booking_id"].as_str().unwrap().to_owned();
    let uid = booking_uid(&booking_id);

    let requested = feed_of(&mesh, &client).await;
    let coach_before = feed_of(&mesh, &coach).await;
    patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    let approved = feed_of(&mesh, &client).await;
    let coach_after = feed_of(&mesh, &coach).await;

    assert_eq!(requested.properties["VERSION"], "2.0");
    assert_eq!(requested.properties["X-WR-CALNAME"], "Courtside: Chris Client");
    let tentative = requested
        .event(&uid)
        .expect("the request is in the client's feed");
    assert_eq!(tentative.get("STATUS"), "TENTATIVE");
    assert_eq!(tentative.get("SUMMARY"), "Coaching session with Carla Coach");
    assert_eq!(tentative.get("LOCATION"), "Austin Rec Center");
    assert_eq!(
        tentative.get("DTSTART"),
        in_ical(&booking["starts_at"]),
        "17:00 in Austin, in UTC"
    );
    assert_eq!(tentative.get("DTEND"), in_ical(&booking["ends_at"]));
    assert!(
        coach_before.event(&uid).is_none(),
        "a request the coach has not confirmed"
    );

    let confirmed = approved.event(&uid).expect("still in the client's feed");
    assert_eq!(confirmed.get("STATUS"), "CONFIRMED");
    assert!(
        confirmed.sequence() > tentative.sequence(),
        "SEQUENCE grew: {} then {}",
        tentative.sequence(),
        confirmed.sequence()
    );
    let coachs = coach_after
        .event(&uid)
        .expect("in the coach's feed once confirmed");
    assert_eq!(coachs.get("STATUS"), "CONFIRMED");
    assert_eq!(coachs.get("SUMMARY"), "Coaching session with Chris Client");
    assert_eq!(coachs.get("SEQUENCE"), confirmed.get("SEQUENCE"));
    assert_eq!(coachs.get("DTSTART"), confirmed.get("DTSTART"));
}

#[tokio::test]
async fn a_denied_request_stays_in_the_clients_feed_as_cancelled_and_never_reaches_the_coachs() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let booking_id = book(&mesh, &client, &coach, &slot_id, &next(Weekday::Wed).to_string()).await;
    let uid = booking_uid(&booking_id);
    let before = feed_of(&mesh, &client).await;

    patch(&mesh, &format!("/coach/bookings/{booking_id}/deny"), &coach, None).await;

    let after = feed_of(&mesh, &client).await;
    let denied = after.event(&uid).expect("still there, for calendars to drop it");
    assert_eq!(denied.get("STATUS"), "CANCELLED");
    assert!(denied.sequence() > before.event(&uid).unwrap().sequence());
    assert!(feed_of(&mesh, &coach).await.events.is_empty());
}

#[tokio::test]
async fn a_cancelled_session_stays_in_both_feeds_as_cancelled_until_30_days_after_it_was_to_start() {
    let clock = ManualClock::at(at("2030-06-01T12:00:00Z"));
    let mesh = Mesh::start_with_booking_clock(clock.clone()).await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let booking_id = book(&mesh, &client, &coach, &slot_id, WEDNESDAY).await;
    let uid = booking_uid(&booking_id);
    patch(
        &mesh,
        &format!("/coach/bookings/{booking_id}/approve"),
        &coach,
        None,
    )
    .await;
    let confirmed = feed_of(&mesh, &coach).await;

    patch(
        &mesh,
        &format!("/bookings/{booking_id}/cancel"),
        &client,
        Some(json!({"reason": "Ankle sprain"})),
    )
    .await;

    for who in [&client, &coach] {
        let feed = feed_of(&mesh, who).await;
        let cancelled = feed.event(&uid).expect("a cancelled session stays");
        assert_eq!(cancelled.get("STATUS"), "CANCELLED", "{}", who.name);
        assert!(cancelled.sequence() > confirmed.event(&uid).unwrap().sequence());
        assert!(
            cancelled.get("DESCRIPTION").contains("Ankle sprain"),
            "{cancelled:?}"
        );
    }
    // 29 days and 23 hours after the session was to start (22:00 UTC): still there.
    clock.set(at("2030-07-05T21:00:00Z"));
    for who in [&client, &coach] {
        let feed = feed_of(&mesh, who).await;
        assert_eq!(feed.event(&uid).expect("still there").get("STATUS"), "CANCELLED");
    }
    // Past 30 days: gone from both.
    clock.set(at("2030-07-05T22:00:01Z"));
    for who in [&client, &coach] {
        assert!(feed_of(&mesh, who).await.event(&uid).is_none(), "{}", who.name);
    }
}

#[tokio::test]
async fn court_time_a_gym_approved_is_in_the_gyms_and_the_coachs_feeds_until_it_is_called_off() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Hoops Hall").await;
    let coach = user(&mesh, "coach", "Carla Coach").await;
    let requested = request_court(&mesh, &coach, &court.availability_id).await;
    let reservation_id = requested["reservation_id"].as_str().unwrap().to_owned();
    let uid = format!("court-reservation-{reservation_id}@courtside");
    assert!(
        feed_of(&mesh, &court.gym).await.events.is_empty(),
        "a request is not booked time"
    );

    patch(
        &mesh,
        &format!("/gym/reservations/{reservation_id}/approve"),
        &court.gym,
        None,
    )
    .await;
    let gyms = feed_of(&mesh, &court.gym).await;
    let coachs = feed_of(&mesh, &coach).await;

    let approved = gyms.event(&uid).expect("in the gym's feed");
    assert_eq!(approved.get("STATUS"), "CONFIRMED");
    assert_eq!(approved.get("SUMMARY"), "Court time: Carla Coach on Court 1");
    assert_eq!(
        approved.get("LOCATION"),
        r"Hoops Hall North\, 1 Court St\, Austin\, TX"
    );
    assert_eq!(
        approved.get("DTSTART"),
        in_ical(&requested["starts_at"]),
        "08:00 in Austin, in UTC"
    );
    assert_eq!(approved.get("DTEND"), in_ical(&requested["ends_at"]));
    let coach_event = coachs.event(&uid).expect("in the coach's feed");
    assert_eq!(coach_event.get("SUMMARY"), "Court time at Hoops Hall: Court 1");
    assert_eq!(coach_event.get("STATUS"), "CONFIRMED");

    patch(
        &mesh,
        &format!("/gym/reservations/{reservation_id}/cancel"),
        &court.gym,
        Some(json!({"reason": "Floor repairs"})),
    )
    .await;
    for who in [&court.gym, &coach] {
        let feed = feed_of(&mesh, who).await;
        let off = feed.event(&uid).expect("stays, cancelled");
        assert_eq!(off.get("STATUS"), "CANCELLED");
        assert!(off.sequence() > approved.sequence());
    }
}

#[tokio::test]
async fn a_reset_address_answers_404_at_once_and_the_new_one_opens_the_feed() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (old_url, old_path) = feed_address(&mesh, &client).await;
    assert_eq!(fetch(&mesh, &old_path, &[]).await.0, StatusCode::OK);

    let (status, reset) = mesh.post("/calendar/feed", Some(&client.token), json!({})).await;

    assert_eq!(status, StatusCode::OK, "{reset}");
    let new_url = reset["url"].as_str().expect("the new address");
    assert_ne!(new_url, old_url);
    let (status, _, body) = fetch(&mesh, &old_path, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let detail: Value = serde_json::from_str(&body).expect("a JSON error");
    assert!(
        detail["detail"].as_str().unwrap().contains("dashboard"),
        "{detail}"
    );
    let (status, shown) = mesh.get("/calendar/feed", Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(shown["url"], Value::Null, "shown once: only its hash is kept");
    let new_path = new_url.strip_prefix(&format!("{PUBLIC_URL}/api")).unwrap();
    assert_eq!(fetch(&mesh, new_path, &[]).await.0, StatusCode::OK);
}

#[tokio::test]
async fn signing_out_everywhere_gives_the_feed_a_new_address_and_the_old_one_answers_404() {
    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (old_url, old_path) = feed_address(&mesh, &client).await;
    assert_eq!(fetch(&mesh, &old_path, &[]).await.0, StatusCode::OK);

    let (status, body) = mesh
        .call(Method::POST, "/auth/logout-all", Some(&client.token), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    assert_eq!(fetch(&mesh, &old_path, &[]).await.0, StatusCode::NOT_FOUND);
    let (status, fresh) = mesh.get("/calendar/feed", Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK, "{fresh}");
    let new_url = fresh["url"].as_str().expect("a new address, shown as it is made");
    assert_ne!(new_url, old_url);
}

#[tokio::test]
async fn an_address_nobody_was_given_is_404_whatever_its_shape() {
    let mesh = Mesh::start().await;

    for path in [
        "/calendar/Vx2V0F6n4yJ1bq9Hc0wYt3ZpR8sLmN5aQeK7uDfGhIj.ics",
        "/calendar/short.ics",
        "/calendar/Vx2V0F6n4yJ1bq9Hc0wYt3ZpR8sLmN5aQeK7uDfGhIj",
        "/calendar/%27%20or%201=1.ics",
    ] {
        let (status, _, body) = fetch(&mesh, path, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        let error: Value = serde_json::from_str(&body).expect("a JSON error");
        assert!(error["detail"].is_string(), "{body}");
    }
}

#[tokio::test]
async fn an_unchanged_feed_is_a_304_for_its_etag_and_is_kept_private() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (_, path) = feed_address(&mesh, &client).await;
    let (_, first, _) = fetch(&mesh, &path, &[]).await;
    let etag = first[header::ETAG].to_str().unwrap().to_owned();

    let (unchanged, headers, body) = fetch(&mesh, &path, &[(header::IF_NONE_MATCH, &etag)]).await;
    book(&mesh, &client, &coach, &slot_id, &next(Weekday::Wed).to_string()).await;
    let (changed, _, _) = fetch(&mesh, &path, &[(header::IF_NONE_MATCH, &etag)]).await;

    assert_eq!(unchanged, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(headers[header::ETAG], etag.as_str());
    assert_eq!(first[header::CACHE_CONTROL], "private, max-age=300");
    assert_eq!(first["x-robots-tag"], "noindex, nofollow");
    assert_eq!(changed, StatusCode::OK, "a new booking changes the feed");
}

#[tokio::test]
async fn a_feed_fetched_too_often_is_429_with_retry_after() {
    let mesh = Mesh::start_with(|config| config.calendar_rate_limit_per_minute = 2).await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (_, path) = feed_address(&mesh, &client).await;

    let first = fetch(&mesh, &path, &[]).await.0;
    let second = fetch(&mesh, &path, &[]).await.0;
    let (third, headers, body) = fetch(&mesh, &path, &[]).await;

    assert_eq!((first, second), (StatusCode::OK, StatusCode::OK));
    // The minute window may turn between two fetches; then the third is counted afresh.
    if third != StatusCode::OK {
        assert_eq!(third, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert!(headers.contains_key(header::RETRY_AFTER));
    }
    let other = user(&mesh, "client", "Olga Other").await;
    let (_, other_path) = feed_address(&mesh, &other).await;
    assert_eq!(
        fetch(&mesh, &other_path, &[]).await.0,
        StatusCode::OK,
        "each feed has its own count"
    );
}

#[tokio::test]
async fn a_bookings_ics_is_for_its_client_and_coach_and_404_for_anyone_else() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let date = next(Weekday::Wed).to_string();
    let booking_id = book(&mesh, &client, &coach, &slot_id, &date).await;
    let other_client = user(&mesh, "client", "Olga Other").await;
    let (other_coach, _) = coach_with_slot(&mesh, "Otto Other").await;
    let path = format!("/bookings/{booking_id}/ics");

    let for_client = mesh
        .raw(Method::GET, &path, Some(&client.token), None, Vec::new())
        .await;
    let client_text = mesh
        .http
        .get(mesh.url(&path))
        .bearer_auth(&client.token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let coach_text = mesh
        .http
        .get(mesh.url(&path))
        .bearer_auth(&coach.token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();

    assert_eq!(for_client.status, StatusCode::OK);
    assert_eq!(
        for_client.headers[header::CONTENT_TYPE],
        "text/calendar; charset=utf-8"
    );
    assert_eq!(
        for_client.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"courtside-session-{date}.ics\"").as_str()
    );
    let calendar = parse(&client_text);
    assert_eq!(calendar.events.len(), 1);
    let event = &calendar.events[0];
    assert_eq!(event.get("UID"), booking_uid(&booking_id), "the feed's UID");
    assert_eq!(event.get("SUMMARY"), "Coaching session with Carla Coach");
    assert_eq!(event.get("STATUS"), "TENTATIVE");
    let coachs = parse(&coach_text);
    assert_eq!(
        coachs.events[0].get("SUMMARY"),
        "Coaching session with Chris Client"
    );

    for stranger in [&other_client, &other_coach] {
        let (status, body) = mesh.get(&path, Some(&stranger.token)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{}: {body}", stranger.name);
        assert!(body["detail"].is_string(), "{body}");
    }
    let (status, _) = mesh.get(&path, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = mesh
        .get(
            &format!("/bookings/{}/ics", uuid::Uuid::new_v4()),
            Some(&client.token),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
