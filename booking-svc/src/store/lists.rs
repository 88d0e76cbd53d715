//! booking's list reads: a page of someone's bookings with their reviews, the times a coach's
//! bookings hold, and the counts of bookings (see [`super`]).

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use platform::pages::Page;
use sqlx::PgExecutor;
use uuid::Uuid;

use super::{BookingRow, booking_columns};
use crate::{
    domain::{ClientId, CoachId},
    error::Error,
};

/// Where a page of someone's bookings starts: after this date, start time and booking id, the
/// order of the lists (and of their indexes).
pub type BookingKeyset = (NaiveDate, NaiveTime, Uuid);

/// The bookings of one side of them, as a list shows them.
#[derive(Clone, Copy, Debug)]
pub enum Side {
    Client(ClientId),
    Coach(CoachId),
}

/// A booking of a list, with its review's columns (all null when it has none).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ListedRow {
    #[sqlx(flatten)]
    pub booking: BookingRow,
    pub review_id: Option<Uuid>,
    pub review_rating: Option<i16>,
    pub review_comment: Option<String>,
    pub review_created_at: Option<DateTime<Utc>>,
    pub review_updated_at: Option<DateTime<Utc>>,
    pub review_reply: Option<String>,
    pub review_replied_at: Option<DateTime<Utc>>,
    pub review_hidden_at: Option<DateTime<Utc>>,
    pub review_hidden_reason: Option<String>,
}

impl ListedRow {
    /// The booking's review, when it has one.
    pub fn review(&self) -> Option<crate::reviews::ReviewRow> {
        let b = &self.booking;
        Some(crate::reviews::ReviewRow {
            review_id: self.review_id?,
            booking_id: b.booking_id,
            coach_id: b.coach_id,
            client_id: b.client_id,
            rating: self.review_rating?,
            comment: self.review_comment.clone(),
            created_at: self.review_created_at?,
            updated_at: self.review_updated_at?,
            reply: self.review_reply.clone(),
            replied_at: self.review_replied_at,
            hidden_at: self.review_hidden_at,
            hidden_reason: self.review_hidden_reason.clone(),
        })
    }
}

/// The review columns of [`ListedRow`], over `booking.review r`.
macro_rules! listed_review_columns {
    () => {
        ", r.review_id, r.rating as review_rating, r.comment as review_comment,
           r.created_at as review_created_at, r.updated_at as review_updated_at,
           r.reply as review_reply, r.replied_at as review_replied_at,
           r.hidden_at as review_hidden_at, r.hidden_reason as review_hidden_reason"
    };
}

/// A page of the bookings of a client or with a coach, by date, start time and id (one index
/// range scan: `booking_client_page_idx` or `booking_coach_page_idx`), each with its review (a
/// probe of `review_booking_key` per row of the page), in one statement. The review is joined
/// laterally with `limit 1` (one review per booking at most): a plain join lets the planner hash
/// the whole review table for a long list, a cost that grows with every review on the platform
/// instead of with the rows asked for.
pub async fn bookings_of(
    db: impl PgExecutor<'_>,
    side: Side,
    page: &Page<BookingKeyset>,
) -> Result<Vec<ListedRow>, Error> {
    let (query, party) = match side {
        Side::Client(ClientId(id)) => (
            concat!(
                "select b.*",
                listed_review_columns!(),
                " from (select ",
                booking_columns!(),
                " from booking.booking where client_id = $1
                   and ($2::date is null or (booking_date, start_time, booking_id) > ($2, $3, $4))
                 order by booking_date, start_time, booking_id limit $5) b
                 left join lateral (select * from booking.review r
                                    where r.booking_id = b.booking_id limit 1) r on true
                 order by b.booking_date, b.start_time, b.booking_id"
            ),
            id,
        ),
        Side::Coach(CoachId(id)) => (
            concat!(
                "select b.*",
                listed_review_columns!(),
                " from (select ",
                booking_columns!(),
                " from booking.booking where coach_id = $1
                   and ($2::date is null or (booking_date, start_time, booking_id) > ($2, $3, $4))
                 order by booking_date, start_time, booking_id limit $5) b
                 left join lateral (select * from booking.review r
                                    where r.booking_id = b.booking_id limit 1) r on true
                 order by b.booking_date, b.start_time, b.booking_id"
            ),
            id,
        ),
    };
    let after = page.after;
    Ok(sqlx::query_as::<_, ListedRow>(query)
        .bind(party)
        .bind(after.map(|(date, _, _)| date))
        .bind(after.map(|(_, time, _)| time))
        .bind(after.map(|(_, _, id)| id))
        .bind(page.fetch())
        .fetch_all(db)
        .await?)
}

/// An active booking of a coach as the calendar and a time off's conflicts see it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct HeldRow {
    pub booking_id: Uuid,
    pub booking_date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
}

/// The coach's bookings that hold their date and times at `now`, from `from` to `to` (local
/// dates, inclusive), by date and start: pending or confirmed, less the pending ones whose expiry
/// is due (a new booking writes that expiry and takes the time). One index range scan
/// (`booking_coach_idx`).
pub async fn held_between(
    db: impl PgExecutor<'_>,
    coach_id: CoachId,
    from: NaiveDate,
    to: NaiveDate,
    now: DateTime<Utc>,
) -> Result<Vec<HeldRow>, Error> {
    Ok(sqlx::query_as::<_, HeldRow>(
        "select booking_id, booking_date, start_time, end_time from booking.booking
         where coach_id = $1 and booking_date between $2 and $3
           and status in ('pending', 'confirmed')
           and not (status = 'pending' and expires_at <= $4)
         order by booking_date, start_time, booking_id",
    )
    .bind(coach_id.0)
    .bind(from)
    .bind(to)
    .bind(now)
    .fetch_all(db)
    .await?)
}

/// Every booking (from the counters the migration's triggers keep in step with every write: at
/// most 16 rows, whatever the number of bookings), or those where `user_id` is the client or the
/// coach (two index ranges).
pub async fn count_bookings(db: impl PgExecutor<'_>, user_id: Option<Uuid>) -> Result<i64, Error> {
    let Some(user_id) = user_id else {
        return Ok(sqlx::query_scalar::<_, i64>(
            "select coalesce(sum(bookings), 0)::int8 from booking.booking_count",
        )
        .fetch_one(db)
        .await?);
    };
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(*) from booking.booking where client_id = $1 or coach_id = $1",
    )
    .bind(user_id)
    .fetch_one(db)
    .await?)
}

/// Bookings made in each of the last 12 weeks (weeks start on Monday, UTC), oldest first, weeks
/// without any included: from the weekly counters (at most 16 rows a week), never the bookings.
pub async fn weekly_counts(db: impl PgExecutor<'_>) -> Result<Vec<(NaiveDate, i64)>, Error> {
    Ok(sqlx::query_as::<_, (NaiveDate, i64)>(
        "with week as (
             select (date_trunc('week', now() at time zone 'utc') - make_interval(weeks => n))::date
                    as week_start
             from generate_series(0, 11) as n
         )
         select week.week_start,
                coalesce((select sum(c.bookings) from booking.booking_week c
                          where c.week_start = week.week_start), 0)::int8
         from week
         order by week.week_start",
    )
    .fetch_all(db)
    .await?)
}
