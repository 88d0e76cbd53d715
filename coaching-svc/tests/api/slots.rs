//! Availability slots: creating, listing, deleting, and the snapshot booking-svc reads.

use proto::coaching::v1 as pb;
use tonic::{Code, Request};

use crate::helpers::{TestApp, as_user, date_in, failure, location, one_time, recurring};

#[tokio::test]
async fn a_recurring_slot_is_stored_with_its_day_capitalised() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let slot = app
        .create_slot(&coach, recurring("wednesday", "09:00", "10:30"))
        .await
        .unwrap();

    assert_eq!(slot.slot_type, "recurring");
    assert_eq!(slot.day_of_week.as_deref(), Some("Wednesday"));
    assert_eq!(slot.specific_date, None);
    assert_eq!(
        (slot.start_time.as_str(), slot.end_time.as_str()),
        ("09:00", "10:30")
    );
    assert_eq!(app.slots_of(&app.client_user(), coach.id).await, vec![slot]);
}

#[tokio::test]
async fn a_one_time_slot_keeps_its_date_and_not_the_forms_default_day() {
    let app = TestApp::start().await;
    let date = date_in(7);

    let slot = app
        .create_slot(&app.coach(), one_time(&date, "18:00", "19:00"))
        .await
        .unwrap();

    assert_eq!(slot.slot_type, "one-time");
    assert_eq!(slot.specific_date.as_deref(), Some(date.as_str()));
    assert_eq!(slot.day_of_week, None);
}

#[tokio::test]
async fn a_one_time_slot_in_the_past_is_refused() {
    let app = TestApp::start().await;

    let result = app
        .create_slot(&app.coach(), one_time(&date_in(-2), "18:00", "19:00"))
        .await;

    assert_eq!(
        failure(result, Code::FailedPrecondition),
        "specific_date must not be in the past"
    );
}

#[tokio::test]
async fn a_one_time_slot_needs_a_real_date() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let missing = app
        .create_slot(
            &coach,
            pb::CreateSlotRequest {
                specific_date: None,
                ..one_time("", "18:00", "19:00")
            },
        )
        .await;
    let impossible = app
        .create_slot(&coach, one_time("2030-02-30", "18:00", "19:00"))
        .await;

    assert_eq!(
        failure(missing, Code::InvalidArgument),
        "specific_date is required for a one-time slot"
    );
    assert_eq!(
        failure(impossible, Code::InvalidArgument),
        "specific_date must be a real date as YYYY-MM-DD"
    );
}

#[tokio::test]
async fn a_recurring_slot_needs_a_day_from_monday_to_sunday() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let missing = app
        .create_slot(
            &coach,
            pb::CreateSlotRequest {
                day_of_week: None,
                ..recurring("", "09:00", "10:00")
            },
        )
        .await;
    let unknown = app
        .create_slot(&coach, recurring("Someday", "09:00", "10:00"))
        .await;

    assert_eq!(
        failure(missing, Code::InvalidArgument),
        "day_of_week is required for a recurring slot"
    );
    assert_eq!(
        failure(unknown, Code::InvalidArgument),
        "day_of_week must be a day from Monday to Sunday"
    );
}

#[tokio::test]
async fn a_slot_must_end_after_it_starts() {
    let app = TestApp::start().await;

    let result = app
        .create_slot(&app.coach(), recurring("Monday", "10:00", "09:00"))
        .await;

    assert_eq!(
        failure(result, Code::InvalidArgument),
        "end_time must be after start_time"
    );
}

#[tokio::test]
async fn an_unknown_slot_type_is_refused() {
    let app = TestApp::start().await;

    let result = app
        .create_slot(
            &app.coach(),
            pb::CreateSlotRequest {
                slot_type: "weekly".into(),
                ..recurring("Monday", "09:00", "10:00")
            },
        )
        .await;

    assert_eq!(
        failure(result, Code::InvalidArgument),
        "slot_type must be recurring or one-time"
    );
}

#[tokio::test]
async fn a_slot_can_be_at_the_coachs_own_location() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let gym = app
        .create_location(&coach, location("Eastside Rec", "Austin", "TX"))
        .await
        .unwrap();

    let slot = app
        .create_slot(
            &coach,
            pb::CreateSlotRequest {
                location_id: Some(gym.location_id.clone()),
                ..recurring("Friday", "17:00", "18:00")
            },
        )
        .await
        .unwrap();

    assert_eq!(slot.location_id, Some(gym.location_id));
}

#[tokio::test]
async fn a_slot_at_another_coachs_location_is_refused() {
    let app = TestApp::start().await;
    let (owner, other) = (app.coach(), app.coach());
    let gym = app
        .create_location(&owner, location("Owner's gym", "Austin", "TX"))
        .await
        .unwrap();

    let result = app
        .create_slot(
            &other,
            pb::CreateSlotRequest {
                location_id: Some(gym.location_id),
                ..recurring("Friday", "17:00", "18:00")
            },
        )
        .await;

    assert_eq!(
        failure(result, Code::InvalidArgument),
        "location_id must be one of your own locations"
    );
    assert!(app.slots_of(&other, other.id).await.is_empty());
}

#[tokio::test]
async fn slots_are_listed_weekly_ones_by_day_and_time_then_one_time_ones_by_date() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let (soon, later) = (date_in(3), date_in(10));
    for slot in [
        one_time(&later, "08:00", "09:00"),
        recurring("Sunday", "08:00", "09:00"),
        one_time(&soon, "12:00", "13:00"),
        recurring("Monday", "18:00", "19:00"),
        recurring("Monday", "07:00", "08:00"),
        recurring("Wednesday", "10:00", "11:00"),
    ] {
        app.create_slot(&coach, slot).await.unwrap();
    }

    let listed: Vec<String> = app
        .slots_of(&coach, coach.id)
        .await
        .into_iter()
        .map(|s| format!("{} {}", s.day_of_week.or(s.specific_date).unwrap(), s.start_time))
        .collect();

    assert_eq!(
        listed,
        vec![
            "Monday 07:00".to_owned(),
            "Monday 18:00".into(),
            "Wednesday 10:00".into(),
            "Sunday 08:00".into(),
            format!("{soon} 12:00"),
            format!("{later} 08:00"),
        ]
    );
}

#[tokio::test]
async fn a_coach_deletes_their_own_slot() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let slot = app
        .create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();

    app.api()
        .delete_slot(as_user(
            &coach,
            pb::DeleteSlotRequest {
                slot_id: slot.slot_id,
            },
        ))
        .await
        .unwrap();

    assert!(app.slots_of(&coach, coach.id).await.is_empty());
}

#[tokio::test]
async fn another_coach_cannot_delete_a_slot_and_it_stays() {
    let app = TestApp::start().await;
    let (owner, intruder) = (app.coach(), app.coach());
    let slot = app
        .create_slot(&owner, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();

    let result = app
        .api()
        .delete_slot(as_user(
            &intruder,
            pb::DeleteSlotRequest {
                slot_id: slot.slot_id.clone(),
            },
        ))
        .await;

    failure(result, Code::NotFound);
    assert_eq!(app.slots_of(&owner, owner.id).await, vec![slot]);
}

#[tokio::test]
async fn only_a_coach_can_add_or_delete_slots() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let slot = app
        .create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();
    let client = app.client_user();

    let create = app
        .create_slot(&client, recurring("Monday", "11:00", "12:00"))
        .await;
    let delete = app
        .api()
        .delete_slot(as_user(
            &client,
            pb::DeleteSlotRequest {
                slot_id: slot.slot_id.clone(),
            },
        ))
        .await;

    failure(create, Code::PermissionDenied);
    failure(delete, Code::PermissionDenied);
    assert_eq!(app.slots_of(&coach, coach.id).await, vec![slot]);
}

#[tokio::test]
async fn get_slot_answers_the_slot_with_its_location_name() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let gym = app
        .create_location(&coach, location("Eastside Rec", "Austin", "TX"))
        .await
        .unwrap();
    let slot = app
        .create_slot(
            &coach,
            pb::CreateSlotRequest {
                location_id: Some(gym.location_id),
                ..recurring("Friday", "17:00", "18:00")
            },
        )
        .await
        .unwrap();
    let bare = app
        .create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();

    let with_place = app
        .api()
        .get_slot(Request::new(pb::GetSlotRequest {
            slot_id: slot.slot_id.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    let without = app
        .api()
        .get_slot(Request::new(pb::GetSlotRequest {
            slot_id: bare.slot_id.clone(),
        }))
        .await
        .unwrap()
        .into_inner();

    assert_eq!(with_place.slot, Some(slot));
    assert_eq!(with_place.location_name.as_deref(), Some("Eastside Rec"));
    assert_eq!(without.slot, Some(bare));
    assert_eq!(without.location_name, None);
}

#[tokio::test]
async fn get_slot_of_an_unknown_slot_is_not_found() {
    let app = TestApp::start().await;

    let result = app
        .api()
        .get_slot(Request::new(pb::GetSlotRequest {
            slot_id: uuid::Uuid::new_v4().to_string(),
        }))
        .await;

    failure(result, Code::NotFound);
}
