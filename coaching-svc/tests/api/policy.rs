//! The coach's booking policy: defaults, setting it, its limits and fees, who may do what, and how
//! it reaches booking-svc (with the slot and its coach's hourly rate, and through the change stamp
//! booking-svc remembers slots by).

use proto::coaching::v1 as pb;
use tonic::{Code, Request};

use crate::helpers::{TestApp, User, as_user, failure, profile_fields, recurring};

/// A whole policy, both fees given.
fn policy(
    min_notice: i32,
    max_advance: i32,
    response: i32,
    cancellation: i32,
    late_fee: i32,
    no_show_fee: i32,
) -> pb::BookingPolicy {
    pb::BookingPolicy {
        min_notice_minutes: min_notice,
        max_advance_days: max_advance,
        response_window_minutes: response,
        cancellation_window_minutes: cancellation,
        late_cancellation_fee_percent: Some(late_fee),
        no_show_fee_percent: Some(no_show_fee),
    }
}

/// An update of the limits alone, as a client that predates the fees sends it.
fn limits(min_notice: i32, max_advance: i32, response: i32, cancellation: i32) -> pb::BookingPolicy {
    pb::BookingPolicy {
        late_cancellation_fee_percent: None,
        no_show_fee_percent: None,
        ..policy(min_notice, max_advance, response, cancellation, 0, 0)
    }
}

const DEFAULTS: pb::BookingPolicy = pb::BookingPolicy {
    min_notice_minutes: 0,
    max_advance_days: 365,
    response_window_minutes: 2880,
    cancellation_window_minutes: 1440,
    late_cancellation_fee_percent: Some(50),
    no_show_fee_percent: Some(100),
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

/// A slot of `coach`, and what GetSlot answers of it.
async fn a_slot_of(app: &TestApp, coach: &User) -> pb::GetSlotResponse {
    let slot = app
        .create_slot(coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();
    slot_snapshot(app, &slot.slot_id).await
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

    let first = set(&app, &coach, limits(120, 60, 1440, 2880)).await.unwrap();
    let again = set(&app, &coach, policy(0, 730, 1, 0, 0, 0)).await.unwrap();

    // A first policy without fees has the default ones.
    assert_eq!(first, policy(120, 60, 1440, 2880, 50, 100));
    assert_eq!(again, policy(0, 730, 1, 0, 0, 0));
    assert_eq!(read(&app, &app.client_user(), &coach).await.unwrap(), again);
    // Another coach keeps the defaults.
    assert_eq!(
        read(&app, &app.client_user(), &app.coach()).await.unwrap(),
        DEFAULTS
    );
}

#[tokio::test]
async fn an_update_without_a_fee_keeps_the_coach_s_current_one() {
    let app = TestApp::start().await;
    let coach = app.coach();
    set(&app, &coach, policy(60, 30, 600, 120, 20, 80)).await.unwrap();

    let limits_only = set(&app, &coach, limits(0, 365, 2880, 1440)).await.unwrap();
    let late_only = set(
        &app,
        &coach,
        pb::BookingPolicy {
            late_cancellation_fee_percent: Some(100),
            ..limits(0, 365, 2880, 1440)
        },
    )
    .await
    .unwrap();
    let no_show_only = set(
        &app,
        &coach,
        pb::BookingPolicy {
            no_show_fee_percent: Some(0),
            ..limits(5, 365, 2880, 1440)
        },
    )
    .await
    .unwrap();

    assert_eq!(limits_only, policy(0, 365, 2880, 1440, 20, 80));
    assert_eq!(late_only, policy(0, 365, 2880, 1440, 100, 80));
    assert_eq!(no_show_only, policy(5, 365, 2880, 1440, 100, 0));
    assert_eq!(read(&app, &coach, &coach).await.unwrap(), no_show_only);
}

#[tokio::test]
async fn a_limit_or_fee_out_of_its_range_is_refused_naming_it_and_nothing_changes() {
    let app = TestApp::start().await;
    let coach = app.coach();
    set(&app, &coach, policy(60, 30, 600, 120, 20, 80)).await.unwrap();

    let notice = set(&app, &coach, policy(43_201, 30, 600, 120, 20, 80)).await;
    let advance = set(&app, &coach, policy(60, 0, 600, 120, 20, 80)).await;
    let response = set(&app, &coach, policy(60, 30, 20_161, 120, 20, 80)).await;
    let cancellation = set(&app, &coach, policy(60, 30, 600, -1, 20, 80)).await;
    let late_fee = set(&app, &coach, policy(0, 365, 2880, 1440, 101, 80)).await;
    let no_show_fee = set(&app, &coach, policy(0, 365, 2880, 1440, 20, -1)).await;

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
        failure(late_fee, Code::InvalidArgument),
        "late_cancellation_fee_percent is a percentage of the price and must be between 0 and 100; 101 is not"
    );
    assert_eq!(
        failure(no_show_fee, Code::InvalidArgument),
        "no_show_fee_percent is a percentage of the price and must be between 0 and 100; -1 is not"
    );
    assert_eq!(
        read(&app, &coach, &coach).await.unwrap(),
        policy(60, 30, 600, 120, 20, 80)
    );
}

#[tokio::test]
async fn a_policy_saved_before_the_fees_existed_has_the_default_fees() {
    let app = TestApp::start().await;
    let coach = app.coach();
    // A row as a replica of before the fees writes it (during a rolling deploy), or as the
    // migration found it.
    sqlx::query(
        "insert into coaching.booking_policy
             (coach_id, min_notice_minutes, max_advance_days, response_window_minutes,
              cancellation_window_minutes)
         values ($1, 30, 60, 90, 120)",
    )
    .bind(coach.id)
    .execute(&app.db)
    .await
    .unwrap();

    assert_eq!(
        read(&app, &coach, &coach).await.unwrap(),
        policy(30, 60, 90, 120, 50, 100)
    );
}

#[tokio::test]
async fn only_a_coach_sets_a_policy_and_only_a_signed_in_caller_reads_one() {
    let app = TestApp::start().await;
    let coach = app.coach();

    let by_client = set(&app, &app.client_user(), limits(60, 30, 600, 120)).await;
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
    set(&app, &coach, policy(240, 14, 60, 720, 25, 75)).await.unwrap();
    let after = slot_snapshot(&app, &slot.slot_id).await;
    let schedule = app
        .api()
        .get_coach_schedule(Request::new(pb::GetCoachScheduleRequest {
            coach_id: coach.id.to_string(),
            from: "2030-01-01".into(),
            to: "2030-01-31".into(),
        }))
        .await
        .unwrap()
        .into_inner();

    assert_eq!(before.policy, Some(DEFAULTS));
    assert_eq!(after.policy, Some(policy(240, 14, 60, 720, 25, 75)));
    assert_eq!(schedule.policy, Some(policy(240, 14, 60, 720, 25, 75)));
}

#[tokio::test]
async fn the_slot_booking_reads_carries_its_coach_s_hourly_rate_in_whole_cents() {
    let app = TestApp::start().await;
    let without_profile = app.coach();
    let free = app.coach();
    app.create_profile(&free, profile_fields(0.0, 1, &[]))
        .await
        .unwrap();
    let priced = app.coach();
    app.create_profile(&priced, profile_fields(75.0, 1, &[]))
        .await
        .unwrap();
    // Half a cent rounds away from zero (and 37.505 is not exactly that as a float: the rate is
    // rounded as the decimal the coach typed).
    let half_cent = app.coach();
    app.create_profile(&half_cent, profile_fields(37.505, 1, &[]))
        .await
        .unwrap();
    let under_half = app.coach();
    app.create_profile(&under_half, profile_fields(0.284, 1, &[]))
        .await
        .unwrap();

    assert_eq!(a_slot_of(&app, &without_profile).await.hourly_rate_cents, 0);
    assert_eq!(a_slot_of(&app, &free).await.hourly_rate_cents, 0);
    assert_eq!(a_slot_of(&app, &priced).await.hourly_rate_cents, 7500);
    assert_eq!(a_slot_of(&app, &half_cent).await.hourly_rate_cents, 3751);
    assert_eq!(a_slot_of(&app, &under_half).await.hourly_rate_cents, 28);
}

#[tokio::test]
async fn the_slot_s_hourly_rate_is_its_coach_s_rate_now() {
    let app = TestApp::start().await;
    let coach = app.coach();
    app.create_profile(&coach, profile_fields(60.0, 1, &[]))
        .await
        .unwrap();
    let slot = app
        .create_slot(&coach, recurring("Monday", "09:00", "10:00"))
        .await
        .unwrap();

    let before = slot_snapshot(&app, &slot.slot_id).await;
    app.api()
        .update_coach_profile(as_user(
            &coach,
            pb::UpdateCoachProfileRequest {
                fields: Some(profile_fields(82.25, 1, &[])),
            },
        ))
        .await
        .unwrap();
    let after = slot_snapshot(&app, &slot.slot_id).await;

    assert_eq!(before.hourly_rate_cents, 6000);
    assert_eq!(after.hourly_rate_cents, 8225);
}
