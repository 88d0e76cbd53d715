//! Court availability: a gym offers time on its own courts, never overlapping, never in the past;
//! coaches see what is still open at a location.

use tonic::Code;

use crate::helpers::{TestApp, days_ago, in_days, today};

#[tokio::test]
async fn a_gym_sees_its_court_time_by_date_and_time_with_names() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let court = &setup.court.court_id;
    let later = app.offer(&setup.gym, court, &in_days(2), "09:00", "10:00").await;
    let afternoon = app.offer(&setup.gym, court, &in_days(1), "15:00", "16:30").await;
    let morning = app.offer(&setup.gym, court, &in_days(1), "08:00", "09:00").await;

    let listed = app.gym_availability(&setup.gym).await;

    assert_eq!(listed, vec![morning.clone(), afternoon, later]);
    assert_eq!(morning.location_name, "Downtown");
    assert_eq!(morning.court_name, "Court 1");
    assert_eq!(morning.location_id, setup.location.location_id);
    assert_eq!(
        (morning.start_time.as_str(), morning.end_time.as_str()),
        ("08:00", "09:00")
    );
    assert!(!morning.is_reserved);
}

#[tokio::test]
async fn a_gym_does_not_see_another_gyms_court_time() {
    let app = TestApp::spawn().await;
    let mine = app.gym_with_court("Hoops Arena").await;
    let theirs = app.gym_with_court("Net Gains").await;
    app.offer(&theirs.gym, &theirs.court.court_id, &in_days(1), "08:00", "09:00")
        .await;

    assert!(app.gym_availability(&mine.gym).await.is_empty());
}

#[tokio::test]
async fn overlapping_time_on_one_court_is_refused() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let court = &setup.court.court_id;
    app.offer(&setup.gym, court, &in_days(3), "10:00", "11:00").await;

    let error = app
        .try_offer(&setup.gym, court, &in_days(3), "10:30", "11:30")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::AlreadyExists);
    assert_eq!(
        error.message(),
        "this court already has availability overlapping that time"
    );
    assert_eq!(app.gym_availability(&setup.gym).await.len(), 1);
}

#[tokio::test]
async fn time_inside_an_existing_offer_is_refused() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let court = &setup.court.court_id;
    app.offer(&setup.gym, court, &in_days(3), "09:00", "12:00").await;

    let error = app
        .try_offer(&setup.gym, court, &in_days(3), "10:00", "11:00")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::AlreadyExists);
}

#[tokio::test]
async fn back_to_back_time_on_one_court_is_allowed() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let court = &setup.court.court_id;
    app.offer(&setup.gym, court, &in_days(3), "10:00", "11:00").await;

    let next = app
        .try_offer(&setup.gym, court, &in_days(3), "11:00", "12:00")
        .await;

    assert!(next.is_ok(), "{next:?}");
    assert_eq!(app.gym_availability(&setup.gym).await.len(), 2);
}

#[tokio::test]
async fn the_same_time_on_another_court_or_another_day_is_allowed() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let second = app
        .create_court(&setup.gym, &setup.location.location_id, "Court 2")
        .await;
    app.offer(&setup.gym, &setup.court.court_id, &in_days(3), "10:00", "11:00")
        .await;

    let other_court = app
        .try_offer(&setup.gym, &second.court_id, &in_days(3), "10:00", "11:00")
        .await;
    let other_day = app
        .try_offer(&setup.gym, &setup.court.court_id, &in_days(4), "10:00", "11:00")
        .await;

    assert!(other_court.is_ok(), "{other_court:?}");
    assert!(other_day.is_ok(), "{other_day:?}");
}

#[tokio::test]
async fn court_time_must_end_after_it_starts() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;

    let error = app
        .try_offer(&setup.gym, &setup.court.court_id, &in_days(1), "11:00", "10:00")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::InvalidArgument);
    assert_eq!(error.message(), "end_time must be after start_time");
}

#[tokio::test]
async fn court_time_in_the_past_is_refused_but_today_is_accepted() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let court = &setup.court.court_id;

    let past = app
        .try_offer(&setup.gym, court, &days_ago(1), "10:00", "11:00")
        .await
        .unwrap_err();
    let today = app
        .try_offer(
            &setup.gym,
            court,
            &today().format("%Y-%m-%d").to_string(),
            "10:00",
            "11:00",
        )
        .await;

    assert_eq!(past.code(), Code::FailedPrecondition);
    assert!(past.message().contains("is in the past"), "{}", past.message());
    assert!(today.is_ok(), "{today:?}");
}

#[tokio::test]
async fn malformed_dates_and_times_are_refused() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let court = &setup.court.court_id;

    let impossible = app
        .try_offer(&setup.gym, court, "2099-02-30", "10:00", "11:00")
        .await
        .unwrap_err();
    let shapeless = app
        .try_offer(&setup.gym, court, "next friday", "10:00", "11:00")
        .await
        .unwrap_err();
    let bad_time = app
        .try_offer(&setup.gym, court, &in_days(1), "25:00", "26:00")
        .await
        .unwrap_err();

    assert_eq!(impossible.code(), Code::InvalidArgument);
    assert_eq!(
        impossible.message(),
        "date 2099-02-30 is not a date on the calendar"
    );
    assert_eq!(shapeless.message(), "date must be a date as YYYY-MM-DD");
    assert_eq!(bad_time.message(), "start_time must be a time as HH:MM (24-hour)");
}

#[tokio::test]
async fn another_gym_cannot_offer_time_on_a_court() {
    let app = TestApp::spawn().await;
    let owner = app.gym_with_court("Hoops Arena").await;
    let intruder = app.gym();

    let error = app
        .try_offer(&intruder, &owner.court.court_id, &in_days(1), "10:00", "11:00")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
    assert!(app.gym_availability(&owner.gym).await.is_empty());
}

#[tokio::test]
async fn a_coach_cannot_offer_court_time() {
    let app = TestApp::spawn().await;
    let owner = app.gym_with_court("Hoops Arena").await;
    let coach = app.coach();

    let error = app
        .try_offer(&coach, &owner.court.court_id, &in_days(1), "10:00", "11:00")
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::PermissionDenied);
}

#[tokio::test]
async fn offering_time_on_an_unknown_court_is_not_found() {
    let app = TestApp::spawn().await;
    let gym = app.gym();

    let error = app
        .try_offer(
            &gym,
            &uuid::Uuid::new_v4().to_string(),
            &in_days(1),
            "10:00",
            "11:00",
        )
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
    assert_eq!(error.message(), "this court does not exist");
}

#[tokio::test]
async fn coaches_see_only_open_court_time_from_today_on_in_order() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let court = &setup.court.court_id;
    let second = app.offer(&setup.gym, court, &in_days(2), "08:00", "09:00").await;
    let first = app.offer(&setup.gym, court, &in_days(1), "18:00", "19:00").await;
    let reserved = app.offer(&setup.gym, court, &in_days(1), "10:00", "11:00").await;
    let past = app.offer(&setup.gym, court, &in_days(1), "07:00", "08:00").await;
    let holder = app.coach();
    let request = app.request(&holder, &reserved.availability_id).await;
    app.approve(&setup.gym, &request.reservation_id).await.unwrap();
    app.move_to_date(&past.availability_id, &days_ago(1)).await;
    let coach = app.coach();

    let open = app
        .open_availability(&coach, &setup.location.location_id)
        .await
        .unwrap();

    let ids: Vec<_> = open.iter().map(|a| a.availability_id.as_str()).collect();
    assert_eq!(
        ids,
        vec![first.availability_id.as_str(), second.availability_id.as_str()]
    );
    assert_eq!(open[0].court_name, "Court 1");
    assert_eq!(open[0].location_name, "Downtown");
}

#[tokio::test]
async fn a_location_with_no_open_court_time_has_an_empty_list() {
    let app = TestApp::spawn().await;
    let setup = app.gym_with_court("Hoops Arena").await;
    let taken = app
        .offer(&setup.gym, &setup.court.court_id, &in_days(3), "10:00", "11:00")
        .await;
    let holder = app.coach();
    let request = app.request(&holder, &taken.availability_id).await;
    app.approve(&setup.gym, &request.reservation_id).await.unwrap();

    let open = app
        .open_availability(&app.coach(), &setup.location.location_id)
        .await
        .unwrap();

    assert!(open.is_empty(), "{open:?}");
}

#[tokio::test]
async fn open_court_time_of_an_unknown_location_is_not_found() {
    let app = TestApp::spawn().await;
    let coach = app.coach();

    let error = app
        .open_availability(&coach, &uuid::Uuid::new_v4().to_string())
        .await
        .unwrap_err();

    assert_eq!(error.code(), Code::NotFound);
}
