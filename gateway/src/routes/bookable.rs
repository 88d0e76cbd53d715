//! The bookable calendar of a coach (`/availability/coach/{coach_id}/calendar`): every occurrence
//! of their slots over up to 62 days, each bookable or not and why. booking-svc computes it with
//! the rule it books by (one call to coaching-svc for the slots, policy and time off, one query of
//! its own for the active bookings), so what it calls bookable is what `POST /bookings` accepts,
//! unless someone books it first.

use axum::extract::State;
use proto::booking::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    call,
    error::ApiError,
    extract::{PathId, Query, Session},
    state::AppState,
};

/// Why a date of a slot cannot be booked.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unbookable {
    /// An active booking holds it (or overlaps it).
    Booked,
    /// The coach is away that date.
    TimeOff,
    /// Sooner than the coach's minimum notice.
    TooSoon,
    /// Further ahead than the coach takes bookings.
    TooFar,
    /// It has started or is over.
    Past,
}

/// One occurrence of a slot on one date.
#[derive(Debug, Serialize, ToSchema)]
pub struct CalendarDay {
    #[schema(format = Uuid)]
    pub slot_id: String,
    /// YYYY-MM-DD, on the place's calendar.
    #[schema(format = Date)]
    pub date: String,
    /// HH:MM, on the place's clock.
    pub start_time: String,
    /// HH:MM, on the place's clock.
    pub end_time: String,
    /// The place's IANA time zone.
    pub time_zone: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub starts_at: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub ends_at: String,
    /// Empty when the slot has no location.
    pub location_name: String,
    pub bookable: bool,
    /// Null when bookable.
    #[schema(value_type = Option<Unbookable>)]
    pub reason: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CalendarQuery {
    /// YYYY-MM-DD, the first date.
    #[param(required = true, format = Date)]
    pub from: Option<String>,
    /// YYYY-MM-DD, the last date (inclusive): at most 61 days after `from`.
    #[param(required = true, format = Date)]
    pub to: Option<String>,
}

/// Every occurrence of a coach's slots from `from` to `to` (at most 62 days), by date and start
/// time, each `bookable` or with the `reason` it is not.
#[utoipa::path(get, path = "/availability/coach/{coach_id}/calendar", tag = "booking",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id"), CalendarQuery),
    responses((status = 200, description = "The coach's bookable calendar", body = [CalendarDay])))]
pub(crate) async fn coach_calendar(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
    Query(query): Query<CalendarQuery>,
) -> Result<axum::Json<Vec<CalendarDay>>, ApiError> {
    let (Some(from), Some(to)) = (query.from, query.to) else {
        return Err(ApiError::bad_request(
            "Give from and to (YYYY-MM-DD, at most 62 days apart) of the dates to show.",
        ));
    };
    let message = pb::GetCoachCalendarRequest { coach_id, from, to };
    let reply = call::read!(state, booking.get_coach_calendar, Some(&session), message).await?;
    Ok(axum::Json(
        reply
            .days
            .into_iter()
            .map(|d| CalendarDay {
                slot_id: d.slot_id,
                date: d.date,
                start_time: d.start_time,
                end_time: d.end_time,
                time_zone: d.time_zone,
                starts_at: d.starts_at,
                ends_at: d.ends_at,
                location_name: d.location_name,
                bookable: d.bookable,
                reason: d.reason,
            })
            .collect(),
    ))
}
