//! A coach's booking policy: how soon and how far ahead clients may book, how long a request waits
//! for an answer, until when a cancel is free, and what a late cancellation and a no-show cost.
//! Read by any signed-in user, set by the coach.
//! A coach who never set one has the defaults, and that is what every read answers and what
//! booking-svc enforces.

use axum::{extract::State, response::Response};
use proto::coaching::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    routes::cache,
    state::AppState,
};

/// The limits a coach sets on bookings of their slots, and the fees a paid session costs when the
/// client cancels late or does not come.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[schema(example = json!({"min_notice_minutes": 120, "max_advance_days": 60,
                          "response_window_minutes": 1440, "cancellation_window_minutes": 1440,
                          "late_cancellation_fee_percent": 50, "no_show_fee_percent": 100}))]
pub struct BookingPolicy {
    /// A session must be booked at least this many minutes before it starts (0 to 43200; default 0).
    #[schema(minimum = 0, maximum = 43200)]
    pub min_notice_minutes: i32,
    /// A session may be booked at most this many days ahead (1 to 730; default 365).
    #[schema(minimum = 1, maximum = 730)]
    pub max_advance_days: i32,
    /// A pending request nobody answers expires after this many minutes, or at the session's start
    /// if that comes first (1 to 20160; default 2880).
    #[schema(minimum = 1, maximum = 20160)]
    pub response_window_minutes: i32,
    /// A client's cancel of a confirmed session less than this many minutes before it starts is a
    /// late cancellation (0 to 20160; default 1440).
    #[schema(minimum = 0, maximum = 20160)]
    pub cancellation_window_minutes: i32,
    /// The share of a paid session's price a late cancellation by the client costs, in percent
    /// (0 to 100; default 50); the rest of the hold is released. Bookings keep the fee of when
    /// they were made.
    #[schema(minimum = 0, maximum = 100)]
    pub late_cancellation_fee_percent: i32,
    /// The share of a paid session's price a no-show costs, in percent (0 to 100; default 100).
    /// Bookings keep the fee of when they were made.
    #[schema(minimum = 0, maximum = 100)]
    pub no_show_fee_percent: i32,
}

/// A coach's new booking policy: the four limits, and either fee left out to keep it as it is.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[schema(example = json!({"min_notice_minutes": 120, "max_advance_days": 60,
                          "response_window_minutes": 1440, "cancellation_window_minutes": 1440,
                          "late_cancellation_fee_percent": 50}))]
pub struct BookingPolicyBody {
    /// A session must be booked at least this many minutes before it starts (0 to 43200).
    #[schema(minimum = 0, maximum = 43200)]
    pub min_notice_minutes: i32,
    /// A session may be booked at most this many days ahead (1 to 730).
    #[schema(minimum = 1, maximum = 730)]
    pub max_advance_days: i32,
    /// A pending request nobody answers expires after this many minutes, or at the session's start
    /// if that comes first (1 to 20160).
    #[schema(minimum = 1, maximum = 20160)]
    pub response_window_minutes: i32,
    /// A client's cancel of a confirmed session less than this many minutes before it starts is a
    /// late cancellation (0 to 20160).
    #[schema(minimum = 0, maximum = 20160)]
    pub cancellation_window_minutes: i32,
    /// The share of the price a late cancellation costs, in percent (0 to 100); left out or null:
    /// unchanged.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub late_cancellation_fee_percent: Option<i32>,
    /// The share of the price a no-show costs, in percent (0 to 100); left out or null: unchanged.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub no_show_fee_percent: Option<i32>,
}

/// The defaults booking-svc applies when coaching-svc answers without a fee (a policy from before
/// fees were kept).
const LATE_CANCELLATION_FEE_PERCENT: i32 = 50;
const NO_SHOW_FEE_PERCENT: i32 = 100;

impl From<pb::BookingPolicy> for BookingPolicy {
    fn from(p: pb::BookingPolicy) -> Self {
        Self {
            min_notice_minutes: p.min_notice_minutes,
            max_advance_days: p.max_advance_days,
            response_window_minutes: p.response_window_minutes,
            cancellation_window_minutes: p.cancellation_window_minutes,
            late_cancellation_fee_percent: p
                .late_cancellation_fee_percent
                .unwrap_or(LATE_CANCELLATION_FEE_PERCENT),
            no_show_fee_percent: p.no_show_fee_percent.unwrap_or(NO_SHOW_FEE_PERCENT),
        }
    }
}

impl From<BookingPolicyBody> for pb::BookingPolicy {
    fn from(p: BookingPolicyBody) -> Self {
        Self {
            min_notice_minutes: p.min_notice_minutes,
            max_advance_days: p.max_advance_days,
            response_window_minutes: p.response_window_minutes,
            cancellation_window_minutes: p.cancellation_window_minutes,
            late_cancellation_fee_percent: p.late_cancellation_fee_percent,
            no_show_fee_percent: p.no_show_fee_percent,
        }
    }
}

async fn read(state: &AppState, session: &Session, coach_id: String) -> Result<BookingPolicy, ApiError> {
    let message = pb::GetBookingPolicyRequest { coach_id };
    let reply = call::read!(state, coaching.get_booking_policy, Some(session), message).await?;
    Ok(present("coaching", reply.policy)?.into())
}

/// The signed-in coach's booking policy (the defaults until they set one).
#[utoipa::path(get, path = "/coach/policy", tag = "coaching",
    responses((status = 200, description = "The coach's booking policy", body = BookingPolicy)))]
pub(crate) async fn own_policy(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<BookingPolicy>, ApiError> {
    let coach_id = session.caller.user_id.to_string();
    Ok(axum::Json(read(&state, &session, coach_id).await?))
}

/// Replace the signed-in coach's booking policy: the four limits are given, each fee is given or
/// left out to keep it. Bookings made from then on are held to it (a booking keeps the fees of
/// when it was made); a value out of its range is a 400 naming it.
#[utoipa::path(put, path = "/coach/policy", tag = "coaching", request_body = BookingPolicyBody,
    responses((status = 200, description = "The policy as saved", body = BookingPolicy)))]
pub(crate) async fn update_policy(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<BookingPolicyBody>,
) -> Result<axum::Json<BookingPolicy>, ApiError> {
    let message = pb::UpdateBookingPolicyRequest {
        policy: Some(body.into()),
    };
    let reply = call::write!(state, coaching.update_booking_policy, Some(&session), message).await?;
    Ok(axum::Json(present("coaching", reply.policy)?.into()))
}

/// A coach's booking policy, as booking holds bookings of their slots to it: the defaults for a
/// coach who never set one (or has no profile).
#[utoipa::path(get, path = "/coach/policy/{coach_id}", tag = "coaching",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id")),
    responses((status = 200, description = "The coach's booking policy", body = BookingPolicy)))]
pub(crate) async fn coach_policy(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = crate::memo::stamps().of(cache::COACH_POLICY.shows);
    state
        .memo
        .json(
            cache::COACH_POLICY.name,
            &coach_id,
            stamp,
            read(&state, &session, coach_id.clone()),
        )
        .await
}
