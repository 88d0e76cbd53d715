//! The coaching.v1 service: proto → domain → store → proto, nothing else.
//!
//! Who may call what (the gateway gates routes too; this is the second line):
//! - coach only, on their own data: create/update profile, list own and create locations,
//!   create and delete slots;
//! - coach only, on their own data: set the booking policy; add, list and remove time off;
//! - any signed-in caller: a coach's profile, locations, slots, location count and booking policy;
//! - anyone: the directory, its searches, geocoding, `GetSlot` and `GetCoachSchedule` (what
//!   booking-svc books and computes the bookable calendar with).

use std::sync::Arc;

use chrono::Utc;
use platform::{
    auth::{self, Role},
    pages::Page,
};
use proto::coaching::v1::{self as pb, coaching_server::Coaching};
use sqlx::PgPool;
use tonic::{Request, Response, Status};

use crate::{
    directory::{self, Filter, Sort},
    domain::{
        BookingPolicy, Coordinates, Gazetteer, NearbyQuery, NewLocation, NewSlot, NewTimeOff, PolicyUpdate,
        ProfileFields, earliest_date, format_time, location_zone, parse_date, parse_id, round_miles,
        state_forms,
    },
    error::Error,
    remembered::RememberedDirectory,
    store::{self, ListingRow, LocationRow, ProfileRow, SlotRow, SlotSnapshot, TimeOffRow},
    zones::derived_zone,
};

/// The state every RPC shares.
#[derive(Clone)]
pub struct CoachingService {
    pub db: PgPool,
    pub gazetteer: &'static Gazetteer,
    pub directory: Arc<RememberedDirectory>,
}

impl From<ProfileRow> for pb::CoachProfile {
    fn from(row: ProfileRow) -> Self {
        pb::CoachProfile {
            coach_id: row.coach_id.to_string(),
            bio: row.bio,
            specialties: row.specialties,
            hourly_rate: row.hourly_rate,
            years_experience: row.years_experience,
            time_zone: row.time_zone,
            rating_average: None,
            rating_count: 0,
            rating_stars: Vec::new(),
        }
    }
}

/// A stored location's zone; one saved before zones were kept and not filled in yet is derived.
fn zone_of(row: &LocationRow) -> String {
    match &row.time_zone {
        Some(zone) => zone.clone(),
        None => derived_zone(platform::places::bundled(), row).name().to_owned(),
    }
}

impl From<LocationRow> for pb::Location {
    fn from(row: LocationRow) -> Self {
        let time_zone = zone_of(&row);
        pb::Location {
            location_id: row.location_id.to_string(),
            coach_id: row.coach_id.to_string(),
            name: row.name,
            address: row.address,
            court_number: row.court_number,
            city: row.city,
            state: row.state,
            latitude: row.latitude,
            longitude: row.longitude,
            time_zone,
        }
    }
}

impl From<SlotRow> for pb::Slot {
    fn from(row: SlotRow) -> Self {
        pb::Slot {
            slot_id: row.slot_id.to_string(),
            coach_id: row.coach_id.to_string(),
            slot_type: row.slot_type,
            day_of_week: row.day_of_week,
            specific_date: row.specific_date.map(|d| d.format("%Y-%m-%d").to_string()),
            start_time: format_time(row.start_time),
            end_time: format_time(row.end_time),
            location_id: row.location_id.map(|id| id.to_string()),
        }
    }
}

impl From<ListingRow> for pb::CoachListing {
    fn from(row: ListingRow) -> Self {
        pb::CoachListing {
            coach_id: row.coach_id.to_string(),
            years_experience: row.years_experience,
            specialties: row.specialties,
            locations: row
                .cities
                .into_iter()
                .zip(row.states)
                .map(|(city, state)| pb::ListingLocation { city, state })
                .collect(),
            distance: row.distance.map(round_miles),
            bio: row.bio,
            hourly_rate: row.hourly_rate,
            rating_average: row.rating_average,
            rating_count: row.rating_count,
        }
    }
}

impl From<BookingPolicy> for pb::BookingPolicy {
    fn from(p: BookingPolicy) -> Self {
        pb::BookingPolicy {
            min_notice_minutes: p.min_notice_minutes,
            max_advance_days: p.max_advance_days,
            response_window_minutes: p.response_window_minutes,
            cancellation_window_minutes: p.cancellation_window_minutes,
            late_cancellation_fee_percent: Some(p.late_cancellation_fee_percent),
            no_show_fee_percent: Some(p.no_show_fee_percent),
        }
    }
}

impl From<TimeOffRow> for pb::TimeOff {
    fn from(row: TimeOffRow) -> Self {
        pb::TimeOff {
            time_off_id: row.time_off_id.to_string(),
            coach_id: row.coach_id.to_string(),
            start_date: row.start_date.format("%Y-%m-%d").to_string(),
            end_date: row.end_date.format("%Y-%m-%d").to_string(),
            reason: row.reason,
        }
    }
}

/// The slot's place decides its zone; a slot without one is in its coach's zone.
fn snapshot_zone(snapshot: &SlotSnapshot) -> String {
    match &snapshot.location {
        Some(location) => zone_of(location),
        None => snapshot
            .profile_zone
            .clone()
            .unwrap_or_else(|| ProfileFields::NEW_PROFILE_ZONE.name().to_owned()),
    }
}

impl From<SlotSnapshot> for pb::GetSlotResponse {
    fn from(snapshot: SlotSnapshot) -> Self {
        let time_zone = snapshot_zone(&snapshot);
        pb::GetSlotResponse {
            slot: Some(snapshot.slot.into()),
            location_name: snapshot.location.map(|l| l.name),
            time_zone,
            policy: Some(snapshot.policy.unwrap_or_default().into()),
            time_off: snapshot.time_off.into_iter().map(Into::into).collect(),
            hourly_rate_cents: snapshot.hourly_rate_cents,
        }
    }
}

impl From<SlotSnapshot> for pb::ScheduledSlot {
    fn from(snapshot: SlotSnapshot) -> Self {
        let time_zone = snapshot_zone(&snapshot);
        pb::ScheduledSlot {
            slot: Some(snapshot.slot.into()),
            location_name: snapshot.location.map(|l| l.name),
            time_zone,
        }
    }
}

impl CoachingService {
    /// A profile with its coach's review figures.
    async fn rated(&self, profile: ProfileRow) -> Result<pb::CoachProfile, Error> {
        let rating = store::rating(&self.db, profile.coach_id).await?;
        Ok(pb::CoachProfile {
            rating_average: rating.rating_average,
            rating_count: rating.rating_count,
            rating_stars: rating.stars,
            ..profile.into()
        })
    }
}

fn listings(rows: Vec<ListingRow>) -> Vec<pb::CoachListing> {
    rows.into_iter().map(Into::into).collect()
}

fn profile_fields(fields: Option<pb::CoachProfileFields>) -> Result<ProfileFields, Error> {
    let fields = fields.ok_or_else(|| Error::Invalid("the profile fields are missing".into()))?;
    ProfileFields::parse(
        &fields.bio,
        &fields.specialties,
        fields.hourly_rate,
        fields.years_experience,
        fields.time_zone.as_deref(),
    )
}

/// A search's filters and order, when it has any.
fn refinement(query: Option<&pb::DirectoryQuery>, nearby: bool) -> Result<Option<(Filter, Sort)>, Error> {
    query
        .map(|q| Ok((Filter::parse(q)?, Sort::parse(&q.sort, nearby)?)))
        .transpose()
}

/// A search's rows, filtered and ordered when it has a query (whole: searches do not page).
fn refined(rows: Vec<ListingRow>, refine: Option<(Filter, Sort)>) -> Vec<ListingRow> {
    match refine {
        Some((filter, sort)) => {
            directory::answer(
                rows,
                &filter,
                sort,
                &Page {
                    limit: None,
                    after: None,
                },
            )
            .0
        }
        None => rows,
    }
}

/// The coach's name the gateway sent with the fields (identity's, not the caller's input).
fn coach_name(fields: &Option<pb::CoachProfileFields>) -> Option<String> {
    fields
        .as_ref()
        .and_then(|f| f.coach_name.as_deref())
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
}

#[tonic::async_trait]
impl Coaching for CoachingService {
    async fn get_coach_profile(
        &self,
        request: Request<pb::GetCoachProfileRequest>,
    ) -> Result<Response<pb::GetCoachProfileResponse>, Status> {
        auth::caller(&request)?;
        let coach_id = parse_id(&request.get_ref().coach_id, "coach_id")?;
        let profile = store::profile(&self.db, coach_id)
            .await?
            .ok_or_else(|| Error::NotFound("this coach has no profile yet".into()))?;
        Ok(Response::new(pb::GetCoachProfileResponse {
            profile: Some(self.rated(profile).await?),
        }))
    }

    async fn create_coach_profile(
        &self,
        request: Request<pb::CreateCoachProfileRequest>,
    ) -> Result<Response<pb::CreateCoachProfileResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let r = request.into_inner();
        let name = coach_name(&r.fields);
        let fields = profile_fields(r.fields)?;
        let profile = store::insert_profile(&self.db, caller.user_id, &fields, name.as_deref()).await?;
        Ok(Response::new(pb::CreateCoachProfileResponse {
            profile: Some(self.rated(profile).await?),
        }))
    }

    async fn update_coach_profile(
        &self,
        request: Request<pb::UpdateCoachProfileRequest>,
    ) -> Result<Response<pb::UpdateCoachProfileResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let r = request.into_inner();
        let name = coach_name(&r.fields);
        let fields = profile_fields(r.fields)?;
        let profile = store::update_profile(&self.db, caller.user_id, &fields, name.as_deref())
            .await?
            .ok_or_else(|| Error::NotFound("you have no coach profile yet; create it first".into()))?;
        Ok(Response::new(pb::UpdateCoachProfileResponse {
            profile: Some(self.rated(profile).await?),
        }))
    }

    async fn list_my_locations(
        &self,
        request: Request<pb::ListMyLocationsRequest>,
    ) -> Result<Response<pb::ListMyLocationsResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let locations = store::locations(&self.db, caller.user_id).await?;
        Ok(Response::new(pb::ListMyLocationsResponse {
            locations: locations.into_iter().map(Into::into).collect(),
        }))
    }

    async fn list_coach_locations(
        &self,
        request: Request<pb::ListCoachLocationsRequest>,
    ) -> Result<Response<pb::ListCoachLocationsResponse>, Status> {
        auth::caller(&request)?;
        let coach_id = parse_id(&request.get_ref().coach_id, "coach_id")?;
        let locations = store::locations(&self.db, coach_id).await?;
        Ok(Response::new(pb::ListCoachLocationsResponse {
            locations: locations.into_iter().map(Into::into).collect(),
        }))
    }

    async fn create_location(
        &self,
        request: Request<pb::CreateLocationRequest>,
    ) -> Result<Response<pb::CreateLocationResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let r = request.into_inner();
        let location = NewLocation::parse(
            &r.name,
            &r.address,
            &r.court_number,
            &r.city,
            &r.state,
            r.latitude,
            r.longitude,
            r.time_zone.as_deref(),
        )?;
        // Without coordinates the location would never show up in a nearby search.
        let coordinates = location.coordinates.or_else(|| {
            self.gazetteer
                .locate(&location.city, &location.state)
                .map(|place| Coordinates {
                    latitude: place.latitude,
                    longitude: place.longitude,
                })
        });
        let zone = location_zone(
            self.gazetteer,
            location.time_zone,
            coordinates,
            &location.city,
            &location.state,
        )?;
        let row = store::insert_location(&self.db, caller.user_id, &location, coordinates, zone).await?;
        Ok(Response::new(pb::CreateLocationResponse {
            location: Some(row.into()),
        }))
    }

    async fn count_coach_locations(
        &self,
        request: Request<pb::CountCoachLocationsRequest>,
    ) -> Result<Response<pb::CountCoachLocationsResponse>, Status> {
        auth::caller(&request)?;
        let coach_id = parse_id(&request.get_ref().coach_id, "coach_id")?;
        let count = store::count_locations(&self.db, coach_id).await?;
        Ok(Response::new(pb::CountCoachLocationsResponse { count }))
    }

    async fn list_coach_slots(
        &self,
        request: Request<pb::ListCoachSlotsRequest>,
    ) -> Result<Response<pb::ListCoachSlotsResponse>, Status> {
        auth::caller(&request)?;
        let coach_id = parse_id(&request.get_ref().coach_id, "coach_id")?;
        let slots = store::slots(&self.db, coach_id).await?;
        Ok(Response::new(pb::ListCoachSlotsResponse {
            slots: slots.into_iter().map(Into::into).collect(),
        }))
    }

    async fn create_slot(
        &self,
        request: Request<pb::CreateSlotRequest>,
    ) -> Result<Response<pb::CreateSlotResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let r = request.into_inner();
        let slot = NewSlot::parse(
            &r.slot_type,
            r.day_of_week.as_deref(),
            r.specific_date.as_deref(),
            &r.start_time,
            &r.end_time,
            r.location_id.as_deref(),
            earliest_date(Utc::now()),
        )?;
        let row = store::insert_slot(&self.db, caller.user_id, &slot).await?;
        Ok(Response::new(pb::CreateSlotResponse {
            slot: Some(row.into()),
        }))
    }

    async fn delete_slot(
        &self,
        request: Request<pb::DeleteSlotRequest>,
    ) -> Result<Response<pb::DeleteSlotResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let slot_id = parse_id(&request.get_ref().slot_id, "slot_id")?;
        if !store::delete_slot(&self.db, caller.user_id, slot_id).await? {
            // Another coach's slot gets the same answer as a missing one, and stays.
            return Err(Error::NotFound("you have no availability slot with this id".into()).into());
        }
        Ok(Response::new(pb::DeleteSlotResponse {}))
    }

    async fn get_slot(
        &self,
        request: Request<pb::GetSlotRequest>,
    ) -> Result<Response<pb::GetSlotResponse>, Status> {
        let slot_id = parse_id(&request.get_ref().slot_id, "slot_id")?;
        let snapshot = store::slot_snapshot(&self.db, slot_id)
            .await?
            .ok_or_else(|| Error::NotFound("this availability slot does not exist".into()))?;
        Ok(Response::new(snapshot.into()))
    }

    async fn list_coaches(
        &self,
        request: Request<pb::ListCoachesRequest>,
    ) -> Result<Response<pb::ListCoachesResponse>, Status> {
        let query = request.into_inner().query;
        let (filter, sort, page) = match &query {
            Some(query) => (
                Filter::parse(query)?,
                Sort::parse(&query.sort, false)?,
                Page::parse(query.limit, &query.after)?,
            ),
            None => (Filter::default(), Sort::Listed, Page::parse(0, "")?),
        };
        let directory = self.directory.get(&self.db).await?;
        let (rows, next) = match query {
            Some(_) => directory.page(&filter, sort, &page),
            None => (directory.rows().to_vec(), String::new()),
        };
        Ok(Response::new(pb::ListCoachesResponse {
            coaches: listings(rows),
            next,
        }))
    }

    async fn search_coaches_by_city(
        &self,
        request: Request<pb::SearchCoachesByCityRequest>,
    ) -> Result<Response<pb::SearchCoachesByCityResponse>, Status> {
        let r = request.into_inner();
        let city = r.city.as_deref().map(str::trim).filter(|c| !c.is_empty());
        let state = r.state.as_deref().map(str::trim).filter(|s| !s.is_empty());
        if city.is_none() && state.is_none() {
            return Err(Error::Invalid("Please enter a city or state".into()).into());
        }
        let states = state.map(state_forms);
        let refine = refinement(r.query.as_ref(), false)?;
        let rows = store::coaches_in(&self.db, city, states.as_deref()).await?;
        Ok(Response::new(pb::SearchCoachesByCityResponse {
            coaches: listings(refined(rows, refine)),
        }))
    }

    async fn search_coaches_nearby(
        &self,
        request: Request<pb::SearchCoachesNearbyRequest>,
    ) -> Result<Response<pb::SearchCoachesNearbyResponse>, Status> {
        let r = request.into_inner();
        let query = NearbyQuery::parse(r.lat, r.lng, r.radius_miles)?;
        let refine = refinement(r.query.as_ref(), true)?;
        let rows = store::coaches_near(&self.db, &query).await?;
        Ok(Response::new(pb::SearchCoachesNearbyResponse {
            coaches: listings(refined(rows, refine)),
        }))
    }

    async fn geocode(
        &self,
        request: Request<pb::GeocodeRequest>,
    ) -> Result<Response<pb::GeocodeResponse>, Status> {
        let query = &request.get_ref().query;
        if query.chars().count() > 200 {
            return Err(Error::Invalid("the place must be at most 200 characters".into()).into());
        }
        let response = match self.gazetteer.geocode(query) {
            Some(place) => pb::GeocodeResponse {
                found: true,
                lat: place.latitude,
                lng: place.longitude,
                name: place.label(),
            },
            None => pb::GeocodeResponse::default(),
        };
        Ok(Response::new(response))
    }

    async fn get_booking_policy(
        &self,
        request: Request<pb::GetBookingPolicyRequest>,
    ) -> Result<Response<pb::GetBookingPolicyResponse>, Status> {
        auth::caller(&request)?;
        let coach_id = parse_id(&request.get_ref().coach_id, "coach_id")?;
        // A coach who never set one (or any other id) has the defaults: what booking enforces.
        let policy = store::booking_policy(&self.db, coach_id)
            .await?
            .unwrap_or_default();
        Ok(Response::new(pb::GetBookingPolicyResponse {
            policy: Some(policy.into()),
        }))
    }

    async fn update_booking_policy(
        &self,
        request: Request<pb::UpdateBookingPolicyRequest>,
    ) -> Result<Response<pb::UpdateBookingPolicyResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let policy = request
            .into_inner()
            .policy
            .ok_or_else(|| Error::Invalid("the policy is missing".into()))?;
        let update = PolicyUpdate::parse(
            policy.min_notice_minutes,
            policy.max_advance_days,
            policy.response_window_minutes,
            policy.cancellation_window_minutes,
            policy.late_cancellation_fee_percent,
            policy.no_show_fee_percent,
        )?;
        let saved = store::upsert_booking_policy(&self.db, caller.user_id, &update).await?;
        Ok(Response::new(pb::UpdateBookingPolicyResponse {
            policy: Some(saved.into()),
        }))
    }

    async fn create_time_off(
        &self,
        request: Request<pb::CreateTimeOffRequest>,
    ) -> Result<Response<pb::CreateTimeOffResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let r = request.into_inner();
        let off = NewTimeOff::parse(
            &r.start_date,
            &r.end_date,
            r.reason.as_deref(),
            earliest_date(Utc::now()),
            "this time off",
        )
        .map_err(Error::from)?;
        let row = store::insert_time_off(&self.db, caller.user_id, &off).await?;
        Ok(Response::new(pb::CreateTimeOffResponse {
            time_off: Some(row.into()),
        }))
    }

    async fn list_my_time_off(
        &self,
        request: Request<pb::ListMyTimeOffRequest>,
    ) -> Result<Response<pb::ListMyTimeOffResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let rows = store::time_off_between(
            &self.db,
            caller.user_id,
            earliest_date(Utc::now()),
            chrono::NaiveDate::MAX,
        )
        .await?;
        Ok(Response::new(pb::ListMyTimeOffResponse {
            time_off: rows.into_iter().map(Into::into).collect(),
        }))
    }

    async fn delete_time_off(
        &self,
        request: Request<pb::DeleteTimeOffRequest>,
    ) -> Result<Response<pb::DeleteTimeOffResponse>, Status> {
        let caller = auth::require_role(&request, &[Role::Coach])?;
        let time_off_id = parse_id(&request.get_ref().time_off_id, "exception_id")?;
        if !store::delete_time_off(&self.db, caller.user_id, time_off_id).await? {
            // Another coach's time off gets the same answer as a missing one, and stays.
            return Err(Error::NotFound("you have no time off with this id".into()).into());
        }
        Ok(Response::new(pb::DeleteTimeOffResponse {}))
    }

    async fn get_coach_schedule(
        &self,
        request: Request<pb::GetCoachScheduleRequest>,
    ) -> Result<Response<pb::GetCoachScheduleResponse>, Status> {
        let r = request.into_inner();
        let coach_id = parse_id(&r.coach_id, "coach_id")?;
        let from = parse_date(&r.from, "from").map_err(Error::from)?;
        let to = parse_date(&r.to, "to").map_err(Error::from)?;
        // Two statements, whatever the range: the slots (with place, zone and policy), and the
        // time off that meets the range.
        let slots = store::schedule(&self.db, coach_id).await?;
        let time_off = store::time_off_between(&self.db, coach_id, from, to).await?;
        let policy = slots.first().and_then(|s| s.policy).unwrap_or_default();
        Ok(Response::new(pb::GetCoachScheduleResponse {
            slots: slots.into_iter().map(Into::into).collect(),
            policy: Some(policy.into()),
            time_off: time_off.into_iter().map(Into::into).collect(),
        }))
    }
}
