//! Reviews: their statements and their writes. Each write of a review bumps its coach's review
//! revision first (`booking.coach_review_revision`, a row lock that queues the changes of one
//! coach's reviews), then writes, then reads the coach's figures (count and sum of the reviews
//! not hidden) and records them in a `coach_rating_changed` event in booking's outbox, all in one
//! transaction. coaching-svc keeps the figures of the highest revision it has seen and shows them
//! in the directory: the ratings travel as a copy refreshed by these events (ARCHITECTURE.md,
//! "Reviews"), so a directory page reads them in the same statement as the profiles. A new
//! review is also a `review_posted` event in the same transaction (its webhooks, issue 37).

use chrono::{DateTime, SecondsFormat, Utc};
use platform::{
    events::{Event, ReviewFact},
    outbox::envelope,
    pages::Page,
};
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use crate::{
    domain::{
        BookingId, ClientId, CoachId, Status,
        review::{Rating, Reviewed, may_edit, may_review},
    },
    error::Error,
    store,
};

/// A review row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ReviewRow {
    pub review_id: Uuid,
    pub booking_id: Uuid,
    pub coach_id: Uuid,
    pub client_id: Uuid,
    pub rating: i16,
    pub comment: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub reply: Option<String>,
    pub replied_at: Option<DateTime<Utc>>,
    pub hidden_at: Option<DateTime<Utc>>,
    pub hidden_reason: Option<String>,
}

macro_rules! review_columns {
    () => {
        "review_id, booking_id, coach_id, client_id, rating, comment, created_at, updated_at, \
         reply, replied_at, hidden_at, hidden_reason"
    };
}

/// Where a page of a coach's reviews starts: after this instant and review id, newest first.
pub type ReviewKeyset = (DateTime<Utc>, Uuid);

const ONE_PER_BOOKING: &str = "review_booking_key";

/// What a client says in a review.
pub struct Said {
    pub rating: Rating,
    pub comment: Option<String>,
}

/// The client and status of a booking, read `for share`: a move of the booking waits for the
/// review being written, and the other way round.
async fn reviewed_booking(tx: &mut PgConnection, booking_id: BookingId) -> Result<(Reviewed, Uuid), Error> {
    let row: Option<(Uuid, Uuid, String)> = sqlx::query_as(
        "select client_id, coach_id, status from booking.booking where booking_id = $1 for share",
    )
    .bind(booking_id.0)
    .fetch_optional(&mut *tx)
    .await?;
    let (client_id, coach_id, status) =
        row.ok_or_else(|| Error::NotFound("this booking does not exist".into()))?;
    let status: Status = status.parse()?;
    Ok((
        Reviewed {
            client_id: ClientId(client_id),
            status,
        },
        coach_id,
    ))
}

/// Bumps the coach's review revision (locking it until the transaction ends) and records their
/// figures after this transaction's change in a `coach_rating_changed` event.
async fn tell_figures(tx: &mut PgConnection, coach_id: Uuid) -> Result<(), Error> {
    let revision: i64 = sqlx::query_scalar(
        "insert into booking.coach_review_revision as r (coach_id, revision) values ($1, 1)
         on conflict (coach_id) do update set revision = r.revision + 1
         returning revision",
    )
    .bind(coach_id)
    .fetch_one(&mut *tx)
    .await?;
    let counted: Vec<i64> = sqlx::query_scalar(
        "select count(r.rating)::int8 from generate_series(1, 5) stars
         left join booking.review r
           on r.coach_id = $1 and r.hidden_at is null and r.rating = stars
         group by stars order by stars",
    )
    .bind(coach_id)
    .fetch_all(&mut *tx)
    .await?;
    let mut stars = [0i64; 5];
    stars.iter_mut().zip(&counted).for_each(|(kept, n)| *kept = *n);
    let event = envelope(Event::CoachRatingChanged {
        coach_id,
        rating_count: stars.iter().sum(),
        rating_sum: (1..).zip(stars).map(|(star, n)| star * n).sum(),
        stars,
        revision,
    });
    store::record_events(tx, &[event]).await
}

/// Posts the client's review of their completed booking at `now`.
pub async fn post(
    db: &PgPool,
    booking_id: BookingId,
    client: ClientId,
    said: Said,
    now: DateTime<Utc>,
) -> Result<ReviewRow, Error> {
    let mut tx = db.begin().await?;
    let (booking, coach_id) = reviewed_booking(&mut tx, booking_id).await?;
    may_review(booking, client)?;
    // The revision first: two reviews of one coach queue here, before either writes.
    bump_revision_lock(&mut tx, coach_id).await?;
    let inserted = sqlx::query_as::<_, ReviewRow>(concat!(
        "insert into booking.review (review_id, booking_id, coach_id, client_id, rating, comment,
             created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $7)
         returning ",
        review_columns!()
    ))
    .bind(Uuid::now_v7())
    .bind(booking_id.0)
    .bind(coach_id)
    .bind(client.0)
    .bind(said.rating.get())
    .bind(said.comment)
    .bind(now)
    .fetch_one(&mut *tx)
    .await;
    let row = match inserted {
        Ok(row) => row,
        Err(e)
            if platform::database::violated(&e, platform::database::Violation::Unique, ONE_PER_BOOKING) =>
        {
            return Err(Error::Conflict(
                "You have already reviewed this session; edit your review instead.".into(),
            ));
        }
        Err(e) => return Err(e.into()),
    };
    let posted = envelope(Event::ReviewPosted {
        review: ReviewFact {
            review_id: row.review_id,
            booking_id: row.booking_id,
            coach_id: row.coach_id,
            client_id: row.client_id,
            rating: row.rating,
            comment: row.comment.clone(),
            created_at: row.created_at.to_rfc3339_opts(SecondsFormat::Millis, true),
        },
    });
    store::record_events(&mut tx, &[posted]).await?;
    tell_figures(&mut tx, coach_id).await?;
    tx.commit().await?;
    Ok(row)
}

/// Takes the coach's revision row's lock without changing it (created when missing), so the
/// writes of one coach's reviews run one after the other.
async fn bump_revision_lock(tx: &mut PgConnection, coach_id: Uuid) -> Result<(), Error> {
    sqlx::query(
        "insert into booking.coach_review_revision as r (coach_id, revision) values ($1, 0)
         on conflict (coach_id) do update set revision = r.revision",
    )
    .bind(coach_id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The review of a booking, locked for this transaction.
async fn lock_review_of(tx: &mut PgConnection, booking_id: BookingId) -> Result<Option<ReviewRow>, Error> {
    Ok(sqlx::query_as::<_, ReviewRow>(concat!(
        "select ",
        review_columns!(),
        " from booking.review where booking_id = $1 for update"
    ))
    .bind(booking_id.0)
    .fetch_optional(&mut *tx)
    .await?)
}

/// Edits the client's review of their booking at `now`, within the edit window.
pub async fn edit(
    db: &PgPool,
    booking_id: BookingId,
    client: ClientId,
    said: Said,
    now: DateTime<Utc>,
) -> Result<ReviewRow, Error> {
    let mut tx = db.begin().await?;
    let (booking, coach_id) = reviewed_booking(&mut tx, booking_id).await?;
    if booking.client_id != client {
        return Err(Error::NotFound("this booking does not exist".into()));
    }
    bump_revision_lock(&mut tx, coach_id).await?;
    let review = lock_review_of(&mut tx, booking_id)
        .await?
        .ok_or_else(|| Error::NotFound("this session has no review yet; post one first".into()))?;
    may_edit(review.created_at, review.hidden_at.is_some(), now)?;
    let row = sqlx::query_as::<_, ReviewRow>(concat!(
        "update booking.review set rating = $2, comment = $3, updated_at = $4
         where review_id = $1
         returning ",
        review_columns!()
    ))
    .bind(review.review_id)
    .bind(said.rating.get())
    .bind(said.comment)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    tell_figures(&mut tx, coach_id).await?;
    tx.commit().await?;
    Ok(row)
}

/// The review of a booking, for its client or its coach (anyone else: as if there were none).
pub async fn of_booking(
    db: impl PgExecutor<'_>,
    booking_id: BookingId,
    user_id: Uuid,
) -> Result<ReviewRow, Error> {
    sqlx::query_as::<_, ReviewRow>(concat!(
        "select ",
        review_columns!(),
        " from booking.review where booking_id = $1 and (client_id = $2 or coach_id = $2)"
    ))
    .bind(booking_id.0)
    .bind(user_id)
    .fetch_optional(db)
    .await?
    .ok_or_else(|| Error::NotFound("this booking has no review".into()))
}

/// A page of a coach's reviews that are not hidden, newest first (one range of
/// `review_coach_page_idx`).
pub async fn of_coach(
    db: impl PgExecutor<'_>,
    coach_id: CoachId,
    page: &Page<ReviewKeyset>,
) -> Result<Vec<ReviewRow>, Error> {
    let after = page.after;
    Ok(sqlx::query_as::<_, ReviewRow>(concat!(
        "select ",
        review_columns!(),
        " from booking.review
          where coach_id = $1 and hidden_at is null
            and ($2::timestamptz is null or (created_at, review_id) < ($2, $3))
          order by created_at desc, review_id desc
          limit $4"
    ))
    .bind(coach_id.0)
    .bind(after.map(|(at, _)| at))
    .bind(after.map(|(_, id)| id))
    .bind(page.fetch())
    .fetch_all(db)
    .await?)
}

/// A page of every review, hidden ones too, newest first, for the admin (one range of
/// `review_admin_page_idx`).
pub async fn all(db: impl PgExecutor<'_>, page: &Page<ReviewKeyset>) -> Result<Vec<ReviewRow>, Error> {
    let after = page.after;
    Ok(sqlx::query_as::<_, ReviewRow>(concat!(
        "select ",
        review_columns!(),
        " from booking.review
          where ($1::timestamptz is null or (created_at, review_id) < ($1, $2))
          order by created_at desc, review_id desc
          limit $3"
    ))
    .bind(after.map(|(at, _)| at))
    .bind(after.map(|(_, id)| id))
    .bind(page.fetch())
    .fetch_all(db)
    .await?)
}

/// The coach's one reply to a review of theirs, at `now`.
pub async fn reply(
    db: &PgPool,
    review_id: Uuid,
    coach: CoachId,
    reply: String,
    now: DateTime<Utc>,
) -> Result<ReviewRow, Error> {
    let mut tx = db.begin().await?;
    let review = sqlx::query_as::<_, ReviewRow>(concat!(
        "select ",
        review_columns!(),
        " from booking.review where review_id = $1 for update"
    ))
    .bind(review_id)
    .fetch_optional(&mut *tx)
    .await?
    .filter(|r| r.coach_id == coach.0)
    .ok_or_else(|| Error::NotFound("this review does not exist".into()))?;
    if review.reply.is_some() {
        return Err(Error::Transition(
            "you have already replied to this review; a review gets one reply".into(),
        ));
    }
    if review.hidden_at.is_some() {
        return Err(Error::Transition(
            "this review was hidden by an administrator; it cannot be replied to".into(),
        ));
    }
    let row = sqlx::query_as::<_, ReviewRow>(concat!(
        "update booking.review set reply = $2, replied_at = $3 where review_id = $1 returning ",
        review_columns!()
    ))
    .bind(review_id)
    .bind(reply)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(row)
}

/// Hides a review with the admin's reason at `now`, recording who hid it; it leaves its coach's figures.
pub async fn hide(
    db: &PgPool,
    review_id: Uuid,
    admin_id: Uuid,
    reason: String,
    now: DateTime<Utc>,
) -> Result<ReviewRow, Error> {
    let mut tx = db.begin().await?;
    let coach_id: Uuid = sqlx::query_scalar("select coach_id from booking.review where review_id = $1")
        .bind(review_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::NotFound("this review does not exist".into()))?;
    bump_revision_lock(&mut tx, coach_id).await?;
    let row = sqlx::query_as::<_, ReviewRow>(concat!(
        "update booking.review set hidden_at = $2, hidden_reason = $3, hidden_by = $4
         where review_id = $1 and hidden_at is null
         returning ",
        review_columns!()
    ))
    .bind(review_id)
    .bind(now)
    .bind(reason)
    .bind(admin_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::Transition("this review is already hidden".into()))?;
    tell_figures(&mut tx, coach_id).await?;
    tx.commit().await?;
    Ok(row)
}
