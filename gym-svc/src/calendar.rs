//! Court reservations as calendars show them (issue 18): each with its revision (the iCalendar
//! SEQUENCE, raised by the trigger `gym.court_reservation_revised` in the statement of every
//! change), when it last changed and the location's address. The gateway reads those of one coach
//! or one gym for their calendar feed, in one statement.
//!
//! A feed holds the court time that was approved: still approved, or called off since (then shown
//! cancelled, so that a calendar drops what it held); never a request that was only pending. It
//! starts [`FEED_PAST`] before now: recent court time stays, and court time called off stays long
//! enough, cancelled, for every subscribed calendar to learn of it.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{error::Error, store::ReservationRow};

/// How far back a feed reaches: court time that started this long ago or later.
pub const FEED_PAST: Duration = Duration::days(30);

/// Whose feed: the coach who reserved, or the gym whose courts they are.
#[derive(Clone, Copy, Debug)]
pub enum Owner {
    Coach(Uuid),
    Gym(Uuid),
}

/// A reservation with its revision, the time of its last change and where it is.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CalendarRow {
    #[sqlx(flatten)]
    pub reservation: ReservationRow,
    pub revision: i64,
    pub updated_at: DateTime<Utc>,
    /// The location's street, city and state.
    pub address: String,
}

/// [`CalendarRow`] from reservation `r` with its availability, court, location and gym (the
/// columns of `store::ReservationRow` and the calendar's).
macro_rules! calendar_select {
    () => {
        "select r.reservation_id, r.availability_id, r.coach_id, l.gym_id,
                coalesce(p.gym_name, 'Unnamed gym') as gym_name, l.name as location_name,
                c.court_name, a.date, a.start_time, a.end_time, r.status, r.cancellation_reason,
                r.created_at,
                l.time_zone, l.city, l.state, l.latitude, l.longitude,
                r.revision, r.updated_at,
                concat_ws(', ', nullif(l.address, ''), nullif(l.city, ''), nullif(l.state, ''))
                    as address
         from gym.court_reservation r
         join gym.court_availability a on a.availability_id = r.availability_id
         join gym.court c on c.court_id = a.court_id
         join gym.gym_location l on l.location_id = c.location_id
         left join gym.gym_profile p on p.gym_id = l.gym_id"
    };
}

/// The reservations a coach's or a gym's feed shows, starting at `since` or later, by start.
pub async fn feed_reservations(
    db: impl PgExecutor<'_>,
    owner: Owner,
    since: DateTime<Utc>,
) -> Result<Vec<CalendarRow>, Error> {
    let (query, id) = match owner {
        Owner::Coach(id) => (
            concat!(
                calendar_select!(),
                " where r.coach_id = $1 and r.was_approved and r.expires_at >= $2
                  order by r.expires_at, r.reservation_id"
            ),
            id,
        ),
        Owner::Gym(id) => (
            concat!(
                calendar_select!(),
                " where l.gym_id = $1 and r.was_approved and r.expires_at >= $2
                  order by r.expires_at, r.reservation_id"
            ),
            id,
        ),
    };
    Ok(sqlx::query_as::<_, CalendarRow>(query)
        .bind(id)
        .bind(since)
        .fetch_all(db)
        .await?)
}
