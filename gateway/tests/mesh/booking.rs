//! Bookings over HTTP: a client books a coach's slot, the coach approves or denies, the client
//! cancels; nobody else can move someone's booking; a taken slot is a conflict.

use chrono::Weekday;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, coach_with_slot, next, user},
    helpers::Mesh,
};

/// A Wednesday at least two weeks ahead: it fits the fixture's recurring Wednesday slot.
fn wednesday() -> String {
    next(Weekday::Wed).to_string()
}

async fn book(mesh: &Mesh, client: &User, coach: &User, slot_id: &str, date: &str) -> (StatusCode, Value) {
    mesh.post(
        "/bookings",
        Some(&client.token),
        json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date}),
    )
    .await
}

async fn patch(mesh: &Mesh, path: &str, who: &User) -> (StatusCode, Value) {
    mesh.call(Method::PATCH, path, Some(&who.token), None).await
}

/// The one booking `who` sees.
async fn only_booking(mesh: &Mesh, who: &User) -> Value {
    let (status, list) = mesh.get("/bookings", Some(&who.token)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let list = list.as_array().expect("a list");
    assert_eq!(list.len(), 1, "{list:?}");
    list[0].clone()
}

#[tokio::test]
async fn a_client_books_the_coach_approves_and_the_client_cancels() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let date = wednesday();

    let (status, booked) = book(&mesh, &client, &coach, &slot_id, &date).await;
    assert_eq!(status, StatusCode::CREATED, "{booked}");
    let booking_id = booked["booking_id"].as_str().unwrap().to_owned();
    // The fixture's coach coaches for free: nothing to hold (the money is in payments.rs).
    assert_eq!(
        (
            &booked["status"],
            &booked["payment_status"],
            &booked["price_cents"]
        ),
        (&json!("pending"), &json!("none"), &json!(0))
    );
    assert_eq!(booked["booking_date"], date.as_str());
    assert_eq!(
        (&booked["start_time"], &booked["end_time"]),
        (&json!("17:00"), &json!("18:00"))
    );
    assert_eq!(booked["location_name"], "Austin Rec Center");
    assert_eq!(
        (&booked["coach_name"], &booked["client_name"]),
        (&json!("Carla Coach"), &json!("Chris Client"))
    );

    let seen_by_client = only_booking(&mesh, &client).await;
    assert_eq!(seen_by_client["booking_id"], booking_id.as_str());
    assert_eq!(seen_by_client["coach_name"], "Carla Coach");
    let seen_by_coach = only_booking(&mesh, &coach).await;
    assert_eq!(seen_by_coach["client_name"], "Chris Client");
    assert_eq!(seen_by_coach["status"], "pending");

    let (status, approved) = patch(&mesh, &format!("/coach/bookings/{booking_id}/approve"), &coach).await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    assert_eq!(approved["status"], "confirmed");
    assert_eq!(only_booking(&mesh, &client).await["status"], "confirmed");

    let (status, cancelled) = patch(&mesh, &format!("/bookings/{booking_id}/cancel"), &client).await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled");
    assert_eq!(cancelled["coach_name"], "Carla Coach");
    assert_eq!(only_booking(&mesh, &coach).await["status"], "cancelled");
}

#[tokio::test]
async fn a_coach_denies_a_pending_booking_and_the_client_sees_it_denied() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let (_, booked) = book(&mesh, &client, &coach, &slot_id, &wednesday()).await;
    let booking_id = booked["booking_id"].as_str().unwrap();

    let (status, denied) = patch(&mesh, &format!("/coach/bookings/{booking_id}/deny"), &coach).await;

    assert_eq!(status, StatusCode::OK, "{denied}");
    assert_eq!(denied["status"], "denied");
    assert_eq!(denied["client_name"], "Chris Client");
    assert_eq!(only_booking(&mesh, &client).await["status"], "denied");
    let (status, body) = patch(&mesh, &format!("/coach/bookings/{booking_id}/approve"), &coach).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a denied booking cannot be approved: {body}"
    );
}

#[tokio::test]
async fn a_second_booking_of_a_taken_slot_and_date_is_a_conflict_that_says_so() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let first = user(&mesh, "client", "First Fay").await;
    let second = user(&mesh, "client", "Second Sam").await;
    let date = wednesday();
    let (status, _) = book(&mesh, &first, &coach, &slot_id, &date).await;
    assert_eq!(status, StatusCode::CREATED);

    let (status, body) = book(&mesh, &second, &coach, &slot_id, &date).await;

    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let detail = body["detail"].as_str().unwrap().to_lowercase();
    assert!(detail.contains("already booked"), "{detail}");
    let (_, theirs) = mesh.get("/bookings", Some(&second.token)).await;
    assert_eq!(theirs, json!([]));
}

#[tokio::test]
async fn another_client_cannot_cancel_and_another_coach_cannot_approve_or_deny() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let (other_coach, _) = coach_with_slot(&mesh, "Other Otto").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let other_client = user(&mesh, "client", "Other Olga").await;
    let (_, booked) = book(&mesh, &client, &coach, &slot_id, &wednesday()).await;
    let booking_id = booked["booking_id"].as_str().unwrap();

    let attempts = [
        (format!("/bookings/{booking_id}/cancel"), &other_client),
        (format!("/coach/bookings/{booking_id}/approve"), &other_coach),
        (format!("/coach/bookings/{booking_id}/deny"), &other_coach),
    ];
    for (path, who) in attempts {
        let (status, body) = patch(&mesh, &path, who).await;
        assert!(
            matches!(status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND),
            "{path} by {}: {status} {body}",
            who.name
        );
        assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()));
    }
    // Wrong role altogether: the coach of the booking cannot cancel it as a client would.
    let (status, _) = patch(&mesh, &format!("/bookings/{booking_id}/cancel"), &coach).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let unchanged = only_booking(&mesh, &client).await;
    assert_eq!(unchanged["status"], "pending");
    let (_, others) = mesh.get("/bookings", Some(&other_client.token)).await;
    assert_eq!(others, json!([]), "another client sees none of it");
}

#[tokio::test]
async fn a_gym_or_an_admin_cannot_list_bookings_and_a_coach_cannot_book() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let gym = user(&mesh, "gym", "Gym Gloria").await;
    let admin = mesh.admin().await;

    let (status, body) = mesh.get("/bookings", Some(&gym.token)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body["detail"].as_str().is_some());
    let (status, _) = mesh.get("/bookings", Some(&admin)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = book(&mesh, &coach, &coach, &slot_id, &wednesday()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_booking_that_does_not_fit_its_slot_is_refused_with_a_detail() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Carla Coach").await;
    let (other_coach, _) = coach_with_slot(&mesh, "Other Otto").await;
    let client = user(&mesh, "client", "Chris Client").await;
    let thursday = next(Weekday::Thu).to_string();

    let cases = [
        (
            &coach,
            slot_id.as_str(),
            thursday.as_str(),
            "a Thursday for a Wednesday slot",
        ),
        (&other_coach, slot_id.as_str(), "", "the slot of another coach"),
        (&coach, slot_id.as_str(), "2020-01-01", "a date in the past"),
        (&coach, slot_id.as_str(), "next week", "no date at all"),
        (&coach, "not-a-uuid", "", "a malformed slot id"),
    ];
    for (whose, slot, date, why) in cases {
        let date = if date.is_empty() {
            wednesday()
        } else {
            date.to_owned()
        };
        let (status, body) = book(&mesh, &client, whose, slot, &date).await;
        assert!(status.is_client_error(), "{why}: {status} {body}");
        assert!(
            body["detail"].as_str().is_some_and(|d| !d.is_empty()),
            "{why}: {body}"
        );
    }
    let (status, body) = mesh
        .post("/bookings", Some(&client.token), json!({"coach_id": coach.id}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "missing fields: {body}");
    let (_, none) = mesh.get("/bookings", Some(&client.token)).await;
    assert_eq!(none, json!([]));
}

/// The pages of `path` a client walks through by following each `Link: rel="next"`: each page's
/// booking ids, until a page has no link.
async fn walk_pages(mesh: &Mesh, who: &User, path: &str) -> Vec<Vec<String>> {
    let mut pages = Vec::new();
    let mut next = Some(path.to_owned());
    while let Some(path) = next.take() {
        let answer = mesh
            .raw(Method::GET, &path, Some(&who.token), None, Vec::<u8>::new())
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.body);
        let ids = answer.body.as_array().expect("a page is a list").iter();
        pages.push(
            ids.map(|b| b["booking_id"].as_str().unwrap().to_owned())
                .collect(),
        );
        next = answer.headers.get("link").map(|link| {
            let link = link.to_str().unwrap();
            assert!(link.ends_with(">; rel=\"next\""), "{link}");
            link[1..link.find('>').unwrap()]
                .trim_start_matches("/api")
                .to_owned()
        });
        assert!(pages.len() <= 10, "the pages never end");
    }
    pages
}

#[tokio::test]
async fn bookings_come_in_disjoint_pages_in_the_whole_list_s_order_and_a_foreign_cursor_is_a_400() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Paula Pages").await;
    let client = user(&mesh, "client", "Pat Pages").await;
    let first = next(Weekday::Wed);
    for week in 0..5 {
        let date = (first + chrono::Days::new(7 * week)).to_string();
        let (status, body) = book(&mesh, &client, &coach, &slot_id, &date).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (_, whole) = mesh.get("/bookings", Some(&client.token)).await;
    let whole: Vec<String> = whole
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["booking_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(whole.len(), 5, "without a limit the list is whole");

    for who in [&client, &coach] {
        let pages = walk_pages(&mesh, who, "/bookings?limit=2").await;
        assert_eq!(
            pages.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![2, 2, 1],
            "pages of two, the last shorter and without a link"
        );
        assert_eq!(
            pages.concat(),
            whole,
            "the pages are the whole list, in order, nothing twice"
        );
    }

    // A booking made while someone pages (earlier than every row shown) shifts nothing later.
    let first_page = mesh
        .raw(
            Method::GET,
            "/bookings?limit=2",
            Some(&client.token),
            None,
            Vec::<u8>::new(),
        )
        .await;
    let link = first_page.headers["link"].to_str().unwrap().to_owned();
    let second_path = link[1..link.find('>').unwrap()]
        .trim_start_matches("/api")
        .to_owned();
    let (other_coach, other_slot) = coach_with_slot(&mesh, "Earlier Coach").await;
    let earlier = (first - chrono::Days::new(7)).to_string();
    let (status, body) = book(&mesh, &client, &other_coach, &other_slot, &earlier).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, second) = mesh.get(&second_path, Some(&client.token)).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    let second: Vec<&str> = second
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["booking_id"].as_str().unwrap())
        .collect();
    assert_eq!(second, [whole[2].as_str(), whole[3].as_str()]);

    // The coach's cursor is not the client's; made-up cursors and limits are refused.
    let cursor = second_path.split("cursor=").nth(1).unwrap();
    for (path, who) in [
        (format!("/bookings?limit=2&cursor={cursor}"), &coach),
        ("/bookings?limit=2&cursor=bm90LWEtY3Vyc29y".to_owned(), &client),
        ("/bookings?limit=0".to_owned(), &client),
        ("/bookings?limit=101".to_owned(), &client),
    ] {
        let (status, body) = mesh.get(&path, Some(&who.token)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert!(body["detail"].as_str().is_some_and(|d| !d.is_empty()), "{body}");
    }
}
