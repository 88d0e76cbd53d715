//! gym's queries: one function per statement, schema-qualified, taking any executor (a pool, a
//! connection or an open transaction).
//!
//! gym_name on locations and reservations is this context's own (the gym profile), joined at
//! read time; coach names are never stored here (the gateway resolves them from identity-svc).

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use platform::{
    database::{Violation, violated},
    instants::Zone,
    pages::Page,
};
use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{
    domain::{CourtInstants, CourtTime, GymProfileFields, NewCourt, NewLocation, ReservationStatus},
    error::Error,
};

/// Where a location is, as far as its zone goes: the zone it keeps, and what derives one for a
/// row saved before zones were kept and not filled in yet (`crate::zones`).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Place {
    pub time_zone: Option<String>,
    pub city: String,
    pub state: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
}

impl Place {
    /// The place's zone: kept, else derived (`crate::zones::derived_zone`).
    pub fn zone(&self) -> Zone {
        self.time_zone
            .as_deref()
            .and_then(|name| name.parse().ok())
            .unwrap_or_else(|| crate::zones::derived_zone(self))
    }
}

/// A gym profile row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ProfileRow {
    pub gym_id: Uuid,
    pub gym_name: String,
    pub description: String,
    pub phone: String,
}

/// A gym location with its gym's name.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct LocationRow {
    pub location_id: Uuid,
    pub gym_id: Uuid,
    pub gym_name: String,
    pub name: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub time_zone: Option<String>,
}

impl LocationRow {
    pub fn place(&self) -> Place {
        Place {
            time_zone: self.time_zone.clone(),
            city: self.city.clone(),
            state: self.state.clone(),
            latitude: self.latitude,
            longitude: self.longitude,
        }
    }
}

/// A court row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CourtRow {
    pub court_id: Uuid,
    pub location_id: Uuid,
    pub court_name: String,
    pub court_type: String,
}

/// Court availability with the names of its court and location.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AvailabilityRow {
    pub availability_id: Uuid,
    pub court_id: Uuid,
    pub location_id: Uuid,
    pub date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub is_reserved: bool,
    pub location_name: String,
    pub court_name: String,
    /// The approved reservation holding it, if any.
    pub reservation_id: Option<Uuid>,
    #[sqlx(flatten)]
    pub place: Place,
}

impl AvailabilityRow {
    pub fn instants(&self) -> CourtInstants {
        CourtInstants::new(self.place.zone(), self.date, self.start_time, self.end_time)
    }
}

/// What decides whether court time is open to requests.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AvailabilityState {
    pub date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub is_reserved: bool,
    pub withdrawn: bool,
    #[sqlx(flatten)]
    pub place: Place,
}

impl AvailabilityState {
    pub fn instants(&self) -> CourtInstants {
        CourtInstants::new(self.place.zone(), self.date, self.start_time, self.end_time)
    }
}

/// A court reservation with the gym, location and court it is for.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ReservationRow {
    pub reservation_id: Uuid,
    pub availability_id: Uuid,
    pub coach_id: Uuid,
    /// The gym that owns the court: the one that may approve or deny.
    pub gym_id: Uuid,
    pub gym_name: String,
    pub location_name: String,
    pub court_name: String,
    pub date: NaiveDate,
    pub start_time: NaiveTime,
    pub end_time: NaiveTime,
    pub status: String,
    pub cancellation_reason: Option<String>,
    /// When the coach asked: the order of the coach's list.
    pub created_at: DateTime<Utc>,
    #[sqlx(flatten)]
    pub place: Place,
}

impl ReservationRow {
    pub fn instants(&self) -> CourtInstants {
        CourtInstants::new(self.place.zone(), self.date, self.start_time, self.end_time)
    }
}

// Shared SQL fragments, as macros so statements stay `&'static str` literals (sqlx refuses
// dynamically built SQL).

/// The gym's name, or "Unnamed gym" while it has no profile (`p` is the left-joined profile).
macro_rules! gym_name {
    () => {
        "coalesce(p.gym_name, 'Unnamed gym') as gym_name"
    };
}

/// [`LocationRow`] from location `l` and its left-joined profile.
macro_rules! location_select {
    () => {
        concat!(
            "select l.location_id, l.gym_id, ",
            gym_name!(),
            ", l.name, l.address, l.city, l.state, l.latitude, l.longitude, l.time_zone
             from l left join gym.gym_profile p on p.gym_id = l.gym_id"
        )
    };
}

/// [`AvailabilityRow`] from availability `a` with its court and location.
macro_rules! availability_select {
    () => {
        "select a.availability_id, a.court_id, c.location_id, a.date, a.start_time, a.end_time,
                a.is_reserved, l.name as location_name, c.court_name,
                l.time_zone, l.city, l.state, l.latitude, l.longitude,
                (select r.reservation_id from gym.court_reservation r
                 where r.availability_id = a.availability_id and r.status = 'approved') as reservation_id
         from a
         join gym.court c on c.court_id = a.court_id
         join gym.gym_location l on l.location_id = c.location_id"
    };
}

/// [`ReservationRow`] from reservation `r` with its availability, court, location and gym.
macro_rules! reservation_select {
    () => {
        concat!(
            "select r.reservation_id, r.availability_id, r.coach_id, l.gym_id, ",
            gym_name!(),
            ", l.name as location_name, c.court_name, a.date, a.start_time, a.end_time, r.status,
                r.cancellation_reason, r.created_at, l.time_zone, l.city, l.state, l.latitude,
                l.longitude
             from gym.court_reservation r
             join gym.court_availability a on a.availability_id = r.availability_id
             join gym.court c on c.court_id = a.court_id
             join gym.gym_location l on l.location_id = c.location_id
             left join gym.gym_profile p on p.gym_id = l.gym_id"
        )
    };
}

/// [`AvailabilityState`] of availability `$1`, with its location's place.
macro_rules! availability_state {
    () => {
        "select a.date, a.start_time, a.end_time, a.is_reserved, a.withdrawn,
                l.time_zone, l.city, l.state, l.latitude, l.longitude
         from gym.court_availability a
         join gym.court c on c.court_id = a.court_id
         join gym.gym_location l on l.location_id = c.location_id
         where a.availability_id = $1"
    };
}

// Profiles.

pub async fn profile(db: impl PgExecutor<'_>, gym_id: Uuid) -> Result<Option<ProfileRow>, Error> {
    Ok(sqlx::query_as::<_, ProfileRow>(
        "select gym_id, gym_name, description, phone from gym.gym_profile where gym_id = $1",
    )
    .bind(gym_id)
    .fetch_optional(db)
    .await?)
}

pub async fn insert_profile(
    db: impl PgExecutor<'_>,
    gym_id: Uuid,
    fields: &GymProfileFields,
) -> Result<ProfileRow, Error> {
    sqlx::query_as::<_, ProfileRow>(
        "insert into gym.gym_profile (gym_id, gym_name, description, phone) values ($1, $2, $3, $4)
         returning gym_id, gym_name, description, phone",
    )
    .bind(gym_id)
    .bind(fields.gym_name.as_str())
    .bind(fields.description.as_str())
    .bind(fields.phone.as_str())
    .fetch_one(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Unique, "gym_profile_pkey") {
            Error::Conflict("this gym already has a profile; update it instead".into())
        } else {
            e.into()
        }
    })
}

/// The updated profile, or None when the gym has none.
pub async fn update_profile(
    db: impl PgExecutor<'_>,
    gym_id: Uuid,
    fields: &GymProfileFields,
) -> Result<Option<ProfileRow>, Error> {
    Ok(sqlx::query_as::<_, ProfileRow>(
        "update gym.gym_profile set gym_name = $2, description = $3, phone = $4, updated_at = now()
         where gym_id = $1
         returning gym_id, gym_name, description, phone",
    )
    .bind(gym_id)
    .bind(fields.gym_name.as_str())
    .bind(fields.description.as_str())
    .bind(fields.phone.as_str())
    .fetch_optional(db)
    .await?)
}

// Locations.

/// Every listed location of every gym, oldest first.
pub async fn all_locations(db: impl PgExecutor<'_>) -> Result<Vec<LocationRow>, Error> {
    Ok(sqlx::query_as::<_, LocationRow>(concat!(
        "with l as (select * from gym.gym_location where not delisted) ",
        location_select!(),
        " order by l.created_at, l.location_id"
    ))
    .fetch_all(db)
    .await?)
}

/// One gym's listed locations, oldest first.
pub async fn gym_locations(db: impl PgExecutor<'_>, gym_id: Uuid) -> Result<Vec<LocationRow>, Error> {
    Ok(sqlx::query_as::<_, LocationRow>(concat!(
        "with l as (select * from gym.gym_location where gym_id = $1 and not delisted) ",
        location_select!(),
        " order by l.created_at, l.location_id"
    ))
    .bind(gym_id)
    .fetch_all(db)
    .await?)
}

/// Inserts a location in `zone`.
pub async fn insert_location(
    db: impl PgExecutor<'_>,
    gym_id: Uuid,
    location: &NewLocation,
    zone: Zone,
) -> Result<LocationRow, Error> {
    Ok(sqlx::query_as::<_, LocationRow>(concat!(
        "with l as (
             insert into gym.gym_location
                 (location_id, gym_id, name, address, city, state, latitude, longitude, time_zone)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             returning *
         ) ",
        location_select!()
    ))
    .bind(Uuid::new_v4())
    .bind(gym_id)
    .bind(location.name.as_str())
    .bind(location.address.as_str())
    .bind(location.city.as_str())
    .bind(location.state.as_str())
    .bind(location.latitude)
    .bind(location.longitude)
    .bind(zone.name())
    .fetch_one(db)
    .await?)
}

/// Up to `limit` locations saved without a zone, for `crate::zones` to fill in: (id, place).
pub async fn locations_without_zone(
    db: impl PgExecutor<'_>,
    limit: i64,
) -> Result<Vec<(Uuid, Place)>, Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        location_id: Uuid,
        #[sqlx(flatten)]
        place: Place,
    }
    Ok(sqlx::query_as::<_, Row>(
        "select location_id, time_zone, city, state, latitude, longitude from gym.gym_location
         where time_zone is null order by location_id limit $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await?
    .into_iter()
    .map(|row| (row.location_id, row.place))
    .collect())
}

/// Sets the zone of location `ids[i]` to `zones[i]` where none is set yet, in one statement.
pub async fn fill_location_zones(
    db: impl PgExecutor<'_>,
    ids: &[Uuid],
    zones: &[String],
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "update gym.gym_location l set time_zone = f.zone
         from unnest($1::uuid[], $2::text[]) as f(location_id, zone)
         where l.location_id = f.location_id and l.time_zone is null",
    )
    .bind(ids)
    .bind(zones)
    .execute(db)
    .await?
    .rows_affected())
}

/// Up to `limit` reservations made before they knew when they are due, with their court time:
/// (id, date, start time, place).
pub async fn reservations_without_due(
    db: impl PgExecutor<'_>,
    limit: i64,
) -> Result<Vec<(Uuid, NaiveDate, NaiveTime, Place)>, Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        reservation_id: Uuid,
        date: NaiveDate,
        start_time: NaiveTime,
        #[sqlx(flatten)]
        place: Place,
    }
    Ok(sqlx::query_as::<_, Row>(
        "select r.reservation_id, a.date, a.start_time,
                l.time_zone, l.city, l.state, l.latitude, l.longitude
         from gym.court_reservation r
         join gym.court_availability a on a.availability_id = r.availability_id
         join gym.court c on c.court_id = a.court_id
         join gym.gym_location l on l.location_id = c.location_id
         where r.expires_at is null
         order by r.reservation_id
         limit $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await?
    .into_iter()
    .map(|row| (row.reservation_id, row.date, row.start_time, row.place))
    .collect())
}

/// Sets when reservation `ids[i]` is due to `due[i]` where it is not set yet, in one statement.
pub async fn fill_reservation_due(
    db: impl PgExecutor<'_>,
    ids: &[Uuid],
    due: &[DateTime<Utc>],
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "update gym.court_reservation r set expires_at = f.due
         from unnest($1::uuid[], $2::timestamptz[]) as f(reservation_id, due)
         where r.reservation_id = f.reservation_id and r.expires_at is null",
    )
    .bind(ids)
    .bind(due)
    .execute(db)
    .await?
    .rows_affected())
}

pub async fn count_locations(db: impl PgExecutor<'_>, gym_id: Uuid) -> Result<i64, Error> {
    Ok(sqlx::query_scalar::<_, i64>(
        "select count(*) from gym.gym_location where gym_id = $1 and not delisted",
    )
    .bind(gym_id)
    .fetch_one(db)
    .await?)
}

/// The gym that owns a listed location, or None when there is no such location.
pub async fn location_gym(db: impl PgExecutor<'_>, location_id: Uuid) -> Result<Option<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "select gym_id from gym.gym_location where location_id = $1 and not delisted",
    )
    .bind(location_id)
    .fetch_optional(db)
    .await?)
}

// Courts.

/// A listed location's courts, oldest first, in one statement; `None` when there is no such
/// location (or it was delisted).
pub async fn listed_location_courts(
    db: impl PgExecutor<'_>,
    location_id: Uuid,
) -> Result<Option<Vec<CourtRow>>, Error> {
    let rows = sqlx::query_as::<_, (Option<Uuid>, Option<String>, Option<String>)>(
        "select c.court_id, c.court_name, c.court_type
         from gym.gym_location l
         left join gym.court c on c.location_id = l.location_id
         where l.location_id = $1 and not l.delisted
         order by c.created_at, c.court_id",
    )
    .bind(location_id)
    .fetch_all(db)
    .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    // A location without courts comes back as one row of nulls.
    Ok(Some(
        rows.into_iter()
            .filter_map(|(court_id, court_name, court_type)| {
                Some(CourtRow {
                    court_id: court_id?,
                    location_id,
                    court_name: court_name?,
                    court_type: court_type?,
                })
            })
            .collect(),
    ))
}

pub async fn insert_court(
    db: impl PgExecutor<'_>,
    location_id: Uuid,
    court: &NewCourt,
) -> Result<CourtRow, Error> {
    Ok(sqlx::query_as::<_, CourtRow>(
        "insert into gym.court (court_id, location_id, court_name, court_type) values ($1, $2, $3, $4)
         returning court_id, location_id, court_name, court_type",
    )
    .bind(Uuid::new_v4())
    .bind(location_id)
    .bind(court.court_name.as_str())
    .bind(court.court_type.as_str())
    .fetch_one(db)
    .await?)
}

/// The gym that owns a court at a listed location, or None when there is no such court.
pub async fn court_gym(db: impl PgExecutor<'_>, court_id: Uuid) -> Result<Option<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "select l.gym_id from gym.court c join gym.gym_location l on l.location_id = c.location_id
         where c.court_id = $1 and not l.delisted",
    )
    .bind(court_id)
    .fetch_optional(db)
    .await?)
}

// Court availability.

/// Offers court time; overlapping time of the same court is refused by the database.
pub async fn insert_availability(
    db: impl PgExecutor<'_>,
    court_id: Uuid,
    time: &CourtTime,
) -> Result<AvailabilityRow, Error> {
    sqlx::query_as::<_, AvailabilityRow>(concat!(
        "with a as (
             insert into gym.court_availability (availability_id, court_id, date, start_time, end_time)
             values ($1, $2, $3, $4, $5)
             returning *
         ) ",
        availability_select!()
    ))
    .bind(Uuid::new_v4())
    .bind(court_id)
    .bind(time.date)
    .bind(time.start_time)
    .bind(time.end_time)
    .fetch_one(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Exclusion, "court_availability_no_overlap") {
            Error::Conflict("this court already has availability overlapping that time".into())
        } else {
            e.into()
        }
    })
}

/// Where a page of a gym's court availability starts: after this date, start time, court name
/// and availability id, the list's order.
pub type AvailabilityKeyset = (NaiveDate, NaiveTime, String, Uuid);

/// Everything a gym offers on its own courts (reserved or not), by date and time, from `page`'s
/// keyset on, at most its limit plus one (all of it without a limit). One statement; a page reads
/// the gym's own court time, never another gym's.
pub async fn gym_availability(
    db: impl PgExecutor<'_>,
    gym_id: Uuid,
    page: &Page<AvailabilityKeyset>,
) -> Result<Vec<AvailabilityRow>, Error> {
    let after = page.after.as_ref();
    Ok(sqlx::query_as::<_, AvailabilityRow>(concat!(
        "with a as (select * from gym.court_availability where not withdrawn) ",
        availability_select!(),
        " where l.gym_id = $1
            and ($2::date is null
                 or (a.date, a.start_time) >= ($2, $3)
                    and (a.date, a.start_time, c.court_name, a.availability_id) > ($2, $3, $4, $5))
          order by a.date, a.start_time, c.court_name, a.availability_id
          limit $6"
    ))
    .bind(gym_id)
    .bind(after.map(|(date, ..)| *date))
    .bind(after.map(|(_, time, ..)| *time))
    .bind(after.map(|(_, _, court, _)| court.as_str()))
    .bind(after.map(|(.., id)| *id))
    .bind(page.fetch())
    .fetch_all(db)
    .await?)
}

/// The court time at a listed location that may still be open to requests (offered, unreserved,
/// dated `from` on: the caller keeps what starts after now, which needs the zone), in date and
/// time order, in one statement; `None` when there is no such location (or it was delisted).
pub async fn listed_open_availability(
    db: impl PgExecutor<'_>,
    location_id: Uuid,
    from: NaiveDate,
) -> Result<Option<Vec<AvailabilityRow>>, Error> {
    /// A location without open court time comes back as one row whose court time is null.
    #[derive(sqlx::FromRow)]
    struct Open {
        location_name: String,
        #[sqlx(flatten)]
        place: Place,
        availability_id: Option<Uuid>,
        court_id: Option<Uuid>,
        date: Option<NaiveDate>,
        start_time: Option<NaiveTime>,
        end_time: Option<NaiveTime>,
        court_name: Option<String>,
    }
    let rows = sqlx::query_as::<_, Open>(
        "select l.name as location_name, o.availability_id, o.court_id, o.date, o.start_time,
                o.end_time, o.court_name, l.time_zone, l.city, l.state, l.latitude, l.longitude
         from gym.gym_location l
         left join lateral (
             select a.availability_id, a.court_id, a.date, a.start_time, a.end_time, c.court_name
             from gym.court c
             join gym.court_availability a on a.court_id = c.court_id
             where c.location_id = l.location_id
               and not a.withdrawn and not a.is_reserved and a.date >= $2
               and not exists (
                   select 1 from gym.closure z
                   where z.location_id = l.location_id and a.date between z.start_date and z.end_date
               )
         ) o on true
         where l.location_id = $1 and not l.delisted
         order by o.date, o.start_time, o.court_name, o.availability_id",
    )
    .bind(location_id)
    .bind(from)
    .fetch_all(db)
    .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    Ok(Some(
        rows.into_iter()
            .filter_map(|open| {
                Some(AvailabilityRow {
                    availability_id: open.availability_id?,
                    court_id: open.court_id?,
                    location_id,
                    date: open.date?,
                    start_time: open.start_time?,
                    end_time: open.end_time?,
                    is_reserved: false,
                    location_name: open.location_name,
                    court_name: open.court_name?,
                    reservation_id: None,
                    place: open.place,
                })
            })
            .collect(),
    ))
}

/// The state of court time, share-locked so an approval cannot reserve it until the caller's
/// transaction ends (a request then never slips in beside an approval).
pub async fn availability_for_request(
    db: impl PgExecutor<'_>,
    availability_id: Uuid,
) -> Result<Option<AvailabilityState>, Error> {
    Ok(
        // The location too: a closure being made (which locks it for update) and a request wait
        // for each other, so no request slips onto the dates of a closure as it is made.
        sqlx::query_as::<_, AvailabilityState>(concat!(availability_state!(), " for share of a, l"))
            .bind(availability_id)
            .fetch_optional(db)
            .await?,
    )
}

/// The state of court time, locked for the rest of the caller's transaction: approvals of one
/// availability run one after another.
pub async fn lock_availability(
    db: impl PgExecutor<'_>,
    availability_id: Uuid,
) -> Result<Option<AvailabilityState>, Error> {
    Ok(
        sqlx::query_as::<_, AvailabilityState>(concat!(availability_state!(), " for update of a"))
            .bind(availability_id)
            .fetch_optional(db)
            .await?,
    )
}

/// The state of court time about to be approved, locked for the rest of the caller's
/// transaction: approvals of one availability run one after another, and its location is
/// share-locked as a request's is, so a closure being made (which locks the location for update)
/// and an approval wait for each other: no approval lands on the dates of a closure as it is made.
pub async fn lock_availability_to_approve(
    db: impl PgExecutor<'_>,
    availability_id: Uuid,
) -> Result<Option<AvailabilityState>, Error> {
    Ok(sqlx::query_as::<_, AvailabilityState>(concat!(
        availability_state!(),
        " for update of a for share of l"
    ))
    .bind(availability_id)
    .fetch_optional(db)
    .await?)
}

pub async fn mark_reserved(db: impl PgExecutor<'_>, availability_id: Uuid) -> Result<(), Error> {
    sqlx::query("update gym.court_availability set is_reserved = true where availability_id = $1")
        .bind(availability_id)
        .execute(db)
        .await?;
    Ok(())
}

/// Opens court time to requests again (its reservation was cancelled).
pub async fn mark_unreserved(db: impl PgExecutor<'_>, availability_id: Uuid) -> Result<(), Error> {
    sqlx::query("update gym.court_availability set is_reserved = false where availability_id = $1")
        .bind(availability_id)
        .execute(db)
        .await?;
    Ok(())
}

// Reservations.

/// A new pending request; a second pending request of one coach for one availability is refused
/// by the database.
/// Inserts a pending request, with the coach's idempotency key when the request carried one.
pub async fn insert_reservation(
    db: impl PgExecutor<'_>,
    availability_id: Uuid,
    coach_id: Uuid,
    expires_at: DateTime<Utc>,
    idempotency_key: Option<&str>,
) -> Result<Uuid, Error> {
    sqlx::query_scalar::<_, Uuid>(
        "insert into gym.court_reservation
             (reservation_id, availability_id, coach_id, status, expires_at, idempotency_key)
         values ($1, $2, $3, 'pending', $4, $5) returning reservation_id",
    )
    .bind(Uuid::new_v4())
    .bind(availability_id)
    .bind(coach_id)
    .bind(expires_at)
    .bind(idempotency_key)
    .fetch_one(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Unique, "court_reservation_coach_idempotency_key") {
            Error::Conflict("a court request was already made with this Idempotency-Key".into())
        } else if violated(&e, Violation::Unique, "court_reservation_one_pending_per_coach") {
            Error::Conflict("you already have a pending request for this court time".into())
        } else {
            e.into()
        }
    })
}

/// The id of the request a coach made with an idempotency key, and the availability it asked for.
pub async fn reservation_by_key(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    key: &str,
) -> Result<Option<(Uuid, Uuid)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, Uuid)>(
        "select reservation_id, availability_id from gym.court_reservation
          where coach_id = $1 and idempotency_key = $2",
    )
    .bind(coach_id)
    .bind(key)
    .fetch_optional(db)
    .await?)
}

pub async fn reservation(
    db: impl PgExecutor<'_>,
    reservation_id: Uuid,
) -> Result<Option<ReservationRow>, Error> {
    Ok(
        sqlx::query_as::<_, ReservationRow>(concat!(reservation_select!(), " where r.reservation_id = $1"))
            .bind(reservation_id)
            .fetch_optional(db)
            .await?,
    )
}

/// The reservations with these ids (any order), in one statement.
pub async fn reservations(db: impl PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<ReservationRow>, Error> {
    Ok(sqlx::query_as::<_, ReservationRow>(concat!(
        reservation_select!(),
        " where r.reservation_id = any($1)"
    ))
    .bind(ids)
    .fetch_all(db)
    .await?)
}

/// Where a page of a coach's reservations starts: after the request made at this instant with
/// this id, the list's order (newest first, then by id).
pub type CoachReservationKeyset = (DateTime<Utc>, Uuid);

/// A coach's reservations, newest request first, from `page`'s keyset on, at most its limit plus
/// one (all of them without a limit): one range of `court_reservation_coach_page_idx`.
pub async fn coach_reservations(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    page: &Page<CoachReservationKeyset>,
) -> Result<Vec<ReservationRow>, Error> {
    let after = page.after;
    Ok(sqlx::query_as::<_, ReservationRow>(concat!(
        reservation_select!(),
        " where r.coach_id = $1
            and ($2::timestamptz is null
                 or r.created_at <= $2 and (r.created_at < $2 or r.reservation_id > $3))
          order by r.created_at desc, r.reservation_id
          limit $4"
    ))
    .bind(coach_id)
    .bind(after.map(|(at, _)| at))
    .bind(after.map(|(_, id)| id))
    .bind(page.fetch())
    .fetch_all(db)
    .await?)
}

/// Where a page of a gym's pending requests starts: after this date, start time, request time
/// and id, the list's order.
pub type PendingKeyset = (NaiveDate, NaiveTime, DateTime<Utc>, Uuid);

/// Pending requests for a gym's court time that has not started by `now`, soonest first (one
/// whose start has passed is expiring, and is no longer the gym's to answer), from `page`'s keyset
/// on, at most its limit plus one (all of them without a limit). One statement over the pending
/// requests only (`court_reservation_due_idx`).
pub async fn pending_reservations(
    db: impl PgExecutor<'_>,
    gym_id: Uuid,
    now: DateTime<Utc>,
    page: &Page<PendingKeyset>,
) -> Result<Vec<ReservationRow>, Error> {
    let after = page.after;
    Ok(sqlx::query_as::<_, ReservationRow>(concat!(
        reservation_select!(),
        " where l.gym_id = $1 and r.status = 'pending' and (r.expires_at is null or r.expires_at > $2)
            and ($3::date is null
                 or (a.date, a.start_time, r.created_at, r.reservation_id) > ($3, $4, $5, $6))
          order by a.date, a.start_time, r.created_at, r.reservation_id
          limit $7"
    ))
    .bind(gym_id)
    .bind(now)
    .bind(after.map(|(date, ..)| date))
    .bind(after.map(|(_, time, ..)| time))
    .bind(after.map(|(_, _, at, _)| at))
    .bind(after.map(|(.., id)| id))
    .bind(page.fetch())
    .fetch_all(db)
    .await?)
}

/// A reservation's status, locked for the rest of the caller's transaction.
pub async fn lock_reservation(
    db: impl PgExecutor<'_>,
    reservation_id: Uuid,
) -> Result<Option<ReservationStatus>, Error> {
    sqlx::query_scalar::<_, String>(
        "select status from gym.court_reservation where reservation_id = $1 for update",
    )
    .bind(reservation_id)
    .fetch_optional(db)
    .await?
    .map(|s| s.parse())
    .transpose()
}

/// Moves a reservation to `status`, with the reason of a cancel when one is given.
pub async fn set_reservation_status(
    db: impl PgExecutor<'_>,
    reservation_id: Uuid,
    status: ReservationStatus,
    reason: Option<&str>,
) -> Result<(), Error> {
    sqlx::query(
        "update gym.court_reservation
         set status = $2, cancellation_reason = coalesce($3, cancellation_reason), updated_at = now()
         where reservation_id = $1",
    )
    .bind(reservation_id)
    .bind(status.as_str())
    .bind(reason)
    .execute(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Unique, "court_reservation_one_approved") {
            Error::Precondition("this court time is already reserved".into())
        } else {
            e.into()
        }
    })?;
    Ok(())
}

/// Denies every request still pending for an availability; answers their ids.
pub async fn deny_pending_for(db: impl PgExecutor<'_>, availability_id: Uuid) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "update gym.court_reservation set status = 'denied', updated_at = now()
         where availability_id = $1 and status = 'pending'
         returning reservation_id",
    )
    .bind(availability_id)
    .fetch_all(db)
    .await?)
}

// The scheduler.

/// Up to `limit` pending requests due by `now`, soonest first, locked for the caller's
/// transaction; rows another transaction holds (another replica's claim, a gym answering) are
/// skipped, never waited for.
pub async fn claim_due(db: impl PgExecutor<'_>, now: DateTime<Utc>, limit: i64) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "select reservation_id from gym.court_reservation
         where status = 'pending' and expires_at <= $1
         order by expires_at, reservation_id
         limit $2
         for update skip locked",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(db)
    .await?)
}

/// Moves the claimed requests that are still pending to `to` (expired); answers their ids.
pub async fn expire(
    db: impl PgExecutor<'_>,
    ids: &[Uuid],
    to: ReservationStatus,
) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "update gym.court_reservation set status = $2, updated_at = now()
         where reservation_id = any($1) and status = 'pending'
         returning reservation_id",
    )
    .bind(ids)
    .bind(to.as_str())
    .fetch_all(db)
    .await?)
}

// Events.

/// Records an applied event; false when it had been applied before.
pub async fn record_event(db: impl PgExecutor<'_>, event_id: Uuid) -> Result<bool, Error> {
    Ok(
        sqlx::query("insert into gym.processed_event (event_id) values ($1) on conflict do nothing")
            .bind(event_id)
            .execute(db)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Withdraws a gym's open (unreserved) court time from `today` on.
pub async fn withdraw_open_availability(
    db: impl PgExecutor<'_>,
    gym_id: Uuid,
    today: NaiveDate,
) -> Result<u64, Error> {
    Ok(sqlx::query(
        "update gym.court_availability a set withdrawn = true
         from gym.court c, gym.gym_location l
         where c.court_id = a.court_id and l.location_id = c.location_id and l.gym_id = $1
           and not a.is_reserved and not a.withdrawn and a.date >= $2",
    )
    .bind(gym_id)
    .bind(today)
    .execute(db)
    .await?
    .rows_affected())
}

/// Denies every pending request for a gym's court time; answers their ids.
pub async fn deny_gym_pending(db: impl PgExecutor<'_>, gym_id: Uuid) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "update gym.court_reservation r set status = 'denied', updated_at = now()
         from gym.court_availability a, gym.court c, gym.gym_location l
         where a.availability_id = r.availability_id and c.court_id = a.court_id
           and l.location_id = c.location_id and l.gym_id = $1 and r.status = 'pending'
         returning r.reservation_id",
    )
    .bind(gym_id)
    .fetch_all(db)
    .await?)
}

/// Takes a gym's locations out of the directory.
pub async fn delist_locations(db: impl PgExecutor<'_>, gym_id: Uuid) -> Result<u64, Error> {
    Ok(
        sqlx::query("update gym.gym_location set delisted = true where gym_id = $1 and not delisted")
            .bind(gym_id)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

/// Cancels every pending request of a coach; answers their ids.
pub async fn cancel_coach_pending(db: impl PgExecutor<'_>, coach_id: Uuid) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "update gym.court_reservation set status = 'cancelled', updated_at = now()
         where coach_id = $1 and status = 'pending'
         returning reservation_id",
    )
    .bind(coach_id)
    .fetch_all(db)
    .await?)
}

// Closures.

/// A closure row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ClosureRow {
    pub closure_id: Uuid,
    pub location_id: Uuid,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub reason: Option<String>,
}

/// The gym of a listed location, its row locked until the transaction ends (a closure being made:
/// requests at the location wait for it).
pub async fn lock_location(db: impl PgExecutor<'_>, location_id: Uuid) -> Result<Option<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "select gym_id from gym.gym_location where location_id = $1 and not delisted for update",
    )
    .bind(location_id)
    .fetch_optional(db)
    .await?)
}

pub async fn insert_closure(
    db: impl PgExecutor<'_>,
    location_id: Uuid,
    closure: &crate::domain::NewClosure,
) -> Result<ClosureRow, Error> {
    Ok(sqlx::query_as::<_, ClosureRow>(
        "insert into gym.closure (closure_id, location_id, start_date, end_date, reason)
         values ($1, $2, $3, $4, $5)
         returning closure_id, location_id, start_date, end_date, reason",
    )
    .bind(Uuid::now_v7())
    .bind(location_id)
    .bind(closure.start_date)
    .bind(closure.end_date)
    .bind(closure.reason.as_deref())
    .fetch_one(db)
    .await?)
}

/// Denies every request pending on court time of the location from `start` to `end`, with
/// `reason`; answers their ids.
pub async fn deny_pending_at(
    db: impl PgExecutor<'_>,
    location_id: Uuid,
    start: NaiveDate,
    end: NaiveDate,
    reason: &str,
) -> Result<Vec<Uuid>, Error> {
    Ok(sqlx::query_scalar::<_, Uuid>(
        "update gym.court_reservation r
         set status = 'denied', cancellation_reason = $4, updated_at = now()
         from gym.court_availability a
         join gym.court c on c.court_id = a.court_id
         where r.availability_id = a.availability_id and c.location_id = $1
           and a.date between $2 and $3 and r.status = 'pending'
         returning r.reservation_id",
    )
    .bind(location_id)
    .bind(start)
    .bind(end)
    .bind(reason)
    .fetch_all(db)
    .await?)
}

/// A location's closures that end on or after `from`, soonest first.
pub async fn closures_of(
    db: impl PgExecutor<'_>,
    location_id: Uuid,
    from: NaiveDate,
) -> Result<Vec<ClosureRow>, Error> {
    Ok(sqlx::query_as::<_, ClosureRow>(
        "select closure_id, location_id, start_date, end_date, reason from gym.closure
         where location_id = $1 and end_date >= $2
         order by start_date, end_date, closure_id",
    )
    .bind(location_id)
    .bind(from)
    .fetch_all(db)
    .await?)
}

/// The closure of an availability's location that covers its date, if any.
pub async fn closure_on(db: impl PgExecutor<'_>, availability_id: Uuid) -> Result<Option<ClosureRow>, Error> {
    Ok(sqlx::query_as::<_, ClosureRow>(
        "select z.closure_id, z.location_id, z.start_date, z.end_date, z.reason
         from gym.court_availability a
         join gym.court c on c.court_id = a.court_id
         join gym.closure z on z.location_id = c.location_id
              and a.date between z.start_date and z.end_date
         where a.availability_id = $1
         order by z.start_date limit 1",
    )
    .bind(availability_id)
    .fetch_optional(db)
    .await?)
}

/// Deletes a closure of one of `gym_id`'s locations; false when it has none with this id.
pub async fn delete_closure(db: impl PgExecutor<'_>, gym_id: Uuid, closure_id: Uuid) -> Result<bool, Error> {
    let result = sqlx::query(
        "delete from gym.closure z using gym.gym_location l
         where z.closure_id = $1 and l.location_id = z.location_id and l.gym_id = $2",
    )
    .bind(closure_id)
    .bind(gym_id)
    .execute(db)
    .await?;
    Ok(result.rows_affected() > 0)
}
