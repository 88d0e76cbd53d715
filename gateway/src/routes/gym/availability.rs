//! Court availability: time a gym offers on its courts, and the open time at a location that
//! coaches may request.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::gym::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    pages::Paging,
    state::AppState,
};

/// A time a court can be reserved.
#[derive(Debug, Serialize, ToSchema)]
pub struct CourtAvailability {
    #[schema(format = Uuid)]
    pub availability_id: String,
    #[schema(format = Uuid)]
    pub court_id: String,
    #[schema(format = Uuid)]
    pub location_id: String,
    /// YYYY-MM-DD.
    #[schema(format = Date)]
    pub date: String,
    /// HH:MM.
    pub start_time: String,
    /// HH:MM.
    pub end_time: String,
    pub is_reserved: bool,
    pub location_name: String,
    pub court_name: String,
    /// The location's IANA time zone (e.g. `America/Chicago`): date and times are its wall clock.
    #[schema(example = "America/Chicago")]
    pub time_zone: String,
    /// When the court time starts, RFC 3339 in UTC.
    #[schema(format = DateTime, example = "2030-06-03T23:00:00Z")]
    pub starts_at: String,
    /// When it ends, RFC 3339 in UTC.
    #[schema(format = DateTime, example = "2030-06-04T00:30:00Z")]
    pub ends_at: String,
    /// The approved reservation holding this court time (the id `PATCH
    /// /gym/reservations/{reservation_id}/cancel` takes): only in the gym's own list, null
    /// elsewhere and while the time is not reserved.
    #[schema(format = Uuid)]
    pub reservation_id: Option<String>,
}

impl From<pb::CourtAvailability> for CourtAvailability {
    fn from(a: pb::CourtAvailability) -> Self {
        Self {
            availability_id: a.availability_id,
            court_id: a.court_id,
            location_id: a.location_id,
            date: a.date,
            start_time: a.start_time,
            end_time: a.end_time,
            is_reserved: a.is_reserved,
            location_name: a.location_name,
            court_name: a.court_name,
            time_zone: a.time_zone,
            starts_at: a.starts_at,
            ends_at: a.ends_at,
            reservation_id: a.reservation_id,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"court_id": "0b8f5c9e-4a1d-4c7e-9f3a-2d6b8e1c5a70", "date": "2030-06-03",
                          "start_time": "18:00", "end_time": "19:30"}))]
pub struct CourtAvailabilityBody {
    /// One of the gym's own courts.
    #[schema(format = Uuid)]
    pub court_id: String,
    /// YYYY-MM-DD, not in the past.
    #[schema(format = Date)]
    pub date: String,
    /// HH:MM, 24-hour.
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub start_time: String,
    /// HH:MM, 24-hour, after start_time.
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub end_time: String,
}

/// The open court availability (unreserved, starting after now) at one gym location, for coaches to request.
#[utoipa::path(get, path = "/gym/locations/{location_id}/availability", tag = "gym",
    params(("location_id" = String, Path, format = Uuid, description = "The gym location")),
    responses((status = 200, description = "Open court availability", body = [CourtAvailability])))]
pub(crate) async fn open_availability(
    State(state): State<AppState>,
    session: Session,
    PathId(location_id): PathId,
) -> Result<axum::Json<Vec<CourtAvailability>>, ApiError> {
    let message = pb::ListOpenAvailabilityRequest { location_id };
    let reply = call::read!(state, gym.list_open_availability, Some(&session), message).await?;
    Ok(axum::Json(
        reply
            .availability
            .into_iter()
            .map(CourtAvailability::from)
            .collect(),
    ))
}

/// The availability of the signed-in gym's courts, by date, start time and court. Whole without
/// `limit`; pages of `limit` with it.
#[utoipa::path(get, path = "/gym/court-availability", tag = "gym", params(Paging<100>),
    responses((status = 200, description = "Court availability", body = [CourtAvailability])))]
pub(crate) async fn list_availability(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100>,
) -> Result<Response, ApiError> {
    let message = pb::ListCourtAvailabilityRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, gym.list_court_availability, Some(&session), message).await?;
    let rows: Vec<CourtAvailability> = reply
        .availability
        .into_iter()
        .map(CourtAvailability::from)
        .collect();
    Ok(paging.respond(rows, &reply.next, None))
}

/// Offer time on one of the signed-in gym's courts.
#[utoipa::path(post, path = "/gym/court-availability", tag = "gym", request_body = CourtAvailabilityBody,
    responses((status = 201, description = "Availability added", body = CourtAvailability),
              (status = 404, description = "No such court", body = crate::error::ErrorBody),
              (status = 409, description = "Overlaps other availability of the court, or the date is in the past", body = crate::error::ErrorBody)))]
pub(crate) async fn create_availability(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CourtAvailabilityBody>,
) -> Result<(StatusCode, axum::Json<CourtAvailability>), ApiError> {
    let message = pb::CreateCourtAvailabilityRequest {
        court_id: body.court_id,
        date: body.date,
        start_time: body.start_time,
        end_time: body.end_time,
    };
    let reply = call::write!(state, gym.create_court_availability, Some(&session), message).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(present("gym", reply.availability)?.into()),
    ))
}
