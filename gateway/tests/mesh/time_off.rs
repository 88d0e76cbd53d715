//! Calendar control over HTTP (issue 17): a coach's time off (its conflicts named, its dates
//! refused with a detail), the bookable calendar agreeing with `POST /bookings`, and rescheduling.

use chrono::{Days, NaiveDate, Weekday};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    coaching::{User, coach_with_slot, next, user},
    gym::{gym_with_court_time, request, request_court},
    helpers::Mesh,
};

async fn book(
    mesh: &Mesh,
    client: &User,
    coach: &User,
    slot_id: &str,
    date: NaiveDate,
) -> (StatusCode, Value) {
    mesh.post(
        "/bookings",
        Some(&client.token),
        json!({"coach_id": coach.id, "slot_id": slot_id, "booking_date": date.to_string()}),
    )
    .await
}

async fn take_time_off(
    mesh: &Mesh,
    coach: &User,
    start: NaiveDate,
    end: NaiveDate,
    reason: &str,
) -> (StatusCode, Value) {
    mesh.post(
        "/coach/exceptions",
        Some(&coach.token),
        json!({"start_date": start.to_string(), "end_date": end.to_string(), "reason": reason}),
    )
    .await
}

async fn calendar(
    mesh: &Mesh,
    who: &User,
    coach: &User,
    from: NaiveDate,
    to: NaiveDate,
) -> (StatusCode, Value) {
    mesh.get(
        &format!("/availability/coach/{}/calendar?from={from}&to={to}", coach.id),
        Some(&who.token),
    )
    .await
}

fn detail(body: &Value) -> &str {
    body["detail"]
        .as_str()
        .unwrap_or_else(|| panic!("a detail in {body}"))
}

#[tokio::test]
async fn a_coach_takes_time_off_sees_the_bookings_it_meets_and_its_dates_are_refused_until_removed() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Tia Timeoff").await;
    let client = user(&mesh, "client", "Cal Client").await;
    let wednesday = next(Weekday::Wed);
    let (status, held) = book(&mesh, &client, &coach, &slot_id, wednesday).await;
    assert_eq!(status, StatusCode::CREATED, "{held}");

    let (status, off) = take_time_off(&mesh, &coach, wednesday, wednesday + Days::new(7), "Tournament").await;
    assert_eq!(status, StatusCode::CREATED, "{off}");
    assert_eq!(off["reason"], "Tournament");
    assert_eq!(
        off["conflicts"],
        json!([held["booking_id"]]),
        "the booking is named, not cancelled"
    );
    let (_, bookings) = mesh.get("/bookings", Some(&client.token)).await;
    assert_eq!(bookings[0]["status"], "pending");

    let (status, list) = mesh.get("/coach/exceptions", Some(&coach.token)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list, json!([off]));

    let (status, refused) = book(&mesh, &client, &coach, &slot_id, wednesday + Days::new(7)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(detail(&refused).contains("the coach is away"), "{refused}");

    let exception_id = off["exception_id"].as_str().unwrap();
    let (status, _) = mesh
        .call(
            Method::DELETE,
            &format!("/coach/exceptions/{exception_id}"),
            Some(&coach.token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, booked) = book(&mesh, &client, &coach, &slot_id, wednesday + Days::new(7)).await;
    assert_eq!(status, StatusCode::CREATED, "{booked}");
}

#[tokio::test]
async fn time_off_is_the_coach_s_own_and_bad_ranges_are_refused_with_a_detail() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_slot(&mesh, "Owen Owner").await;
    let other = user(&mesh, "coach", "Oscar Other").await;
    let client = user(&mesh, "client", "Cleo Client").await;
    let day = next(Weekday::Mon);

    let (status, reversed) = take_time_off(&mesh, &coach, day, day - Days::new(1), "").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reversed}");
    assert!(
        detail(&reversed).contains("end_date must not be before start_date"),
        "{reversed}"
    );
    let past = chrono::Utc::now().date_naive() - Days::new(3);
    let (status, ended) = take_time_off(&mesh, &coach, past, past, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{ended}");
    assert!(detail(&ended).contains("in the past"), "{ended}");
    let (status, _) = take_time_off(&mesh, &client, day, day, "").await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let (_, off) = take_time_off(&mesh, &coach, day, day, "").await;
    assert_eq!(off["reason"], Value::Null, "a blank reason is none");
    let path = format!("/coach/exceptions/{}", off["exception_id"].as_str().unwrap());
    let (status, body) = mesh.call(Method::DELETE, &path, Some(&other.token), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (_, theirs) = mesh.get("/coach/exceptions", Some(&other.token)).await;
    assert_eq!(theirs, json!([]));
}

#[tokio::test]
async fn the_calendar_says_which_dates_are_bookable_and_booking_agrees() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Cora Calendar").await;
    let client = user(&mesh, "client", "Cy Client").await;
    let first = next(Weekday::Wed);
    book(&mesh, &client, &coach, &slot_id, first).await;
    take_time_off(&mesh, &coach, first + Days::new(7), first + Days::new(7), "").await;

    let (status, days) = calendar(&mesh, &client, &coach, first, first + Days::new(14)).await;

    assert_eq!(status, StatusCode::OK, "{days}");
    let days = days.as_array().unwrap();
    let reasons: Vec<_> = days
        .iter()
        .map(|d| (d["date"].clone(), d["reason"].clone()))
        .collect();
    assert_eq!(
        reasons,
        vec![
            (json!(first.to_string()), json!("booked")),
            (json!((first + Days::new(7)).to_string()), json!("time_off")),
            (json!((first + Days::new(14)).to_string()), Value::Null),
        ]
    );
    let free = &days[2];
    assert_eq!(free["bookable"], true);
    assert_eq!(free["slot_id"], slot_id.as_str());
    assert_eq!(
        (&free["start_time"], &free["end_time"]),
        (&json!("17:00"), &json!("18:00"))
    );
    assert_eq!(free["time_zone"], "America/Chicago");
    assert_eq!(free["location_name"], "Austin Rec Center");
    for day in days {
        let date: NaiveDate = day["date"].as_str().unwrap().parse().unwrap();
        let (status, body) = book(
            &mesh,
            &user(&mesh, "client", "Another").await,
            &coach,
            &slot_id,
            date,
        )
        .await;
        let accepted = status == StatusCode::CREATED;
        assert_eq!(accepted, day["bookable"] == true, "{date}: {status} {body}");
    }
}

#[tokio::test]
async fn a_calendar_needs_a_range_of_at_most_62_days_and_a_signed_in_caller() {
    let mesh = Mesh::start().await;
    let (coach, _) = coach_with_slot(&mesh, "Rae Range").await;
    let day = next(Weekday::Mon);

    let (status, body) = calendar(&mesh, &coach, &coach, day, day + Days::new(62)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(detail(&body).contains("at most 62 days"), "{body}");
    let (status, body) = mesh
        .get(
            &format!("/availability/coach/{}/calendar", coach.id),
            Some(&coach.token),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    detail(&body);
    let path = format!("/availability/coach/{}/calendar?from={day}&to={day}", coach.id);
    let (status, _) = mesh.get(&path, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

async fn reschedule(
    mesh: &Mesh,
    client: &User,
    booking_id: &str,
    slot_id: &str,
    date: NaiveDate,
) -> (StatusCode, Value) {
    mesh.post(
        &format!("/bookings/{booking_id}/reschedule"),
        Some(&client.token),
        json!({"slot_id": slot_id, "booking_date": date.to_string()}),
    )
    .await
}

/// The booking with `id` among those `who` sees.
async fn seen(mesh: &Mesh, who: &User, id: &str) -> Value {
    let (status, list) = mesh.get("/bookings", Some(&who.token)).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array()
        .unwrap()
        .iter()
        .find(|b| b["booking_id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} in {list}"))
}

#[tokio::test]
async fn a_client_moves_a_booking_to_another_date_and_both_sides_see_the_link() {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Mo Mover").await;
    let client = user(&mesh, "client", "Rita Rescheduler").await;
    let first = next(Weekday::Wed);
    let (_, old) = book(&mesh, &client, &coach, &slot_id, first).await;
    let old_id = old["booking_id"].as_str().unwrap();
    assert_eq!(
        (&old["rescheduled_from"], &old["rescheduled_to"]),
        (&Value::Null, &Value::Null)
    );

    let (status, new) = reschedule(&mesh, &client, old_id, &slot_id, first + Days::new(7)).await;

    assert_eq!(status, StatusCode::CREATED, "{new}");
    assert_eq!(new["status"], "pending");
    assert_eq!(new["booking_date"], (first + Days::new(7)).to_string());
    assert_eq!(new["rescheduled_from"], old_id);
    assert_eq!(new["coach_name"], "Mo Mover");
    let old = seen(&mesh, &coach, old_id).await;
    assert_eq!(
        (&old["status"], &old["cancelled_by"]),
        (&json!("cancelled"), &json!("client"))
    );
    assert_eq!(old["rescheduled_to"], new["booking_id"]);

    let (status, again) = reschedule(&mesh, &client, old_id, &slot_id, first + Days::new(14)).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a cancelled booking cannot move: {again}"
    );
    detail(&again);
    let (status, _) = reschedule(
        &mesh,
        &coach,
        new["booking_id"].as_str().unwrap(),
        &slot_id,
        first,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "only the client reschedules");
}

#[tokio::test]
async fn a_reschedule_racing_a_booking_of_the_same_target_has_one_winner_and_the_loser_s_booking_is_untouched()
 {
    let mesh = Mesh::start().await;
    let (coach, slot_id) = coach_with_slot(&mesh, "Rex Race").await;
    let first = next(Weekday::Wed);
    for round in 0..4u64 {
        let (mover, rival) = (
            user(&mesh, "client", "Mia Mover").await,
            user(&mesh, "client", "Ray Rival").await,
        );
        let (_, old) = book(
            &mesh,
            &mover,
            &coach,
            &slot_id,
            first + Days::new(7 * (2 * round)),
        )
        .await;
        let old_id = old["booking_id"].as_str().unwrap();
        let target = first + Days::new(7 * (2 * round + 1));

        let ((moved, moved_body), (booked, booked_body)) = tokio::join!(
            reschedule(&mesh, &mover, old_id, &slot_id, target),
            book(&mesh, &rival, &coach, &slot_id, target),
        );

        let winners = [moved, booked]
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count();
        assert_eq!(
            winners, 1,
            "round {round}: {moved} {moved_body} / {booked} {booked_body}"
        );
        let loser = if moved == StatusCode::CREATED {
            (booked, &booked_body)
        } else {
            (moved, &moved_body)
        };
        assert_eq!(loser.0, StatusCode::CONFLICT, "{}", loser.1);
        detail(loser.1);
        let old = seen(&mesh, &mover, old_id).await;
        if moved == StatusCode::CREATED {
            assert_eq!(old["status"], "cancelled");
            assert_eq!(old["rescheduled_to"], moved_body["booking_id"]);
        } else {
            assert_eq!(old["status"], "pending", "the loser's old booking is untouched");
            assert_eq!(old["rescheduled_to"], Value::Null);
            let (_, mine) = mesh.get("/bookings", Some(&mover.token)).await;
            assert_eq!(
                mine.as_array().unwrap().len(),
                1,
                "no new booking of the loser: {mine}"
            );
        }
    }
}

#[tokio::test]
async fn a_gym_closure_declines_pending_requests_with_its_reason_and_hides_the_court_time() {
    let mesh = Mesh::start().await;
    let court = gym_with_court_time(&mesh, "Closed Courts").await;
    let coach = user(&mesh, "coach", "Cody Court").await;
    let pending = request_court(&mesh, &coach, &court.availability_id).await;

    let closures = format!("/gym/locations/{}/closures", court.location_id);
    let (status, closure) = mesh
        .post(
            &closures,
            Some(&court.gym.token),
            json!({"start_date": court.date, "end_date": court.date, "reason": "Tournament"}),
        )
        .await;

    assert_eq!(status, StatusCode::CREATED, "{closure}");
    assert_eq!(closure["denied_reservations"], json!([pending["reservation_id"]]));
    let (_, mine) = mesh.get("/coach/court-reservations", Some(&coach.token)).await;
    assert_eq!(mine[0]["status"], "denied");
    assert_eq!(
        mine[0]["cancellation_reason"],
        format!("this location is closed on {} (Tournament)", court.date)
    );
    let open = format!("/gym/locations/{}/availability", court.location_id);
    let (_, offered) = mesh.get(&open, Some(&coach.token)).await;
    assert_eq!(offered, json!([]), "closed court time is not offered");
    let other = user(&mesh, "coach", "Olive Other").await;
    let (status, refused) = request(&mesh, &other, &court.availability_id).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(detail(&refused).contains("closed"), "{refused}");

    let (_, listed) = mesh.get(&closures, Some(&court.gym.token)).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);
    let (status, _) = mesh.get(&closures, Some(&coach.token)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let path = format!("/gym/closures/{}", closure["closure_id"].as_str().unwrap());
    let (status, _) = mesh
        .call(Method::DELETE, &path, Some(&court.gym.token), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    request_court(&mesh, &other, &court.availability_id).await;
}
