//! The coach's booking policy: defaults, setting it, its limits, who may do what, and how it
//! reaches booking-svc (with the slot, and through the change stamp booking-svc remembers slots by).

use proto::coaching::v1 as pb;
use tonic::{Code, Request};

use crate::helpers::{TestApp, User, as_user, failure, recurring};

fn policy(min_notice: i32, max_advance: i32, response: i32, cancellation: i32) -> pb::BookingPolicy {
    pb::BookingPolicy {
        min_notice_minutes: min_notice,
        max_advance_days: max_advance,
        response_window_minutes: response,
        cancellation_window_minutes: cancellation,
    }
}

const DEFAULTS: pb::BookingPolicy = pb::BookingPolicy {
    min_notice_minutes: 0,
    max_advance_days: 365,
    response_window_minutes: 2880,
    cancellation_window_minutes: 1440,
};

async fn read(app: &TestApp, caller: &User, coach: &User) -> Result<pb::BookingPolicy, tonic::Status> {
    let request = as_user(
        caller,
        pb::GetBookingPolicyRequest {
            coach_id: coach.id.to_string(),
        },
    );
    Ok(app
        .api()
        .get_booking_policy(request)
        .await?
        .into_inner()
        .policy
        .unwrap())
}

async fn set(
    app: &TestApp,
    coach: &User,
    policy: pb::BookingPolicy,
) -> Result<pb::BookingPolicy, tonic::Status> {
    let request = as_user(coach, pb::UpdateBookingPolicyRequest { policy: Some(policy) });
    Ok(app
        .api()
        .update_booking_policy(request)
        .await?
        .into_inner()
        .policy
        .unwrap())
}

async fn slot_snapshot(app: &TestApp, slot_id: &str) -> pb::GetSlotResponse {
    app.api()
        .get_slot(Request::new(pb::GetSlotRequest {
            slot_id: slot_id.to_owned(),
        }))
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn a_coach_who_never_set_a_policy_has_the_defaults() {
    let app = TestApp::start().await;
    let coach = app.coach();

    assert_eq!(read(&app, &app.client_user(), &coach).await.unwrap(), DEFAULTS);
    assert_eq!(read(&app, &coach, &coach).await.unwrap(), DEFAULTS);
}

#[tokio::test]
async fn a_coach_sets_their_policy_and_every_signed_in_user_reads_it() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let wanted = policy(120, 60, 1440, 2880);

    let saved = set(&app, &coach, wanted).await.unwrap();
    let again = set(&app, &coach, policy(0, 730, 1, 0)).await.unwrap();

    assert_eq!(saved, wanted);
    assert_eq!(again, policy(0, 730, 1, 0));
    assert_eq!(read(&app, &app.client_user(), &coach).await.unwrap(), again);
    // Another coach keeps the defaults.
    assert_eq!(
        read(&app, &app.client_user(), &app.coach()).await.unwrap(),
        DEFAULTS
    );
}

#[tokio::test]
async fn a_limit_out_of_its_range_is_refused_naming_it_and_nothing_changes() {
    let app = TestApp::start().await;
    let coach = app.coach();
    set(&app, &coach, policy(60, 30, 600, 120)).await.unwrap();

    let notice = set(&app, &coach, policy(43_201, 30, 600, 120)).await;
    let advance = set(&app, &coach, policy(60, 0, 600, 120)).await;
    let response = set(&app, &coach, policy(60, 30, 20_161, 120)).await;
    let cancellation = set(&app, &coach, policy(60, 30, 600, -1)).await;

    assert_eq!(
        failure(notice, Code::InvalidArgument),
        "min_notice_minutes must be between 0 and 43200; 43201 is not"
    );
    assert_eq!(
        failure(advance, Code::InvalidArgument),
        "max_advance_days must be between 1 and 730; 0 is not"
    );
    assert_eq!(
        failure(response, Code::InvalidArgument),
        "response_window_minutes must be between 1 and 20160; 20161 is not"
    );
    assert_eq!(
        failure(cancellation, Code::InvalidArgument),
        "cancellation_window_minutes must be between 0 and 20160; -1 is not"
    );
    assert_eq!(
        read(&app, &coach, &coach).await.unwrap(),
        policy(60, 30, 600, 120)
    );
}

#[tokio::test]
async fn only_a_coach_sets_a_policy_and_only_a_signed_in_caller_reads_one() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let by_client = set(&app, &app.client_user(), policy(60, 30, 600, 120)).await;
    let anonymous = app
        .api()
        .get_booking_policy(Request::new(pb::GetBookingPolicyRequest {
            coach_id: coach.id.to_string(),
        }))
        .await;
    let malformed = app
        .api()
        .get_booking_policy(as_user(
            &coach,
            pb::GetBookingPolicyRequest {
                coach_id: "nope".into(),
            },
        ))
        .await;

    failure(by_client, Code::PermissionDenied);
    failure(anonymous, Code::Unauthenticated);
    assert_eq!(
        failure(malformed, Code::InvalidArgument),
        "coach_id must be a UUID"
    );
}

#[tokio::test]
async fn the_slot_booking_reads_carries_its_coach_s_policy_as_it_is_now() {
    let app = TestApp::start().await;
    let coach = app.coach();
    let slot = app
        .create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();

    let before = slot_snapshot(&app, &slot.slot_id).await;
    set(&app, &coach, policy(240, 14, 60, 720)).await.unwrap();
    let after = slot_snapshot(&app, &slot.slot_id).await;

    assert_eq!(before.policy, Some(DEFAULTS));
    assert_eq!(after.policy, Some(policy(240, 14, 60, 720)));
}
