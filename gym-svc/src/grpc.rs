//! The gym.v1 service: proto → domain → store → proto, nothing else. The caller always comes from
//! the token ([`auth::caller`]); every RPC checks the caller's role and ownership itself.
//!
//! Every reservation transition is written with its event to the outbox in its transaction
//! ([`crate::outbox`]), and the relay is woken after the commit. "Now" is the injected clock's.

use std::{str::FromStr, sync::Arc};

use chrono::{Days, NaiveDate};
use platform::{
    auth::{self, Caller, Role},
    clock::SharedClock,
    events::Party,
    instants::rfc3339,
    pages::Page,
    places::Gazetteer,
};
use proto::gym::v1::{self as pb, gym_server::Gym};
use sqlx::PgPool;
use tokio::sync::Notify;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    calendar,
    domain::{
        CourtTime, GymProfileFields, NewClosure, NewCourt, NewLocation, ReservationStatus, closed_sentence,
        denial, earliest_open_date, ensure_not_started, ensure_requestable, format_date, format_time,
        parse_reason,
    },
    error::Error,
    outbox::{self, Transition},
    store::{self, AvailabilityRow, ClosureRow, CourtRow, LocationRow, ProfileRow, ReservationRow},
};

/// The state every RPC shares.
#[derive(Clone)]
pub struct GymService {
    pub db: PgPool,
    pub clock: SharedClock,
    pub gazetteer: &'static Gazetteer,
    /// Notified after a commit that wrote to the outbox.
    pub outbox_wake: Arc<Notify>,
}

/// A message id that must be a UUID.
fn parse_id(raw: &str, what: &str) -> Result<Uuid, Error> {
    Uuid::from_str(raw.trim()).map_err(|_| Error::Invalid(format!("{what} must be a UUID")))
}

/// Why the other pending requests for court time are denied when one is approved.
const TAKEN: &str = "another request for this court time was approved";

const NO_PROFILE: &str = "this gym has no profile yet";
const NO_LOCATION: &str = "this gym location does not exist";
const NO_COURT: &str = "this court does not exist";
const NO_AVAILABILITY: &str = "this court availability does not exist";
const NO_RESERVATION: &str = "this court reservation does not exist";

impl From<ProfileRow> for pb::GymProfile {
    fn from(row: ProfileRow) -> Self {
        pb::GymProfile {
            gym_id: row.gym_id.to_string(),
            gym_name: row.gym_name,
            description: row.description,
            phone: row.phone,
        }
    }
}

impl From<LocationRow> for pb::GymLocation {
    fn from(row: LocationRow) -> Self {
        let time_zone = row.place().zone().name().to_owned();
        pb::GymLocation {
            location_id: row.location_id.to_string(),
            gym_id: row.gym_id.to_string(),
            gym_name: row.gym_name,
            name: row.name,
            address: row.address,
            city: row.city,
            state: row.state,
            time_zone,
            latitude: row.latitude,
            longitude: row.longitude,
        }
    }
}

impl From<CourtRow> for pb::Court {
    fn from(row: CourtRow) -> Self {
        pb::Court {
            court_id: row.court_id.to_string(),
            location_id: row.location_id.to_string(),
            court_name: row.court_name,
            court_type: row.court_type,
        }
    }
}

impl From<AvailabilityRow> for pb::CourtAvailability {
    fn from(row: AvailabilityRow) -> Self {
        let instants = row.instants();
        pb::CourtAvailability {
            availability_id: row.availability_id.to_string(),
            court_id: row.court_id.to_string(),
            date: format_date(row.date),
            start_time: format_time(row.start_time),
            end_time: format_time(row.end_time),
            is_reserved: row.is_reserved,
            location_name: row.location_name,
            court_name: row.court_name,
            location_id: row.location_id.to_string(),
            time_zone: instants.zone.name().to_owned(),
            starts_at: rfc3339(instants.starts_at),
            ends_at: rfc3339(instants.ends_at),
            reservation_id: row.reservation_id.map(|id| id.to_string()),
        }
    }
}

impl From<ReservationRow> for pb::CourtReservation {
    fn from(row: ReservationRow) -> Self {
        let instants = row.instants();
        pb::CourtReservation {
            reservation_id: row.reservation_id.to_string(),
            availability_id: row.availability_id.to_string(),
            coach_id: row.coach_id.to_string(),
            gym_id: row.gym_id.to_string(),
            gym_name: row.gym_name,
            location_name: row.location_name,
            court_name: row.court_name,
            date: format_date(row.date),
            start_time: format_time(row.start_time),
            end_time: format_time(row.end_time),
            status: row.status,
            time_zone: instants.zone.name().to_owned(),
            starts_at: rfc3339(instants.starts_at),
            ends_at: rfc3339(instants.ends_at),
            cancellation_reason: row.cancellation_reason,
        }
    }
}

impl From<ClosureRow> for pb::Closure {
    fn from(row: ClosureRow) -> Self {
        pb::Closure {
            closure_id: row.closure_id.to_string(),
            location_id: row.location_id.to_string(),
            start_date: format_date(row.start_date),
            end_date: format_date(row.end_date),
            reason: row.reason,
        }
    }
}

fn profile_fields(fields: Option<pb::GymProfileFields>) -> Result<GymProfileFields, Error> {
    let fields = fields.unwrap_or_default();
    GymProfileFields::parse(&fields.gym_name, &fields.description, &fields.phone)
}

fn reservations(rows: Vec<ReservationRow>) -> Vec<pb::CourtReservation> {
    rows.into_iter().map(Into::into).collect()
}

impl GymService {
    /// The shared "not in the past" date of new court time, now.
    fn today(&self) -> NaiveDate {
        earliest_open_date(self.clock.now())
    }

    /// The reservations with these ids, for their events (one statement).
    async fn rows(tx: &mut sqlx::PgConnection, ids: &[Uuid]) -> Result<Vec<ReservationRow>, Error> {
        store::reservations(&mut *tx, ids).await
    }

    /// Refuses anyone but the gym that owns a location.
    async fn own_location(&self, caller: &Caller, location_id: Uuid) -> Result<(), Error> {
        match store::location_gym(&self.db, location_id).await? {
            None => Err(Error::NotFound(NO_LOCATION.into())),
            Some(gym) if gym != caller.user_id => {
                Err(Error::Forbidden("this location belongs to another gym".into()))
            }
            Some(_) => Ok(()),
        }
    }

    /// A reservation on a court of the caller's gym.
    async fn gyms_reservation(&self, caller: &Caller, reservation_id: Uuid) -> Result<ReservationRow, Error> {
        let found = store::reservation(&self.db, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        if found.gym_id != caller.user_id {
            return Err(Error::Forbidden(
                "this reservation is for another gym's court".into(),
            ));
        }
        Ok(found)
    }

    /// Requests court time for a coach, while it cannot be reserved by an approval. The request
    /// is due to expire at the court time's start.
    async fn request(
        &self,
        coach: &Caller,
        availability_id: Uuid,
        key: Option<&str>,
    ) -> Result<ReservationRow, Error> {
        // A retry of a request already made (its answer lost on the way) is answered that request.
        if let Some(key) = key
            && let Some((made, asked)) = store::reservation_by_key(&self.db, coach.user_id, key).await?
        {
            if asked != availability_id {
                return Err(Error::Conflict(
                    "a court request was already made with this Idempotency-Key; use a new key".into(),
                ));
            }
            return store::reservation(&self.db, made)
                .await?
                .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()));
        }
        let mut tx = self.db.begin().await?;
        let state = store::availability_for_request(&mut *tx, availability_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_AVAILABILITY.into()))?;
        let instants = state.instants();
        ensure_requestable(&instants, state.is_reserved, state.withdrawn, self.clock.now())?;
        if let Some(closed) = store::closure_on(&mut *tx, availability_id).await? {
            return Err(Error::Precondition(format!(
                "{}; please choose court time on another date",
                closed_sentence(closed.start_date, closed.end_date, closed.reason.as_deref())
            )));
        }
        let reservation_id =
            store::insert_reservation(&mut *tx, availability_id, coach.user_id, instants.starts_at, key)
                .await?;
        let row = store::reservation(&mut *tx, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        outbox::record(&mut tx, &Transition::Requested, std::slice::from_ref(&row)).await?;
        tx.commit().await?;
        self.outbox_wake.notify_one();
        Ok(row)
    }

    /// Approves a pending request in one transaction: the availability is locked first, so
    /// concurrent approvals of one availability run one at a time and only the first reserves it;
    /// every other pending request for it is denied. Its location is share-locked with it, so a
    /// closure is either made before (and the approval refused) or after (and the reservation
    /// stands, as one approved earlier would).
    async fn approve(&self, gym: &Caller, reservation_id: Uuid) -> Result<ReservationRow, Error> {
        let found = self.gyms_reservation(gym, reservation_id).await?;
        let mut tx = self.db.begin().await?;
        let state = store::lock_availability_to_approve(&mut *tx, found.availability_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_AVAILABILITY.into()))?;
        let status = store::lock_reservation(&mut *tx, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        let approved = status.approve()?;
        ensure_requestable(
            &state.instants(),
            state.is_reserved,
            state.withdrawn,
            self.clock.now(),
        )?;
        if let Some(closed) = store::closure_on(&mut *tx, found.availability_id).await? {
            return Err(Error::Precondition(format!(
                "{}; this request cannot be approved",
                closed_sentence(closed.start_date, closed.end_date, closed.reason.as_deref())
            )));
        }
        store::set_reservation_status(&mut *tx, reservation_id, approved, None).await?;
        store::mark_reserved(&mut *tx, found.availability_id).await?;
        let denied = store::deny_pending_for(&mut *tx, found.availability_id).await?;
        let row = store::reservation(&mut *tx, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        outbox::record(&mut tx, &Transition::Approved, std::slice::from_ref(&row)).await?;
        let others = Self::rows(&mut tx, &denied).await?;
        let taken = Transition::Denied {
            reason: Some(TAKEN.into()),
        };
        outbox::record(&mut tx, &taken, &others).await?;
        tx.commit().await?;
        self.outbox_wake.notify_one();
        Ok(row)
    }

    /// The gym cancels an approved reservation before it starts, in one transaction: the
    /// availability is locked first (the order approvals lock in), the court time is open again.
    async fn gym_cancel(
        &self,
        gym: &Caller,
        reservation_id: Uuid,
        reason: Option<String>,
    ) -> Result<ReservationRow, Error> {
        let found = self.gyms_reservation(gym, reservation_id).await?;
        let mut tx = self.db.begin().await?;
        let state = store::lock_availability(&mut *tx, found.availability_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_AVAILABILITY.into()))?;
        let status = store::lock_reservation(&mut *tx, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        let cancelled = status.gym_cancel()?;
        ensure_not_started(&state.instants(), self.clock.now())?;
        store::set_reservation_status(&mut *tx, reservation_id, cancelled, reason.as_deref()).await?;
        store::mark_unreserved(&mut *tx, found.availability_id).await?;
        let row = store::reservation(&mut *tx, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        let transition = Transition::Cancelled {
            by: Party::Gym,
            reason,
        };
        outbox::record(&mut tx, &transition, std::slice::from_ref(&row)).await?;
        tx.commit().await?;
        self.outbox_wake.notify_one();
        Ok(row)
    }

    /// Moves one pending reservation by `step` (the gym's deny or the coach's cancel) under a row
    /// lock, and records `transition`.
    async fn decide(
        &self,
        reservation_id: Uuid,
        step: fn(ReservationStatus) -> Result<ReservationStatus, Error>,
        transition: Transition,
    ) -> Result<ReservationRow, Error> {
        let mut tx = self.db.begin().await?;
        let status = store::lock_reservation(&mut *tx, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        store::set_reservation_status(&mut *tx, reservation_id, step(status)?, None).await?;
        let row = store::reservation(&mut *tx, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        outbox::record(&mut tx, &transition, std::slice::from_ref(&row)).await?;
        tx.commit().await?;
        self.outbox_wake.notify_one();
        Ok(row)
    }
}

#[tonic::async_trait]
impl Gym for GymService {
    async fn get_gym_profile(
        &self,
        request: Request<pb::GetGymProfileRequest>,
    ) -> Result<Response<pb::GetGymProfileResponse>, Status> {
        auth::caller(&request)?;
        let gym_id = parse_id(&request.get_ref().gym_id, "gym_id")?;
        let profile = store::profile(&self.db, gym_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_PROFILE.into()))?;
        Ok(Response::new(pb::GetGymProfileResponse {
            profile: Some(profile.into()),
        }))
    }

    async fn create_gym_profile(
        &self,
        request: Request<pb::CreateGymProfileRequest>,
    ) -> Result<Response<pb::CreateGymProfileResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let fields = profile_fields(request.into_inner().fields)?;
        let profile = store::insert_profile(&self.db, gym.user_id, &fields).await?;
        Ok(Response::new(pb::CreateGymProfileResponse {
            profile: Some(profile.into()),
        }))
    }

    async fn update_gym_profile(
        &self,
        request: Request<pb::UpdateGymProfileRequest>,
    ) -> Result<Response<pb::UpdateGymProfileResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let fields = profile_fields(request.into_inner().fields)?;
        let profile = store::update_profile(&self.db, gym.user_id, &fields)
            .await?
            .ok_or_else(|| Error::NotFound(format!("{NO_PROFILE}; create it first")))?;
        Ok(Response::new(pb::UpdateGymProfileResponse {
            profile: Some(profile.into()),
        }))
    }

    async fn list_gym_locations(
        &self,
        request: Request<pb::ListGymLocationsRequest>,
    ) -> Result<Response<pb::ListGymLocationsResponse>, Status> {
        let caller = auth::caller(&request)?;
        let rows = if caller.role == Role::Gym {
            store::gym_locations(&self.db, caller.user_id).await?
        } else {
            store::all_locations(&self.db).await?
        };
        Ok(Response::new(pb::ListGymLocationsResponse {
            locations: rows.into_iter().map(Into::into).collect(),
        }))
    }

    async fn create_gym_location(
        &self,
        request: Request<pb::CreateGymLocationRequest>,
    ) -> Result<Response<pb::CreateGymLocationResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let r = request.into_inner();
        let location = NewLocation::parse(
            &r.name,
            &r.address,
            &r.city,
            &r.state,
            r.latitude,
            r.longitude,
            r.time_zone.as_deref(),
        )?;
        let zone = location.zone(self.gazetteer)?;
        let row = store::insert_location(&self.db, gym.user_id, &location, zone).await?;
        Ok(Response::new(pb::CreateGymLocationResponse {
            location: Some(row.into()),
        }))
    }

    async fn count_gym_locations(
        &self,
        request: Request<pb::CountGymLocationsRequest>,
    ) -> Result<Response<pb::CountGymLocationsResponse>, Status> {
        let caller = auth::caller(&request)?;
        let gym_id = parse_id(&request.get_ref().gym_id, "gym_id")?;
        if caller.role != Role::Admin && caller.user_id != gym_id {
            return Err(
                Error::Forbidden("only an admin or the gym itself can count its locations".into()).into(),
            );
        }
        let count = store::count_locations(&self.db, gym_id).await?;
        Ok(Response::new(pb::CountGymLocationsResponse { count }))
    }

    async fn list_courts(
        &self,
        request: Request<pb::ListCourtsRequest>,
    ) -> Result<Response<pb::ListCourtsResponse>, Status> {
        auth::caller(&request)?;
        let location_id = parse_id(&request.get_ref().location_id, "location_id")?;
        let courts = store::listed_location_courts(&self.db, location_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_LOCATION.into()))?;
        Ok(Response::new(pb::ListCourtsResponse {
            courts: courts.into_iter().map(Into::into).collect(),
        }))
    }

    async fn create_court(
        &self,
        request: Request<pb::CreateCourtRequest>,
    ) -> Result<Response<pb::CreateCourtResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let r = request.into_inner();
        let location_id = parse_id(&r.location_id, "location_id")?;
        let court = NewCourt::parse(&r.court_name, &r.court_type)?;
        self.own_location(&gym, location_id).await?;
        let row = store::insert_court(&self.db, location_id, &court).await?;
        Ok(Response::new(pb::CreateCourtResponse {
            court: Some(row.into()),
        }))
    }

    async fn list_court_availability(
        &self,
        request: Request<pb::ListCourtAvailabilityRequest>,
    ) -> Result<Response<pb::ListCourtAvailabilityResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let r = request.into_inner();
        let page = Page::parse(r.limit, &r.after)?;
        let rows = store::gym_availability(&self.db, gym.user_id, &page).await?;
        let (rows, next) = page.split(rows, |a| {
            (a.date, a.start_time, a.court_name.clone(), a.availability_id)
        });
        Ok(Response::new(pb::ListCourtAvailabilityResponse {
            availability: rows.into_iter().map(Into::into).collect(),
            next,
        }))
    }

    async fn create_court_availability(
        &self,
        request: Request<pb::CreateCourtAvailabilityRequest>,
    ) -> Result<Response<pb::CreateCourtAvailabilityResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let r = request.into_inner();
        let court_id = parse_id(&r.court_id, "court_id")?;
        let time = CourtTime::parse(&r.date, &r.start_time, &r.end_time, self.today())?;
        match store::court_gym(&self.db, court_id).await? {
            None => return Err(Error::NotFound(NO_COURT.into()).into()),
            Some(owner) if owner != gym.user_id => {
                return Err(Error::Forbidden("this court belongs to another gym".into()).into());
            }
            Some(_) => {}
        }
        let row = store::insert_availability(&self.db, court_id, &time).await?;
        Ok(Response::new(pb::CreateCourtAvailabilityResponse {
            availability: Some(row.into()),
        }))
    }

    async fn list_open_availability(
        &self,
        request: Request<pb::ListOpenAvailabilityRequest>,
    ) -> Result<Response<pb::ListOpenAvailabilityResponse>, Status> {
        auth::caller(&request)?;
        let location_id = parse_id(&request.get_ref().location_id, "location_id")?;
        let now = self.clock.now();
        // Every wall-clock date still ahead somewhere is on or after yesterday's in UTC; the start
        // instant (which needs the zone) then decides exactly.
        let from = now
            .date_naive()
            .checked_sub_days(Days::new(1))
            .unwrap_or(NaiveDate::MIN);
        let rows = store::listed_open_availability(&self.db, location_id, from)
            .await?
            .ok_or_else(|| Error::NotFound(NO_LOCATION.into()))?;
        Ok(Response::new(pb::ListOpenAvailabilityResponse {
            availability: rows
                .into_iter()
                .filter(|row| row.instants().is_ahead(now))
                .map(Into::into)
                .collect(),
        }))
    }

    async fn create_court_reservation(
        &self,
        request: Request<pb::CreateCourtReservationRequest>,
    ) -> Result<Response<pb::CreateCourtReservationResponse>, Status> {
        let coach = auth::require_role(&request, &[Role::Coach])?;
        let availability_id = parse_id(&request.get_ref().availability_id, "availability_id")?;
        // The coach's Idempotency-Key, which the gateway passes along.
        let key = request
            .metadata()
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .filter(|k| !k.is_empty())
            .map(str::to_owned);
        let row = self.request(&coach, availability_id, key.as_deref()).await?;
        Ok(Response::new(pb::CreateCourtReservationResponse {
            reservation: Some(row.into()),
        }))
    }

    async fn list_coach_reservations(
        &self,
        request: Request<pb::ListCoachReservationsRequest>,
    ) -> Result<Response<pb::ListCoachReservationsResponse>, Status> {
        let coach = auth::require_role(&request, &[Role::Coach])?;
        let r = request.into_inner();
        let page = Page::parse(r.limit, &r.after)?;
        let rows = store::coach_reservations(&self.db, coach.user_id, &page).await?;
        let (rows, next) = page.split(rows, |r| (r.created_at, r.reservation_id));
        Ok(Response::new(pb::ListCoachReservationsResponse {
            reservations: reservations(rows),
            next,
        }))
    }

    async fn cancel_court_reservation(
        &self,
        request: Request<pb::CancelCourtReservationRequest>,
    ) -> Result<Response<pb::CancelCourtReservationResponse>, Status> {
        let coach = auth::require_role(&request, &[Role::Coach])?;
        let reservation_id = parse_id(&request.get_ref().reservation_id, "reservation_id")?;
        let found = store::reservation(&self.db, reservation_id)
            .await?
            .ok_or_else(|| Error::NotFound(NO_RESERVATION.into()))?;
        if found.coach_id != coach.user_id {
            return Err(Error::Forbidden("this reservation belongs to another coach".into()).into());
        }
        let by_coach = Transition::Cancelled {
            by: Party::Coach,
            reason: None,
        };
        self.decide(reservation_id, ReservationStatus::cancel, by_coach)
            .await?;
        Ok(Response::new(pb::CancelCourtReservationResponse {}))
    }

    async fn list_pending_reservations(
        &self,
        request: Request<pb::ListPendingReservationsRequest>,
    ) -> Result<Response<pb::ListPendingReservationsResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let r = request.into_inner();
        let page = Page::parse(r.limit, &r.after)?;
        let rows = store::pending_reservations(&self.db, gym.user_id, self.clock.now(), &page).await?;
        let (rows, next) = page.split(rows, |r| (r.date, r.start_time, r.created_at, r.reservation_id));
        Ok(Response::new(pb::ListPendingReservationsResponse {
            reservations: reservations(rows),
            next,
        }))
    }

    async fn approve_reservation(
        &self,
        request: Request<pb::ApproveReservationRequest>,
    ) -> Result<Response<pb::ApproveReservationResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let reservation_id = parse_id(&request.get_ref().reservation_id, "reservation_id")?;
        let row = self.approve(&gym, reservation_id).await?;
        Ok(Response::new(pb::ApproveReservationResponse {
            reservation: Some(row.into()),
        }))
    }

    async fn deny_reservation(
        &self,
        request: Request<pb::DenyReservationRequest>,
    ) -> Result<Response<pb::DenyReservationResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let reservation_id = parse_id(&request.get_ref().reservation_id, "reservation_id")?;
        let found = self.gyms_reservation(&gym, reservation_id).await?;
        if found.status == ReservationStatus::Pending.as_str() {
            // A request whose court time has started is expiring: no longer the gym's to answer.
            ensure_not_started(&found.instants(), self.clock.now())?;
        }
        let row = self
            .decide(
                reservation_id,
                ReservationStatus::deny,
                Transition::Denied { reason: None },
            )
            .await?;
        Ok(Response::new(pb::DenyReservationResponse {
            reservation: Some(row.into()),
        }))
    }

    async fn gym_cancel_reservation(
        &self,
        request: Request<pb::GymCancelReservationRequest>,
    ) -> Result<Response<pb::GymCancelReservationResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let r = request.into_inner();
        let reservation_id = parse_id(&r.reservation_id, "reservation_id")?;
        let reason = parse_reason(r.reason.as_deref())?;
        let row = self.gym_cancel(&gym, reservation_id, reason).await?;
        Ok(Response::new(pb::GymCancelReservationResponse {
            reservation: Some(row.into()),
        }))
    }

    async fn list_calendar_reservations(
        &self,
        request: Request<pb::ListCalendarReservationsRequest>,
    ) -> Result<Response<pb::ListCalendarReservationsResponse>, Status> {
        let r = request.into_inner();
        let user_id = parse_id(&r.user_id, "user_id")?;
        let owner = match r.role.as_str() {
            "coach" => calendar::Owner::Coach(user_id),
            "gym" => calendar::Owner::Gym(user_id),
            _ => return Err(Error::Invalid("role must be coach or gym".into()).into()),
        };
        let since = self.clock.now() - calendar::FEED_PAST;
        let rows = calendar::feed_reservations(&self.db, owner, since).await?;
        Ok(Response::new(pb::ListCalendarReservationsResponse {
            reservations: rows.into_iter().map(Into::into).collect(),
        }))
    }

    async fn create_closure(
        &self,
        request: Request<pb::CreateClosureRequest>,
    ) -> Result<Response<pb::CreateClosureResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let r = request.into_inner();
        let location_id = parse_id(&r.location_id, "location_id")?;
        let closure = NewClosure::parse(
            &r.start_date,
            &r.end_date,
            r.reason.as_deref(),
            self.today(),
            "this closure",
        )
        .map_err(Error::from)?;
        let mut tx = self.db.begin().await.map_err(Error::from)?;
        match store::lock_location(&mut *tx, location_id).await? {
            None => return Err(Error::NotFound(NO_LOCATION.into()).into()),
            Some(owner) if owner != gym.user_id => {
                return Err(Error::Forbidden("this location belongs to another gym".into()).into());
            }
            Some(_) => {}
        }
        let row = store::insert_closure(&mut *tx, location_id, &closure).await?;
        let reason = denial(&closure);
        let denied = store::deny_pending_at(
            &mut *tx,
            location_id,
            closure.start_date,
            closure.end_date,
            &reason,
        )
        .await?;
        let rows = Self::rows(&mut tx, &denied).await?;
        outbox::record(&mut tx, &Transition::Denied { reason: Some(reason) }, &rows).await?;
        tx.commit().await.map_err(Error::from)?;
        if !denied.is_empty() {
            self.outbox_wake.notify_one();
        }
        Ok(Response::new(pb::CreateClosureResponse {
            closure: Some(row.into()),
            denied_reservation_ids: denied.iter().map(Uuid::to_string).collect(),
        }))
    }

    async fn list_closures(
        &self,
        request: Request<pb::ListClosuresRequest>,
    ) -> Result<Response<pb::ListClosuresResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let location_id = parse_id(&request.get_ref().location_id, "location_id")?;
        self.own_location(&gym, location_id).await?;
        let rows = store::closures_of(&self.db, location_id, self.today()).await?;
        Ok(Response::new(pb::ListClosuresResponse {
            closures: rows.into_iter().map(Into::into).collect(),
        }))
    }

    async fn delete_closure(
        &self,
        request: Request<pb::DeleteClosureRequest>,
    ) -> Result<Response<pb::DeleteClosureResponse>, Status> {
        let gym = auth::require_role(&request, &[Role::Gym])?;
        let closure_id = parse_id(&request.get_ref().closure_id, "closure_id")?;
        if !store::delete_closure(&self.db, gym.user_id, closure_id).await? {
            // Another gym's closure gets the same answer as a missing one, and stays.
            return Err(Error::NotFound("your locations have no closure with this id".into()).into());
        }
        Ok(Response::new(pb::DeleteClosureResponse {}))
    }
}

impl From<calendar::CalendarRow> for pb::CalendarReservation {
    fn from(row: calendar::CalendarRow) -> Self {
        pb::CalendarReservation {
            reservation: Some(row.reservation.into()),
            revision: row.revision,
            updated_at: rfc3339(row.updated_at),
            address: row.address,
        }
    }
}
