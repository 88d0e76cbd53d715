//! A person's sessions as calendar events: bookings (from booking-svc) and court time (from
//! gym-svc) in the words of the side that reads them, with the names they mention.

use chrono::{DateTime, Utc};
use proto::{booking::v1 as booking_pb, gym::v1 as gym_pb, identity::v1 as identity_pb};

use crate::{
    call,
    error::ApiError,
    ics::{self, State as Held},
    names::{self, Names},
    state::AppState,
};

/// A feed's sessions as its owner sees them, and what to call the calendar.
pub(super) struct Perspective {
    pub(super) sessions: Vec<ics::Session>,
    pub(super) calendar_name: String,
}

/// The owner's sessions: bookings from booking-svc (clients and coaches) and court time from
/// gym-svc (coaches and gyms), one call each and side by side, then every name they mention in
/// one call to identity.
pub(super) async fn compose(
    state: &AppState,
    owner: identity_pb::ResolveCalendarFeedResponse,
) -> Result<Perspective, ApiError> {
    let role = owner.role.as_str();
    let bookings = async {
        if !matches!(role, "client" | "coach") {
            return Ok(Vec::new());
        }
        let message = booking_pb::ListCalendarBookingsRequest {
            user_id: owner.user_id.clone(),
            role: role.to_owned(),
        };
        Ok::<_, ApiError>(
            call::read!(state, booking.list_calendar_bookings, None, message)
                .await?
                .bookings,
        )
    };
    let court_time = async {
        if !matches!(role, "coach" | "gym") {
            return Ok(Vec::new());
        }
        let message = gym_pb::ListCalendarReservationsRequest {
            user_id: owner.user_id.clone(),
            role: role.to_owned(),
        };
        Ok::<_, ApiError>(
            call::read!(state, gym.list_calendar_reservations, None, message)
                .await?
                .reservations,
        )
    };
    let (bookings, court_time) = tokio::try_join!(bookings, court_time)?;

    let mentioned = bookings
        .iter()
        .filter_map(|b| b.booking.as_ref())
        .flat_map(|b| [b.coach_id.clone(), b.client_id.clone()])
        .chain(
            court_time
                .iter()
                .filter_map(|r| r.reservation.as_ref())
                .map(|r| r.coach_id.clone()),
        )
        .chain([owner.user_id.clone()]);
    let names = names::names(state, None, mentioned).await?;

    let mut sessions: Vec<ics::Session> = bookings
        .iter()
        .filter_map(|b| booking_session(state, role, b, &names))
        .chain(
            court_time
                .iter()
                .filter_map(|r| reservation_session(state, role, r, &names)),
        )
        .collect();
    sessions.sort_by(|a, b| (a.starts_at, &a.uid).cmp(&(b.starts_at, &b.uid)));
    let calendar_name = match names.get(&owner.user_id) {
        Some(name) => format!("Courtside: {name}"),
        None => "Courtside".to_owned(),
    };
    Ok(Perspective {
        sessions,
        calendar_name,
    })
}

fn instant(rfc3339: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(rfc3339).ok().map(|t| t.to_utc())
}

/// Where `role` manages their sessions in the app.
fn dashboard(state: &AppState, role: &str) -> String {
    format!("{}/{role}/dashboard", state.config.public_url)
}

/// A booking as `role` (its client or its coach) sees it in a calendar; `None` for a record
/// whose instants cannot be read (never written so by booking-svc).
pub(super) fn booking_session(
    state: &AppState,
    role: &str,
    calendar: &booking_pb::CalendarBooking,
    names: &Names,
) -> Option<ics::Session> {
    let b = calendar.booking.as_ref()?;
    let (other, other_role) = match role {
        "coach" => (names.or_deleted(&b.client_id), "client"),
        _ => (names.or_deleted(&b.coach_id), "coach"),
    };
    let state_line = match b.status.as_str() {
        "pending" => format!("Requested: waiting for the {other_role}'s answer."),
        "confirmed" => "Confirmed.".to_owned(),
        "completed" => "Took place.".to_owned(),
        "no_show" => "The client did not come.".to_owned(),
        "denied" => "Denied by the coach.".to_owned(),
        "expired" => "Expired: the request was not answered in time.".to_owned(),
        "cancelled" => {
            let by = b.cancelled_by.as_deref().unwrap_or("someone");
            let late = if b.late_cancellation { " (late)" } else { "" };
            match b.cancellation_reason.as_deref().filter(|r| !r.trim().is_empty()) {
                Some(reason) => format!("Cancelled by the {by}{late}: {reason}"),
                None => format!("Cancelled by the {by}{late}."),
            }
        }
        other => format!("Status: {other}."),
    };
    let url = dashboard(state, role);
    Some(ics::Session {
        uid: ics::booking_uid(&b.booking_id),
        sequence: calendar.revision,
        starts_at: instant(&b.starts_at)?,
        ends_at: instant(&b.ends_at)?,
        summary: format!("Coaching session with {other}"),
        location: b.location_name.clone(),
        description: format!(
            "{state_line}\n{} to {} ({}).\nOn Courtside: {url}",
            b.start_time, b.end_time, b.time_zone
        ),
        state: Held::of_booking(&b.status),
        created_at: instant(&b.created_at),
        changed_at: instant(&calendar.updated_at).or_else(|| instant(&b.created_at))?,
        url,
    })
}

/// A court reservation as `role` (its coach or its gym) sees it in a calendar.
fn reservation_session(
    state: &AppState,
    role: &str,
    calendar: &gym_pb::CalendarReservation,
    names: &Names,
) -> Option<ics::Session> {
    let r = calendar.reservation.as_ref()?;
    let summary = match role {
        "gym" => format!(
            "Court time: {} on {}",
            names.or_deleted(&r.coach_id),
            r.court_name
        ),
        _ => format!("Court time at {}: {}", r.gym_name, r.court_name),
    };
    let state_line = match r.status.as_str() {
        "approved" => "Approved.".to_owned(),
        "pending" => "Requested: waiting for the gym's answer.".to_owned(),
        status => match r.cancellation_reason.as_deref().filter(|x| !x.trim().is_empty()) {
            Some(reason) => format!("Called off ({status}): {reason}"),
            None => format!("Called off ({status})."),
        },
    };
    let location = [r.location_name.as_str(), calendar.address.as_str()]
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let url = dashboard(state, role);
    Some(ics::Session {
        uid: ics::reservation_uid(&r.reservation_id),
        sequence: calendar.revision,
        starts_at: instant(&r.starts_at)?,
        ends_at: instant(&r.ends_at)?,
        summary,
        location,
        description: format!(
            "{state_line}\n{}, {} to {} ({}).\nOn Courtside: {url}",
            r.gym_name, r.start_time, r.end_time, r.time_zone
        ),
        state: Held::of_reservation(&r.status),
        created_at: None,
        changed_at: instant(&calendar.updated_at)?,
        url,
    })
}
