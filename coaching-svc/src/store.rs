//! coaching's queries: one function per statement, schema-qualified, taking any executor.

use chrono::{NaiveDate, NaiveTime};
use platform::{
    database::{Violation, violated},
    instants::Zone,
};
use sqlx::{FromRow, PgExecutor, Row};
use uuid::Uuid;

use crate::{
    domain::{
        BookingPolicy, Coordinates, EARTH_RADIUS_MILES, NearbyQuery, NewLocation, NewSlot, NewTimeOff,
        PolicyUpdate, ProfileFields, SlotKind, SphereBox,
    },
    error::Error,
};

/// A coach_profile row.
#[derive(Clone, Debug, FromRow)]
pub struct ProfileRow {
    pub coach_id: Uuid,
    pub bio: String,
    pub specialties: Vec<String>,
    pub hourly_rate: f64,
    pub years_experience: i32,
    pub time_zone: String,
}

/// A location row.
#[derive(Clone, Debug, FromRow)]
pub struct LocationRow {
    pub location_id: Uuid,
    pub coach_id: Uuid,
    pub name: String,
    pub address: String,
    pub court_number: String,
    pub city: String,
    pub state: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    /// Null only for a row saved before zones were kept and not filled in yet (see
    /// `crate::zones`); a read derives it then.
    pub time_zone: Option<String>,
}

/// A slot row.
#[derive(Clone, Debug, FromRow)]
pub struct SlotRow {
    pub slot_id: Uuid,
    pub coach_id: Uuid,
    pub slot_type: String,
    pub day_of_week: Option<String>,
    pub specific_date: Option<NaiveDate>,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub location_id: Option<Uuid>,
}

/// One coach of the directory: the profile and the city and state of each location, oldest
/// first, with the distance to the nearest one in a nearby search.
#[derive(Clone, Debug, FromRow)]
pub struct ListingRow {
    pub coach_id: Uuid,
    pub years_experience: i32,
    pub specialties: Vec<String>,
    pub bio: String,
    pub hourly_rate: f64,
    pub cities: Vec<String>,
    pub states: Vec<String>,
    pub distance: Option<f64>,
    /// coaching's copy of the coach's name (None until the profile is saved or the coach renamed).
    pub coach_name: Option<String>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// The average of the coach's reviews, to one decimal; None without reviews.
    pub rating_average: Option<f64>,
    pub rating_count: i64,
}

/// The columns of [`ProfileRow`], [`LocationRow`] and [`SlotRow`], as literals so statements
/// stay `&'static str` (sqlx refuses dynamically built SQL).
macro_rules! profile_columns {
    () => {
        "coach_id, bio, specialties, hourly_rate, years_experience, time_zone"
    };
}
macro_rules! location_columns {
    () => {
        "location_id, coach_id, name, address, court_number, city, state, latitude, longitude, time_zone"
    };
}
macro_rules! slot_columns {
    () => {
        "slot_id, coach_id, slot_type, day_of_week, specific_date, start_time, end_time, location_id"
    };
}

/// The [`ListingRow`] columns but `distance`, over `coaching.coach_profile p`, each coach's
/// locations aggregated into arrays (one index probe per coach, no query per coach) and their
/// review figures (`coaching.coach_rating r`, one primary-key probe per coach), from
/// [`listing_locations`]'s joins.
macro_rules! listing_select {
    () => {
        concat!(
            "select p.coach_id, p.years_experience, p.specialties, p.bio, p.hourly_rate,
                    p.coach_name, p.created_at, loc.cities, loc.states, ",
            rating_average!(),
            ", coalesce(r.rating_count, 0) as rating_count"
        )
    };
}
/// The average of `coaching.coach_rating r` to one decimal, null without reviews.
macro_rules! rating_average {
    () => {
        "case when r.rating_count > 0
              then round(r.rating_sum::numeric / r.rating_count, 1)::float8 end as rating_average"
    };
}
macro_rules! listing_locations {
    () => {
        " cross join lateral (
              select coalesce(array_agg(l.city order by l.created_at, l.location_id), '{}') as cities,
                     coalesce(array_agg(l.state order by l.created_at, l.location_id), '{}') as states
              from coaching.location l
              where l.coach_id = p.coach_id
          ) loc
          left join coaching.coach_rating r on r.coach_id = p.coach_id "
    };
}

/// The coach's profile, if they have one.
pub async fn profile(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<Option<ProfileRow>, Error> {
    Ok(sqlx::query_as::<_, ProfileRow>(concat!(
        "select ",
        profile_columns!(),
        " from coaching.coach_profile where coach_id = $1"
    ))
    .bind(coach_id)
    .fetch_optional(db)
    .await?)
}

/// Creates the coach's profile; a second one is a conflict.
pub async fn insert_profile(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    fields: &ProfileFields,
    coach_name: Option<&str>,
) -> Result<ProfileRow, Error> {
    sqlx::query_as::<_, ProfileRow>(concat!(
        "insert into coaching.coach_profile
             (coach_id, bio, specialties, hourly_rate, years_experience, time_zone, coach_name)
         values ($1, $2, $3, $4, $5, $6, $7) returning ",
        profile_columns!()
    ))
    .bind(coach_id)
    .bind(&fields.bio)
    .bind(&fields.specialties)
    .bind(fields.hourly_rate)
    .bind(fields.years_experience)
    .bind(fields.time_zone.unwrap_or(ProfileFields::NEW_PROFILE_ZONE).name())
    .bind(coach_name)
    .fetch_one(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Unique, "coach_profile_pkey") {
            Error::Conflict("you already have a coach profile; edit it instead".into())
        } else {
            e.into()
        }
    })
}

/// Replaces the fields of the coach's profile (the zone only when one is given); None when there
/// is none.
pub async fn update_profile(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    fields: &ProfileFields,
    coach_name: Option<&str>,
) -> Result<Option<ProfileRow>, Error> {
    Ok(sqlx::query_as::<_, ProfileRow>(concat!(
        "update coaching.coach_profile
         set bio = $2, specialties = $3, hourly_rate = $4, years_experience = $5,
             time_zone = coalesce($6, time_zone), coach_name = coalesce($7, coach_name),
             updated_at = now()
         where coach_id = $1 returning ",
        profile_columns!()
    ))
    .bind(coach_id)
    .bind(&fields.bio)
    .bind(&fields.specialties)
    .bind(fields.hourly_rate)
    .bind(fields.years_experience)
    .bind(fields.time_zone.map(Zone::name))
    .bind(coach_name)
    .fetch_optional(db)
    .await?)
}

/// A coach's locations, oldest first.
pub async fn locations(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<Vec<LocationRow>, Error> {
    Ok(sqlx::query_as::<_, LocationRow>(concat!(
        "select ",
        location_columns!(),
        " from coaching.location where coach_id = $1 order by created_at, location_id"
    ))
    .bind(coach_id)
    .fetch_all(db)
    .await?)
}

/// How many locations the coach has.
pub async fn count_locations(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<i64, Error> {
    Ok(
        sqlx::query_scalar::<_, i64>("select count(*) from coaching.location where coach_id = $1")
            .bind(coach_id)
            .fetch_one(db)
            .await?,
    )
}

/// Inserts a location at `coordinates` (what the coach typed, or the gazetteer's), in `zone`.
pub async fn insert_location(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    location: &NewLocation,
    coordinates: Option<Coordinates>,
    zone: Zone,
) -> Result<LocationRow, Error> {
    Ok(sqlx::query_as::<_, LocationRow>(concat!(
        "insert into coaching.location
             (location_id, coach_id, name, address, court_number, city, state, latitude, longitude,
              time_zone)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ",
        location_columns!()
    ))
    .bind(Uuid::new_v4())
    .bind(coach_id)
    .bind(&location.name)
    .bind(&location.address)
    .bind(&location.court_number)
    .bind(&location.city)
    .bind(&location.state)
    .bind(coordinates.map(|c| c.latitude))
    .bind(coordinates.map(|c| c.longitude))
    .bind(zone.name())
    .fetch_one(db)
    .await?)
}

/// Up to `limit` locations saved before zones were kept, for `crate::zones` to fill in.
pub async fn locations_without_zone(db: impl PgExecutor<'_>, limit: i64) -> Result<Vec<LocationRow>, Error> {
    Ok(sqlx::query_as::<_, LocationRow>(concat!(
        "select ",
        location_columns!(),
        " from coaching.location where time_zone is null order by location_id limit $1"
    ))
    .bind(limit)
    .fetch_all(db)
    .await?)
}

/// Sets the zone of each location `ids[i]` to `zones[i]`, in one statement, where none is set
/// yet (a replica filling in beside this one changes nothing twice).
pub async fn fill_location_zones(
    db: impl PgExecutor<'_>,
    ids: &[Uuid],
    zones: &[String],
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "update coaching.location l set time_zone = f.zone
         from unnest($1::uuid[], $2::text[]) as f(location_id, zone)
         where l.location_id = f.location_id and l.time_zone is null",
    )
    .bind(ids)
    .bind(zones)
    .execute(db)
    .await?
    .rows_affected())
}

/// The columns of a booking policy row, in [`policy_of`]'s order.
macro_rules! policy_columns {
    () => {
        "min_notice_minutes, max_advance_days, response_window_minutes,
         cancellation_window_minutes, late_cancellation_fee_percent, no_show_fee_percent"
    };
}

type PolicyTuple = (i32, i32, i32, i32, i32, i32);

/// A coach's booking policy; None when they never set one (the defaults apply).
pub async fn booking_policy(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<Option<BookingPolicy>, Error> {
    Ok(sqlx::query_as::<_, PolicyTuple>(concat!(
        "select ",
        policy_columns!(),
        " from coaching.booking_policy where coach_id = $1"
    ))
    .bind(coach_id)
    .fetch_optional(db)
    .await?
    .map(policy_of))
}

fn policy_of(
    (
        min_notice_minutes,
        max_advance_days,
        response_window_minutes,
        cancellation_window_minutes,
        late_cancellation_fee_percent,
        no_show_fee_percent,
    ): PolicyTuple,
) -> BookingPolicy {
    BookingPolicy {
        min_notice_minutes,
        max_advance_days,
        response_window_minutes,
        cancellation_window_minutes,
        late_cancellation_fee_percent,
        no_show_fee_percent,
    }
}

/// Sets the coach's booking policy, whether or not they had one, in one statement: a fee the
/// update leaves out keeps the coach's current one (the default when they had no policy).
pub async fn upsert_booking_policy(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    update: &PolicyUpdate,
) -> Result<BookingPolicy, Error> {
    let defaults = BookingPolicy::DEFAULT;
    Ok(policy_of(
        sqlx::query_as::<_, PolicyTuple>(concat!(
            "insert into coaching.booking_policy
                 (coach_id, min_notice_minutes, max_advance_days, response_window_minutes,
                  cancellation_window_minutes, late_cancellation_fee_percent, no_show_fee_percent)
             values ($1, $2, $3, $4, $5, coalesce($6, $8), coalesce($7, $9))
             on conflict (coach_id) do update
             set min_notice_minutes = excluded.min_notice_minutes,
                 max_advance_days = excluded.max_advance_days,
                 response_window_minutes = excluded.response_window_minutes,
                 cancellation_window_minutes = excluded.cancellation_window_minutes,
                 late_cancellation_fee_percent =
                     coalesce($6, coaching.booking_policy.late_cancellation_fee_percent),
                 no_show_fee_percent = coalesce($7, coaching.booking_policy.no_show_fee_percent),
                 updated_at = now()
             returning ",
            policy_columns!()
        ))
        .bind(coach_id)
        .bind(update.min_notice_minutes)
        .bind(update.max_advance_days)
        .bind(update.response_window_minutes)
        .bind(update.cancellation_window_minutes)
        .bind(update.late_cancellation_fee_percent)
        .bind(update.no_show_fee_percent)
        .bind(defaults.late_cancellation_fee_percent)
        .bind(defaults.no_show_fee_percent)
        .fetch_one(db)
        .await?,
    ))
}

/// Deletes the coach's booking policy.
pub async fn delete_booking_policy(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<u64, Error> {
    Ok(
        sqlx::query("delete from coaching.booking_policy where coach_id = $1")
            .bind(coach_id)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

/// A coach's slots: recurring ones by weekday (Monday first) and start, then one-time ones by
/// date and start.
pub async fn slots(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<Vec<SlotRow>, Error> {
    Ok(sqlx::query_as::<_, SlotRow>(concat!(
        "select ",
        slot_columns!(),
        " from coaching.slot where coach_id = $1
          order by slot_type <> 'recurring',
                   array_position(array['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday',
                                        'Saturday', 'Sunday'], day_of_week),
                   specific_date, start_time, end_time, created_at, slot_id"
    ))
    .bind(coach_id)
    .fetch_all(db)
    .await?)
}

/// Inserts a slot; a location that is not the coach's own is refused by the database.
pub async fn insert_slot(db: impl PgExecutor<'_>, coach_id: Uuid, slot: &NewSlot) -> Result<SlotRow, Error> {
    let (day_of_week, specific_date) = match slot.kind {
        SlotKind::Recurring(day) => (Some(day.as_str()), None),
        SlotKind::OneTime(date) => (None, Some(date)),
    };
    sqlx::query_as::<_, SlotRow>(concat!(
        "insert into coaching.slot
             (slot_id, coach_id, slot_type, day_of_week, specific_date, start_time, end_time, location_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning ",
        slot_columns!()
    ))
    .bind(Uuid::new_v4())
    .bind(coach_id)
    .bind(slot.kind.slot_type())
    .bind(day_of_week)
    .bind(specific_date)
    .bind(slot.start_time)
    .bind(slot.end_time)
    .bind(slot.location_id)
    .fetch_one(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::ForeignKey, "slot_location_is_own") {
            Error::Invalid("location_id must be one of your own locations".into())
        } else {
            e.into()
        }
    })
}

/// Deletes the coach's own slot; false when the coach has no slot with this id.
pub async fn delete_slot(db: impl PgExecutor<'_>, coach_id: Uuid, slot_id: Uuid) -> Result<bool, Error> {
    let result = sqlx::query("delete from coaching.slot where slot_id = $1 and coach_id = $2")
        .bind(slot_id)
        .bind(coach_id)
        .execute(db)
        .await?;
    Ok(result.rows_affected() > 0)
}

/// A time_off row.
#[derive(Clone, Debug, FromRow)]
pub struct TimeOffRow {
    pub time_off_id: Uuid,
    pub coach_id: Uuid,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub reason: Option<String>,
}

/// Saves a coach's time off.
pub async fn insert_time_off(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    off: &NewTimeOff,
) -> Result<TimeOffRow, Error> {
    Ok(sqlx::query_as::<_, TimeOffRow>(
        "insert into coaching.time_off (time_off_id, coach_id, start_date, end_date, reason)
         values ($1, $2, $3, $4, $5)
         returning time_off_id, coach_id, start_date, end_date, reason",
    )
    .bind(Uuid::now_v7())
    .bind(coach_id)
    .bind(off.start_date)
    .bind(off.end_date)
    .bind(off.reason.as_deref())
    .fetch_one(db)
    .await?)
}

/// A coach's time off that ends on or after `from` and starts on or before `to`, soonest first.
pub async fn time_off_between(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<TimeOffRow>, Error> {
    Ok(sqlx::query_as::<_, TimeOffRow>(
        "select time_off_id, coach_id, start_date, end_date, reason from coaching.time_off
         where coach_id = $1 and end_date >= $2 and start_date <= $3
         order by start_date, end_date, time_off_id",
    )
    .bind(coach_id)
    .bind(from)
    .bind(to)
    .fetch_all(db)
    .await?)
}

/// Deletes the coach's own time off; false when the coach has none with this id.
pub async fn delete_time_off(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    time_off_id: Uuid,
) -> Result<bool, Error> {
    let result = sqlx::query("delete from coaching.time_off where time_off_id = $1 and coach_id = $2")
        .bind(time_off_id)
        .bind(coach_id)
        .execute(db)
        .await?;
    Ok(result.rows_affected() > 0)
}

/// Deletes every time off of a coach (one who is gone).
pub async fn delete_time_off_of(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<u64, Error> {
    Ok(sqlx::query("delete from coaching.time_off where coach_id = $1")
        .bind(coach_id)
        .execute(db)
        .await?
        .rows_affected())
}

/// What booking-svc reads with a slot: its location (when it has one), its coach's profile zone
/// and hourly rate (when they have a profile) and its coach's policy (None: the defaults).
#[derive(Clone, Debug)]
pub struct SlotSnapshot {
    pub slot: SlotRow,
    pub location: Option<LocationRow>,
    pub profile_zone: Option<String>,
    pub policy: Option<BookingPolicy>,
    /// The coach's hourly rate in whole cents, rounded half away from zero (0 without a profile).
    pub hourly_rate_cents: i64,
    /// The coach's time off that has not ended (GetSlot; empty in a schedule, which reads it apart).
    pub time_off: Vec<TimeOffRow>,
}

/// The columns of a slot with its location, its coach's profile zone and policy.
macro_rules! snapshot_columns {
    () => {
        "s.slot_id, s.coach_id, s.slot_type, s.day_of_week, s.specific_date, s.start_time,
         s.end_time, s.location_id,
         l.name, l.address, l.court_number, l.city, l.state, l.latitude, l.longitude,
         l.time_zone, p.time_zone as profile_zone,
         bp.min_notice_minutes, bp.max_advance_days, bp.response_window_minutes,
         bp.cancellation_window_minutes, bp.late_cancellation_fee_percent, bp.no_show_fee_percent,
         coalesce(round(p.hourly_rate::numeric * 100)::int8, 0) as hourly_rate_cents"
    };
}

macro_rules! snapshot_joins {
    () => {
        " from coaching.slot s
         left join coaching.location l on l.location_id = s.location_id
         left join coaching.coach_profile p on p.coach_id = s.coach_id
         left join coaching.booking_policy bp on bp.coach_id = s.coach_id"
    };
}

/// A slot with its location, its coach's profile zone, policy and time off that has not ended
/// (from yesterday in UTC on: today somewhere on earth), in one statement.
pub async fn slot_snapshot(db: impl PgExecutor<'_>, slot_id: Uuid) -> Result<Option<SlotSnapshot>, Error> {
    let row = sqlx::query(concat!(
        "select ",
        snapshot_columns!(),
        ",
         array(select t.time_off_id from coaching.time_off t
               where t.coach_id = s.coach_id and t.end_date >= current_date - 1
               order by t.start_date, t.time_off_id) as off_ids,
         array(select t.start_date from coaching.time_off t
               where t.coach_id = s.coach_id and t.end_date >= current_date - 1
               order by t.start_date, t.time_off_id) as off_starts,
         array(select t.end_date from coaching.time_off t
               where t.coach_id = s.coach_id and t.end_date >= current_date - 1
               order by t.start_date, t.time_off_id) as off_ends,
         array(select t.reason from coaching.time_off t
               where t.coach_id = s.coach_id and t.end_date >= current_date - 1
               order by t.start_date, t.time_off_id) as off_reasons",
        snapshot_joins!(),
        " where s.slot_id = $1"
    ))
    .bind(slot_id)
    .fetch_optional(db)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let ids: Vec<Uuid> = row.try_get("off_ids")?;
    let starts: Vec<NaiveDate> = row.try_get("off_starts")?;
    let ends: Vec<NaiveDate> = row.try_get("off_ends")?;
    let reasons: Vec<Option<String>> = row.try_get("off_reasons")?;
    let coach_id: Uuid = row.try_get("coach_id")?;
    let time_off = ids
        .into_iter()
        .zip(starts)
        .zip(ends)
        .zip(reasons)
        .map(|(((time_off_id, start_date), end_date), reason)| TimeOffRow {
            time_off_id,
            coach_id,
            start_date,
            end_date,
            reason,
        })
        .collect();
    snapshot_of(&row, time_off).map(Some)
}

/// A coach's slots, each with its location (when it has one), the coach's profile zone and
/// policy: what the bookable calendar needs of coaching, in one statement. The profile zone and
/// policy repeat on every row; a coach without slots gets no rows (and needs none).
pub async fn schedule(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<Vec<SlotSnapshot>, Error> {
    let rows = sqlx::query(concat!(
        "select ",
        snapshot_columns!(),
        snapshot_joins!(),
        " where s.coach_id = $1 order by s.slot_id"
    ))
    .bind(coach_id)
    .fetch_all(db)
    .await?;
    rows.iter().map(|row| snapshot_of(row, Vec::new())).collect()
}

fn snapshot_of(row: &sqlx::postgres::PgRow, time_off: Vec<TimeOffRow>) -> Result<SlotSnapshot, Error> {
    let slot = SlotRow::from_row(row)?;
    let location = match (slot.location_id, row.try_get::<Option<String>, _>("name")?) {
        (Some(location_id), Some(name)) => Some(LocationRow {
            location_id,
            coach_id: slot.coach_id,
            name,
            address: row.try_get("address")?,
            court_number: row.try_get("court_number")?,
            city: row.try_get("city")?,
            state: row.try_get("state")?,
            latitude: row.try_get("latitude")?,
            longitude: row.try_get("longitude")?,
            time_zone: row.try_get("time_zone")?,
        }),
        _ => None,
    };
    let policy = match (
        row.try_get::<Option<i32>, _>("min_notice_minutes")?,
        row.try_get::<Option<i32>, _>("max_advance_days")?,
        row.try_get::<Option<i32>, _>("response_window_minutes")?,
        row.try_get::<Option<i32>, _>("cancellation_window_minutes")?,
        row.try_get::<Option<i32>, _>("late_cancellation_fee_percent")?,
        row.try_get::<Option<i32>, _>("no_show_fee_percent")?,
    ) {
        (Some(a), Some(b), Some(c), Some(d), Some(e), Some(f)) => Some(policy_of((a, b, c, d, e, f))),
        _ => None,
    };
    Ok(SlotSnapshot {
        slot,
        location,
        profile_zone: row.try_get("profile_zone")?,
        policy,
        hourly_rate_cents: row.try_get("hourly_rate_cents")?,
        time_off,
    })
}

/// The directory's revision: it moves in the same transaction as every change a listing shows
/// (`coaching.directory_revision`, kept by triggers).
pub async fn directory_revision(db: impl PgExecutor<'_>) -> Result<i64, Error> {
    Ok(
        sqlx::query_scalar("select revision from coaching.directory_revision")
            .fetch_one(db)
            .await?,
    )
}

/// The whole directory, oldest profile first, in one statement.
pub async fn directory(db: impl PgExecutor<'_>) -> Result<Vec<ListingRow>, Error> {
    Ok(sqlx::query_as::<_, ListingRow>(concat!(
        listing_select!(),
        ", null::float8 as distance from coaching.coach_profile p",
        listing_locations!(),
        " order by p.created_at, p.coach_id"
    ))
    .fetch_all(db)
    .await?)
}

/// Coaches with a location in `city` and/or in one of `states` (lower-case forms), both on the
/// same location when both are given; case-insensitive.
pub async fn coaches_in(
    db: impl PgExecutor<'_>,
    city: Option<&str>,
    states: Option<&[String]>,
) -> Result<Vec<ListingRow>, Error> {
    Ok(sqlx::query_as::<_, ListingRow>(concat!(
        listing_select!(),
        ", null::float8 as distance from coaching.coach_profile p",
        listing_locations!(),
        "where exists (
             select 1 from coaching.location l
             where l.coach_id = p.coach_id
               and ($1::text is null or lower(l.city) = lower($1))
               and ($2::text[] is null or lower(l.state) = any($2))
         )
         order by p.created_at, p.coach_id"
    ))
    .bind(city)
    .bind(states)
    .fetch_all(db)
    .await?)
}

/// Coaches with a location within the radius, nearest first, each at the distance of their
/// nearest location. Candidates come from the spatial index (`location_sphere_idx`, the places as
/// points on the unit sphere) through the box around the circle, so a search reads about the
/// places it finds, however many coaches there are; the exact haversine distance then decides.
pub async fn coaches_near(db: impl PgExecutor<'_>, query: &NearbyQuery) -> Result<Vec<ListingRow>, Error> {
    let SphereBox { low, high } = query.sphere_box();
    Ok(sqlx::query_as::<_, ListingRow>(concat!(
        listing_select!(),
        ", near.distance
         from (
             select l.coach_id, min(d.miles) as distance
             from coaching.location l
             cross join lateral (
                 select 2 * $4 * asin(least(1, sqrt(
                     power(sin(radians(l.latitude - $1) / 2), 2)
                     + cos(radians($1)) * cos(radians(l.latitude))
                       * power(sin(radians(l.longitude - $2) / 2), 2)
                 ))) as miles
             ) d
             where l.latitude is not null
               and cube(array[cos(radians(l.latitude)) * cos(radians(l.longitude)),
                              cos(radians(l.latitude)) * sin(radians(l.longitude)),
                              sin(radians(l.latitude))])
                   <@ cube($5::float8[], $6::float8[])
               and d.miles <= $3
             group by l.coach_id
         ) near
         join coaching.coach_profile p on p.coach_id = near.coach_id",
        listing_locations!(),
        "order by near.distance, p.coach_id"
    ))
    .bind(query.latitude)
    .bind(query.longitude)
    .bind(query.radius_miles)
    .bind(EARTH_RADIUS_MILES)
    .bind(low.to_vec())
    .bind(high.to_vec())
    .fetch_all(db)
    .await?)
}

/// A coach's review figures.
#[derive(Clone, Debug, Default, FromRow)]
pub struct RatingRow {
    /// To one decimal; None without reviews.
    pub rating_average: Option<f64>,
    pub rating_count: i64,
    /// How many reviews gave one star, two, … five.
    pub stars: Vec<i64>,
}

/// The coach's review figures (none: no reviews).
pub async fn rating(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<RatingRow, Error> {
    Ok(sqlx::query_as::<_, RatingRow>(concat!(
        "select ",
        rating_average!(),
        ", r.rating_count, r.stars from coaching.coach_rating r where r.coach_id = $1"
    ))
    .bind(coach_id)
    .fetch_optional(db)
    .await?
    .unwrap_or_default())
}

/// Keeps a coach's review figures when `revision` is newer than the kept one; false when it is
/// not (a late or repeated event).
pub async fn put_rating(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    rating_count: i64,
    rating_sum: i64,
    stars: &[i64; 5],
    revision: i64,
) -> Result<bool, Error> {
    let result = sqlx::query(
        "insert into coaching.coach_rating as r (coach_id, rating_count, rating_sum, stars, revision)
         values ($1, $2, $3, $4, $5)
         on conflict (coach_id) do update
         set rating_count = excluded.rating_count, rating_sum = excluded.rating_sum,
             stars = excluded.stars, revision = excluded.revision
         where r.revision < excluded.revision",
    )
    .bind(coach_id)
    .bind(rating_count)
    .bind(rating_sum)
    .bind(&stars[..])
    .bind(revision)
    .execute(db)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Keeps the coach's new name, when they have a profile; false when they have none.
pub async fn rename_coach(db: impl PgExecutor<'_>, coach_id: Uuid, coach_name: &str) -> Result<bool, Error> {
    Ok(
        sqlx::query("update coaching.coach_profile set coach_name = $2 where coach_id = $1")
            .bind(coach_id)
            .bind(coach_name)
            .execute(db)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Records that an event was applied; false when it already was.
pub async fn record_event(db: impl PgExecutor<'_>, event_id: Uuid) -> Result<bool, Error> {
    let result =
        sqlx::query("insert into coaching.processed_event (event_id) values ($1) on conflict do nothing")
            .bind(event_id)
            .execute(db)
            .await?;
    Ok(result.rows_affected() == 1)
}

/// Deletes every slot of the coach.
pub async fn delete_slots_of(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<u64, Error> {
    Ok(sqlx::query("delete from coaching.slot where coach_id = $1")
        .bind(coach_id)
        .execute(db)
        .await?
        .rows_affected())
}

/// Deletes every location of the coach (after their slots, which refer to them).
pub async fn delete_locations_of(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<u64, Error> {
    Ok(sqlx::query("delete from coaching.location where coach_id = $1")
        .bind(coach_id)
        .execute(db)
        .await?
        .rows_affected())
}

/// Deletes the coach's profile.
pub async fn delete_profile(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<u64, Error> {
    Ok(
        sqlx::query("delete from coaching.coach_profile where coach_id = $1")
            .bind(coach_id)
            .execute(db)
            .await?
            .rows_affected(),
    )
}
