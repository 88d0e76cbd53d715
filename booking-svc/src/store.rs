//! booking's queries: one function per statement, schema-qualified, taking any executor (or the
//! pool, where a statement is retried).
//!
//! Double booking is refused here, by the database: the partial unique index
//! `booking_active_slot_key` and the exclusion constraint `booking_no_overlap_excl` (see the
//! migration), mapped to [`Error::Conflict`] by constraint name.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use platform::database::{Violation, violated};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::{
    domain::{Action, BookingId, ClientId, CoachId, Party, SlotId, Status},
    error::Error,
};

/// A booking row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct BookingRow {
    pub booking_id: Uuid,
    pub client_id: Uuid,
    pub coach_id: Uuid,
    pub slot_id: Uuid,
    pub booking_date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub location_name: String,
    pub status: String,
    pub payment_status: String,
    pub created_at: DateTime<Utc>,
}

/// The columns of [`BookingRow`], as a literal so statements stay `&'static str` (sqlx refuses
/// dynamically built SQL).
macro_rules! booking_columns {
    () => {
        "booking_id, client_id, coach_id, slot_id, booking_date, start_time, end_time, \
         location_name, status, payment_status, created_at"
    };
}

/// What a new booking holds: who, which slot on which date, and the slot's snapshot.
pub struct NewBooking<'a> {
    pub client_id: ClientId,
    pub coach_id: CoachId,
    pub slot_id: SlotId,
    pub booking_date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub location_name: &'a str,
}

const SLOT_TAKEN: &str = "booking_active_slot_key";
const OVERLAP: &str = "booking_no_overlap_excl";

/// Two inserts that conflict on the exclusion constraint at the same instant can each wait for
/// the other; PostgreSQL then aborts one of them with a deadlock, and retrying it meets the
/// winner's committed row, which is an ordinary violation.
fn is_deadlock(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.code().as_deref() == Some("40P01"))
}

/// Inserts a pending booking, or says the slot (or an overlapping time of that coach) is taken.
pub async fn insert_booking(db: &PgPool, booking: &NewBooking<'_>) -> Result<BookingRow, Error> {
    // Time-ordered (UUIDv7): each new row lands at the right edge of the primary key's index
    // instead of on a random page of it.
    let booking_id = Uuid::now_v7();
    let mut attempts = 0;
    loop {
        attempts += 1;
        let result = sqlx::query_as::<_, BookingRow>(concat!(
            "insert into booking.booking (booking_id, client_id, coach_id, slot_id, booking_date,
                 start_time, end_time, location_name, status, payment_status)
             values ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 'pending')
             returning ",
            booking_columns!()
        ))
        .bind(booking_id)
        .bind(booking.client_id.0)
        .bind(booking.coach_id.0)
        .bind(booking.slot_id.0)
        .bind(booking.booking_date)
        .bind(booking.start_time)
        .bind(booking.end_time)
        .bind(booking.location_name)
        .fetch_one(db)
        .await;
        match result {
            Ok(row) => return Ok(row),
            Err(e) if is_deadlock(&e) && attempts < 5 => continue,
            Err(e) if violated(&e, Violation::Unique, SLOT_TAKEN) => {
                return Err(Error::Conflict(
                    "This slot is already booked for that date. Please choose another date or slot.".into(),
                ));
            }
            Err(e) if violated(&e, Violation::Exclusion, OVERLAP) => {
                return Err(Error::Conflict(
                    "The coach already has a booking that overlaps this time on that date. \
                     Please choose another date or slot."
                        .into(),
                ));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// A client's bookings, by date then start time.
pub async fn bookings_of_client(
    db: impl PgExecutor<'_>,
    client_id: ClientId,
) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking where client_id = $1
          order by booking_date, start_time, created_at"
    ))
    .bind(client_id.0)
    .fetch_all(db)
    .await?)
}

/// The bookings with a coach, by date then start time.
pub async fn bookings_with_coach(
    db: impl PgExecutor<'_>,
    coach_id: CoachId,
) -> Result<Vec<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking where coach_id = $1
          order by booking_date, start_time, created_at"
    ))
    .bind(coach_id.0)
    .fetch_all(db)
    .await?)
}

fn statuses(list: &[Status]) -> Vec<&'static str> {
    list.iter().map(|s| s.as_str()).collect()
}

/// Applies a move in one conditional statement: the booking changes only if `by` is its coach
/// (or client, as the move requires) and it is in a status the move starts from, so concurrent
/// moves cannot both win. `None` when it did not change.
pub async fn transition(
    db: impl PgExecutor<'_>,
    booking_id: BookingId,
    by: Party,
    action: Action,
) -> Result<Option<BookingRow>, Error> {
    let query = match by {
        Party::Coach(coach_id) => sqlx::query_as::<_, BookingRow>(concat!(
            "update booking.booking set status = $4, updated_at = now()
             where booking_id = $1 and coach_id = $2 and status = any($3)
             returning ",
            booking_columns!()
        ))
        .bind(booking_id.0)
        .bind(coach_id.0),
        Party::Client(client_id) => sqlx::query_as::<_, BookingRow>(concat!(
            "update booking.booking set status = $4, updated_at = now()
             where booking_id = $1 and client_id = $2 and status = any($3)
             returning ",
            booking_columns!()
        ))
        .bind(booking_id.0)
        .bind(client_id.0),
    };
    Ok(query
        .bind(statuses(action.from()))
        .bind(action.to().as_str())
        .fetch_optional(db)
        .await?)
}

/// One booking, when it exists.
pub async fn booking_by_id(
    db: impl PgExecutor<'_>,
    booking_id: BookingId,
) -> Result<Option<BookingRow>, Error> {
    Ok(sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking where booking_id = $1"
    ))
    .bind(booking_id.0)
    .fetch_optional(db)
    .await?)
}

/// Every booking, or those where `user_id` is the client or the coach.
pub async fn count_bookings(db: impl PgExecutor<'_>, user_id: Option<Uuid>) -> Result<i64, Error> {
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(*) from booking.booking
         where $1::uuid is null or client_id = $1 or coach_id = $1",
    )
    .bind(user_id)
    .fetch_one(db)
    .await?)
}

/// Bookings made in each of the last 12 weeks (weeks start on Monday, UTC), oldest first, weeks
/// without any included.
pub async fn weekly_counts(db: impl PgExecutor<'_>) -> Result<Vec<(NaiveDate, i64)>, Error> {
    Ok(sqlx::query_as::<_, (NaiveDate, i64)>(
        // One range scan of the created_at index, grouped by week, then the empty weeks filled in.
        "with week as (
             select (date_trunc('week', now() at time zone 'utc') - make_interval(weeks => n))::date
                    as week_start
             from generate_series(0, 11) as n
         ),
         counted as (
             select date_trunc('week', created_at at time zone 'utc')::date as week_start,
                    count(*) as bookings
             from booking.booking
             where created_at >= (date_trunc('week', now() at time zone 'utc') - interval '11 weeks')
                                 at time zone 'utc'
             group by 1
         )
         select week.week_start, coalesce(counted.bookings, 0)
         from week
         left join counted using (week_start)
         order by week.week_start",
    )
    .fetch_all(db)
    .await?)
}

/// Records that an event was applied; false when it already was (then its effect must not be
/// applied again).
pub async fn mark_event_processed(db: impl PgExecutor<'_>, event_id: Uuid) -> Result<bool, Error> {
    let inserted =
        sqlx::query("insert into booking.processed_event (event_id) values ($1) on conflict do nothing")
            .bind(event_id)
            .execute(db)
            .await?
            .rows_affected();
    Ok(inserted == 1)
}

/// Cancels a client's pending and confirmed bookings; returns how many.
pub async fn cancel_open_bookings_of_client(
    db: impl PgExecutor<'_>,
    client_id: ClientId,
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "update booking.booking set status = 'cancelled', updated_at = now()
         where client_id = $1 and status in ('pending', 'confirmed')",
    )
    .bind(client_id.0)
    .execute(db)
    .await?
    .rows_affected())
}

/// Cancels the pending and confirmed bookings with a coach; returns how many.
pub async fn cancel_open_bookings_with_coach(
    db: impl PgExecutor<'_>,
    coach_id: CoachId,
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "update booking.booking set status = 'cancelled', updated_at = now()
         where coach_id = $1 and status in ('pending', 'confirmed')",
    )
    .bind(coach_id.0)
    .execute(db)
    .await?
    .rows_affected())
}
