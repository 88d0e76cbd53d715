//! Bookings as calendars show them (issue 18): each with its revision (the iCalendar SEQUENCE,
//! raised by the trigger `booking.booking_revised` in the statement of every change) and when it
//! last changed. The gateway reads one booking for its `.ics` download, and the bookings of one
//! client or coach for their calendar feed, in one statement each.
//!
//! A client's feed holds every booking of theirs (pending ones tentative, and the denied, expired
//! and cancelled ones so that a calendar drops what it held); a coach's holds the bookings they
//! confirmed, cancelled or not, never the requests they only received. Both start [`FEED_PAST`]
//! before now: recent sessions stay, and a session called off stays long enough, cancelled, for
//! every subscribed calendar to learn of it.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{
    domain::{BookingId, ClientId, CoachId},
    error::Error,
    store::{BookingRow, Side, booking_columns},
};

/// How far back a feed reaches: sessions that started this long ago or later.
pub const FEED_PAST: Duration = Duration::days(30);

/// A booking with its revision and the time of its last change.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CalendarRow {
    #[sqlx(flatten)]
    pub booking: BookingRow,
    pub revision: i64,
    pub updated_at: DateTime<Utc>,
}

/// One booking, if `user_id` is its client or its coach.
pub async fn booking_of_party(
    db: impl PgExecutor<'_>,
    booking_id: BookingId,
    user_id: Uuid,
) -> Result<Option<CalendarRow>, Error> {
    Ok(sqlx::query_as::<_, CalendarRow>(concat!(
        "select ",
        booking_columns!(),
        ", revision, updated_at from booking.booking
          where booking_id = $1 and (client_id = $2 or coach_id = $2)"
    ))
    .bind(booking_id.0)
    .bind(user_id)
    .fetch_optional(db)
    .await?)
}

/// The bookings a client's or a coach's feed shows, starting at `since` or later, by start.
pub async fn feed_bookings(
    db: impl PgExecutor<'_>,
    side: Side,
    since: DateTime<Utc>,
) -> Result<Vec<CalendarRow>, Error> {
    let (query, party) = match side {
        Side::Client(ClientId(id)) => (
            concat!(
                "select ",
                booking_columns!(),
                ", revision, updated_at from booking.booking
                  where client_id = $1 and starts_at >= $2
                  order by starts_at, booking_id"
            ),
            id,
        ),
        Side::Coach(CoachId(id)) => (
            concat!(
                "select ",
                booking_columns!(),
                ", revision, updated_at from booking.booking
                  where coach_id = $1 and was_confirmed and starts_at >= $2
                  order by starts_at, booking_id"
            ),
            id,
        ),
    };
    Ok(sqlx::query_as::<_, CalendarRow>(query)
        .bind(party)
        .bind(since)
        .fetch_all(db)
        .await?)
}
