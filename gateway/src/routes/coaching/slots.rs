//! A coach's availability slots: weekly on a day (recurring) or on one date (one-time), listed for
//! signed-in users, added and deleted by the coach.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::coaching::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::blank_is_none;
use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    routes::cache,
    state::AppState,
    vocabulary::{DayOfWeek, SlotType, blank_or_date, blank_or_day, blank_or_uuid},
};

/// A slot a client can book: weekly on a day (recurring) or on one date (one-time).
#[derive(Debug, Serialize, ToSchema)]
pub struct Slot {
    #[schema(format = Uuid)]
    pub slot_id: String,
    #[schema(value_type = SlotType)]
    pub slot_type: String,
    /// Recurring slots only.
    #[schema(value_type = Option<DayOfWeek>)]
    pub day_of_week: Option<String>,
    /// YYYY-MM-DD; one-time slots only.
    #[schema(format = Date)]
    pub specific_date: Option<String>,
    /// HH:MM.
    pub start_time: String,
    /// HH:MM.
    pub end_time: String,
    #[schema(format = Uuid)]
    pub location_id: Option<String>,
}

impl From<pb::Slot> for Slot {
    fn from(s: pb::Slot) -> Self {
        Self {
            slot_id: s.slot_id,
            slot_type: s.slot_type,
            day_of_week: s.day_of_week,
            specific_date: s.specific_date,
            start_time: s.start_time,
            end_time: s.end_time,
            location_id: s.location_id,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"slot_type": "recurring", "day_of_week": "Monday",
                          "start_time": "17:00", "end_time": "18:00", "location_id": null}))]
pub struct SlotBody {
    #[schema(value_type = SlotType)]
    pub slot_type: String,
    /// Needed for a recurring slot; blank or null otherwise.
    #[serde(default)]
    #[schema(schema_with = blank_or_day)]
    pub day_of_week: Option<String>,
    /// Needed for a one-time slot, not in the past; blank or null otherwise.
    #[serde(default)]
    #[schema(schema_with = blank_or_date)]
    pub specific_date: Option<String>,
    /// HH:MM, 24-hour.
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub start_time: String,
    /// HH:MM, 24-hour, after start_time.
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub end_time: String,
    /// One of the coach's own locations; blank or null for none.
    #[serde(default)]
    #[schema(schema_with = blank_or_uuid)]
    pub location_id: Option<String>,
}

/// A coach's availability slots.
#[utoipa::path(get, path = "/availability/coach/{coach_id}", tag = "coaching",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id")),
    responses((status = 200, description = "The coach's slots", body = [Slot])))]
pub(crate) async fn coach_slots(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = crate::memo::stamps().of(cache::COACH_SLOTS.shows);
    state
        .memo
        .json(cache::COACH_SLOTS.name, &coach_id, stamp, async {
            let message = pb::ListCoachSlotsRequest {
                coach_id: coach_id.clone(),
            };
            let reply = call::read!(state, coaching.list_coach_slots, Some(&session), message).await?;
            Ok(reply.slots.into_iter().map(Slot::from).collect::<Vec<_>>())
        })
        .await
}

/// Add an availability slot for the signed-in coach.
#[utoipa::path(post, path = "/availability", tag = "coaching", request_body = SlotBody,
    responses((status = 201, description = "Slot added", body = Slot),
              (status = 409, description = "specific_date is in the past", body = crate::error::ErrorBody)))]
pub(crate) async fn create_slot(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<SlotBody>,
) -> Result<(StatusCode, axum::Json<Slot>), ApiError> {
    let message = pb::CreateSlotRequest {
        slot_type: body.slot_type,
        day_of_week: blank_is_none(body.day_of_week),
        specific_date: blank_is_none(body.specific_date),
        start_time: body.start_time,
        end_time: body.end_time,
        location_id: blank_is_none(body.location_id),
    };
    let reply = call::write!(state, coaching.create_slot, Some(&session), message).await?;
    let slot = present("coaching", reply.slot)?;
    Ok((StatusCode::CREATED, axum::Json(slot.into())))
}

/// Delete one of the signed-in coach's slots.
#[utoipa::path(delete, path = "/availability/{slot_id}", tag = "coaching",
    params(("slot_id" = String, Path, format = Uuid, description = "The slot")),
    responses((status = 204, description = "Slot deleted")))]
pub(crate) async fn delete_slot(
    State(state): State<AppState>,
    session: Session,
    PathId(slot_id): PathId,
) -> Result<StatusCode, ApiError> {
    call::write!(
        state,
        coaching.delete_slot,
        Some(&session),
        pb::DeleteSlotRequest { slot_id }
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
