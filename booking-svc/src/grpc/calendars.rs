//! The calendar RPCs of booking.v1: a booking's revision for its client or coach, a feed's
//! bookings, a coach's bookable calendar and the bookings a time off meets.

use platform::{auth, instants::rfc3339};
use proto::booking::v1 as pb;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::{BookingService, coach};
use crate::{
    calendar, coaching,
    domain::{BookingId, CalendarRange, ClientId, CoachId, Held, format_time},
    error::Error,
    store,
};

type Answer<T> = Result<Response<T>, Status>;

impl From<calendar::CalendarRow> for pb::CalendarBooking {
    fn from(row: calendar::CalendarRow) -> Self {
        pb::CalendarBooking {
            booking: Some(row.booking.into()),
            revision: row.revision,
            updated_at: rfc3339(row.updated_at),
        }
    }
}

pub(super) async fn get_calendar_booking(
    s: &BookingService,
    request: Request<pb::GetCalendarBookingRequest>,
) -> Answer<pb::GetCalendarBookingResponse> {
    let caller = auth::caller(&request)?;
    let booking_id = BookingId::parse(&request.get_ref().booking_id)?;
    // Another person's booking is as absent as one that never was.
    let row = calendar::booking_of_party(&s.db, booking_id, caller.user_id)
        .await?
        .ok_or_else(|| Error::NotFound("this booking does not exist".into()))?;
    Ok(Response::new(pb::GetCalendarBookingResponse {
        booking: Some(row.into()),
    }))
}

pub(super) async fn list_calendar_bookings(
    s: &BookingService,
    request: Request<pb::ListCalendarBookingsRequest>,
) -> Answer<pb::ListCalendarBookingsResponse> {
    let r = request.into_inner();
    let user_id = r
        .user_id
        .trim()
        .parse::<Uuid>()
        .map_err(|_| Error::Invalid("user_id must be a UUID".into()))?;
    let side = match r.role.as_str() {
        "client" => store::Side::Client(ClientId(user_id)),
        "coach" => store::Side::Coach(CoachId(user_id)),
        _ => return Err(Error::Invalid("role must be client or coach".into()).into()),
    };
    let since = s.clock.now() - calendar::FEED_PAST;
    let rows = calendar::feed_bookings(&s.db, side, since).await?;
    Ok(Response::new(pb::ListCalendarBookingsResponse {
        bookings: rows.into_iter().map(Into::into).collect(),
    }))
}

pub(super) async fn get_coach_calendar(
    s: &BookingService,
    request: Request<pb::GetCoachCalendarRequest>,
) -> Answer<pb::GetCoachCalendarResponse> {
    auth::caller(&request)?;
    let authorization = coaching::authorization(&request);
    let r = request.into_inner();
    let coach_id = CoachId::parse(&r.coach_id)?;
    let range = CalendarRange::parse(&r.from, &r.to)?;
    // A fixed number of statements whatever the range: coaching's two (slots, time off) and
    // booking's one, run at the same time.
    let now = s.clock.now();
    let (slots, held) = tokio::try_join!(
        s.slots.coaching().schedule(coach_id, range, authorization),
        async { store::held_between(&s.db, coach_id, range.from, range.to, now).await },
    )?;
    let held: Vec<Held> = held
        .into_iter()
        .map(|h| Held {
            date: h.booking_date,
            start_time: h.start_time,
            end_time: h.end_time,
        })
        .collect();
    let days = crate::domain::calendar(&slots, range, &held, now)
        .into_iter()
        .map(|day| pb::CalendarDay {
            slot_id: day.slot_id.to_string(),
            date: day.session.date.to_string(),
            start_time: format_time(day.session.start_time),
            end_time: format_time(day.session.end_time),
            time_zone: day.session.time_zone.to_string(),
            starts_at: rfc3339(day.session.starts_at),
            ends_at: rfc3339(day.session.ends_at),
            location_name: day.location_name,
            bookable: day.reason.is_none(),
            reason: day.reason.map(|r| r.as_str().to_owned()),
        })
        .collect();
    Ok(Response::new(pb::GetCoachCalendarResponse { days }))
}

pub(super) async fn list_active_bookings(
    s: &BookingService,
    request: Request<pb::ListActiveBookingsRequest>,
) -> Answer<pb::ListActiveBookingsResponse> {
    let coach_id = coach(&request, "list the bookings a time off meets")?;
    let r = request.into_inner();
    let parse = |raw: &str, field: &str| {
        crate::domain::parse_date(raw.trim())
            .ok_or_else(|| Error::Invalid(format!("{field} must be a date as YYYY-MM-DD")))
    };
    let (from, to) = (parse(&r.from, "from")?, parse(&r.to, "to")?);
    let held = store::held_between(&s.db, coach_id, from, to, s.clock.now()).await?;
    Ok(Response::new(pb::ListActiveBookingsResponse {
        bookings: held
            .into_iter()
            .map(|h| pb::ActiveBooking {
                booking_id: h.booking_id.to_string(),
                booking_date: h.booking_date.to_string(),
            })
            .collect(),
    }))
}
