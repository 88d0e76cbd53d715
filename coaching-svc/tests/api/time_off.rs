//! A coach's time off: saved, listed (own, soonest first), removed, refused when malformed, and
//! sent to booking-svc with the slot (GetSlot) and with the schedule.

use proto::coaching::v1 as pb;
use tonic::{Code, Request, Status};

use crate::helpers::{TestApp, User, as_user, date_in, failure, recurring};

async fn take(
    app: &TestApp,
    coach: &User,
    start: &str,
    end: &str,
    reason: Option<&str>,
) -> Result<pb::TimeOff, Status> {
    let request = pb::CreateTimeOffRequest {
        start_date: start.into(),
        end_date: end.into(),
        reason: reason.map(Into::into),
    };
    Ok(app
        .api()
        .create_time_off(as_user(coach, request))
        .await?
        .into_inner()
        .time_off
        .unwrap())
}

async fn list(app: &TestApp, coach: &User) -> Result<Vec<pb::TimeOff>, Status> {
    Ok(app
        .api()
        .list_my_time_off(as_user(coach, pb::ListMyTimeOffRequest {}))
        .await?
        .into_inner()
        .time_off)
}

async fn remove(app: &TestApp, coach: &User, time_off_id: &str) -> Result<(), Status> {
    let request = pb::DeleteTimeOffRequest {
        time_off_id: time_off_id.into(),
    };
    app.api().delete_time_off(as_user(coach, request)).await?;
    Ok(())
}

#[tokio::test]
async fn a_coach_s_time_off_is_listed_soonest_first_and_removed() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let later = take(&app, &coach, &date_in(30), &date_in(35), None)
        .await
        .unwrap();
    let sooner = take(&app, &coach, &date_in(3), &date_in(3), Some(" Tournament "))
        .await
        .unwrap();
    assert_eq!(sooner.reason.as_deref(), Some("Tournament"));
    assert_eq!(
        (sooner.start_date.as_str(), sooner.end_date.as_str()),
        (date_in(3).as_str(), date_in(3).as_str())
    );

    let listed = list(&app, &coach).await.unwrap();
    let ids: Vec<_> = listed.iter().map(|t| t.time_off_id.as_str()).collect();
    assert_eq!(ids, vec![sooner.time_off_id.as_str(), later.time_off_id.as_str()]);
    assert!(
        list(&app, &app.coach()).await.unwrap().is_empty(),
        "another coach's list is their own"
    );

    remove(&app, &coach, &sooner.time_off_id).await.unwrap();
    let ids: Vec<_> = list(&app, &coach)
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.time_off_id)
        .collect();
    assert_eq!(ids, vec![later.time_off_id]);
}

#[tokio::test]
async fn another_coach_s_time_off_cannot_be_removed_and_stays() {
    let app = TestApp::start().await;
    let (owner, other) = (app.coach(), app.coach());
    let off = take(&app, &owner, &date_in(5), &date_in(6), None).await.unwrap();

    let refused = remove(&app, &other, &off.time_off_id).await;
    assert_eq!(
        failure(refused, Code::NotFound),
        "you have no time off with this id"
    );
    assert_eq!(list(&app, &owner).await.unwrap().len(), 1);
}

#[tokio::test]
async fn malformed_reversed_and_past_ranges_are_refused_with_a_detail() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let reversed = take(&app, &coach, &date_in(6), &date_in(5), None).await;
    assert!(failure(reversed, Code::InvalidArgument).contains("must not be before start_date"));
    let past = take(&app, &coach, &date_in(-10), &date_in(-5), None).await;
    assert!(failure(past, Code::FailedPrecondition).contains("in the past"));
    let malformed = take(&app, &coach, "soon", &date_in(5), None).await;
    assert!(failure(malformed, Code::InvalidArgument).starts_with("start_date must be a date"));
    let client = app.client_user();
    let not_a_coach = take(&app, &client, &date_in(5), &date_in(6), None).await;
    failure(not_a_coach, Code::PermissionDenied);
}

#[tokio::test]
async fn booking_reads_the_time_off_with_the_slot_and_with_the_schedule() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let slot = app
        .create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();
    let off = take(&app, &coach, &date_in(10), &date_in(12), Some("Away"))
        .await
        .unwrap();
    take(&app, &coach, &date_in(40), &date_in(41), None)
        .await
        .unwrap();

    let snapshot = app
        .api()
        .get_slot(Request::new(pb::GetSlotRequest {
            slot_id: slot.slot_id.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(snapshot.time_off.len(), 2, "every time off that has not ended");
    assert_eq!(snapshot.time_off[0], off);

    let schedule = app
        .api()
        .get_coach_schedule(Request::new(pb::GetCoachScheduleRequest {
            coach_id: coach.id.to_string(),
            from: date_in(0),
            to: date_in(20),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        schedule.time_off,
        vec![off],
        "only the time off that meets the range"
    );
    assert_eq!(schedule.slots.len(), 1);
    assert_eq!(schedule.slots[0].slot.as_ref().unwrap().slot_id, slot.slot_id);
    assert_eq!(schedule.slots[0].time_zone, "UTC");
    assert_eq!(schedule.policy.unwrap().max_advance_days, 365);
}
