//! Coaching routes: coach profiles, coach locations, availability slots, the public directory and
//! its searches, and geocoding of a typed place. Coach names come from identity-svc in one
//! batched `GetUsers` call per response.

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use platform::stamps::Context;
use proto::coaching::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::routes;

use super::{Access, COACH, Route, route};
use crate::{
    error::ApiError,
    extract::{Json, PathId, Query, Session},
    memo::{Rendered, json_response},
    state::{AppState, DELETED_USER, names, present, write},
};

pub fn routes() -> Vec<Route> {
    vec![
        route(Access::Public, routes!(list_coaches)),
        route(Access::Public, routes!(search_nearby)),
        route(Access::Public, routes!(search_city)),
        route(Access::Public, routes!(geocode)),
        route(Access::SignedIn, routes!(get_profile)),
        route(COACH, routes!(create_profile)),
        route(COACH, routes!(update_profile)),
        route(COACH, routes!(my_locations)),
        route(COACH, routes!(create_location)),
        route(Access::SignedIn, routes!(coach_locations)),
        route(Access::SignedIn, routes!(coach_slots)),
        route(COACH, routes!(create_slot)),
        route(COACH, routes!(delete_slot)),
    ]
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

/// An optional text input: blank means absent.
fn blank_is_none(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

// ---------------------------------------------------------------------------------------------
// Directory and search

/// A city and state where a coach offers sessions.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListingLocation {
    pub city: String,
    pub state: String,
}

/// A coach in the directory or a search result.
#[derive(Debug, Serialize, ToSchema)]
pub struct CoachListing {
    #[schema(format = Uuid)]
    pub coach_id: String,
    pub coach_name: String,
    pub years_experience: i32,
    pub specialties: Vec<String>,
    pub locations: Vec<ListingLocation>,
    /// Miles from the searched point: nearby search only, null otherwise.
    pub distance: Option<f64>,
    pub bio: String,
    /// Dollars per hour.
    pub hourly_rate: f64,
}

/// Listings with their coach names, in the service's order. A coach whose account no longer
/// exists (its removal has not reached coaching-svc yet) is left out.
async fn with_names(
    state: &AppState,
    session: Option<&Session>,
    coaches: Vec<pb::CoachListing>,
) -> Result<Vec<CoachListing>, ApiError> {
    let names = names(state, session, coaches.iter().map(|c| c.coach_id.clone())).await?;
    Ok(coaches
        .into_iter()
        .filter_map(|c| {
            let coach_name = names.get(&c.coach_id)?.clone();
            Some(CoachListing {
                coach_id: c.coach_id,
                coach_name,
                years_experience: c.years_experience,
                specialties: c.specialties,
                locations: c
                    .locations
                    .into_iter()
                    .map(|l| ListingLocation {
                        city: l.city,
                        state: l.state,
                    })
                    .collect(),
                distance: c.distance,
                bio: c.bio,
                hourly_rate: c.hourly_rate,
            })
        })
        .collect())
}

/// Every coach who has a profile. Revalidate with `If-None-Match`: the ETag covers the whole
/// body, names included.
#[utoipa::path(get, path = "/coaches", tag = "coaching",
    params(("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer")),
    responses(
        (status = 200, description = "The coach directory", body = [CoachListing],
            headers(("ETag" = String, description = "Changes whenever the list changes"),
                    ("Cache-Control" = String, description = "no-cache: revalidate every time"))),
        (status = 304, description = "Unchanged since the ETag given in If-None-Match")))]
async fn list_coaches(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    // Read before rendering: what is rendered then reflects every change made before the stamps.
    let stamp = match state.redis.stamps().await {
        Ok(stamps) => stamps.of(&[Context::Coaching, Context::Names]),
        Err(down) => {
            tracing::warn!(error = %down, "change stamps unavailable; rendering the directory afresh");
            None
        }
    };
    let directory = state
        .memo
        .get_or_render(DIRECTORY, "", stamp, || render_directory(&state))
        .await?;
    let etag = directory
        .etag
        .clone()
        .ok_or_else(|| ApiError::internal("directory rendered without its ETag"))?;
    let cache = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag),
        (header::VARY, HeaderValue::from_static("Accept-Encoding")),
    ];
    if if_none_match(&headers, &directory) {
        return Ok((StatusCode::NOT_MODIFIED, cache).into_response());
    }
    match directory.gzip.filter(|_| accepts_gzip(&headers)) {
        Some(gzip) => Ok((
            cache,
            [(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"))],
            json_response(gzip),
        )
            .into_response()),
        None => Ok((cache, json_response(directory.json)).into_response()),
    }
}

/// The directory's key in the gateway's memory.
const DIRECTORY: &str = "directory";

/// The directory as JSON, gzipped once, with its ETag.
async fn render_directory(state: &AppState) -> Result<Rendered, ApiError> {
    let reply = crate::read!(state, coaching.list_coaches, None, pb::ListCoachesRequest {}).await?;
    let listings = with_names(state, None, reply.coaches).await?;
    let json = serde_json::to_vec(&listings).map_err(ApiError::internal)?;
    let gzip = gzip(&json).map_err(ApiError::internal)?;
    Ok(Rendered {
        etag: Some(HeaderValue::from_str(&etag(&json)).map_err(ApiError::internal)?),
        json: json.into(),
        gzip: Some(gzip.into()),
    })
}

/// A weak ETag of `body` (weak: one validator for the plain and the gzipped answer): 64-bit
/// FNV-1a and the length, stable across replicas and releases. The body is hashed, not the
/// stamps, so two replicas agree and a change that alters nothing keeps the tag.
fn etag(body: &[u8]) -> String {
    let hash = body.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("W/\"{hash:016x}-{:x}\"", body.len())
}

fn gzip(body: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut encoder =
        flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 4), flate2::Compression::new(6));
    encoder.write_all(body)?;
    encoder.finish()
}

/// Whether the client takes gzip (`Accept-Encoding: gzip`, not with `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| p.replace(' ', "").eq_ignore_ascii_case("q=0"));
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Whether `If-None-Match` names the directory's tag (weak comparison, as RFC 9110 asks for
/// this header).
fn if_none_match(headers: &HeaderMap, directory: &Rendered) -> bool {
    let Some(tag) = directory.etag.as_ref().and_then(|t| t.to_str().ok()) else {
        return false;
    };
    let tag = tag.trim_start_matches("W/");
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|candidate| candidate == "*" || candidate.trim_start_matches("W/") == tag)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NearbyQuery {
    /// Latitude of the searched point.
    #[param(required = true, minimum = -90, maximum = 90)]
    pub lat: Option<f64>,
    /// Longitude of the searched point.
    #[param(required = true, minimum = -180, maximum = 180)]
    pub lng: Option<f64>,
    /// Miles; 25 when absent.
    #[param(exclusive_minimum = 0)]
    pub radius: Option<f64>,
}

/// Coaches with a location within `radius` miles of a point, nearest first, with `distance`.
#[utoipa::path(get, path = "/coaches/search/nearby", tag = "coaching", params(NearbyQuery),
    responses((status = 200, description = "Coaches nearby, nearest first", body = [CoachListing])))]
async fn search_nearby(
    State(state): State<AppState>,
    Query(query): Query<NearbyQuery>,
) -> Result<axum::Json<Vec<CoachListing>>, ApiError> {
    let (Some(lat), Some(lng)) = (query.lat, query.lng) else {
        return Err(ApiError::bad_request(
            "Give both lat and lng of the place to search near.",
        ));
    };
    if !(-90.0..=90.0).contains(&lat) {
        return Err(ApiError::bad_request("lat must be between -90 and 90."));
    }
    if !(-180.0..=180.0).contains(&lng) {
        return Err(ApiError::bad_request("lng must be between -180 and 180."));
    }
    let radius_miles = query.radius.unwrap_or(25.0);
    if !(radius_miles.is_finite() && radius_miles > 0.0) {
        return Err(ApiError::bad_request(
            "radius must be a positive number of miles.",
        ));
    }
    let message = pb::SearchCoachesNearbyRequest {
        lat,
        lng,
        radius_miles,
    };
    let reply = crate::read!(state, coaching.search_coaches_nearby, None, message).await?;
    Ok(axum::Json(with_names(&state, None, reply.coaches).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlaceQuery {
    /// City, case-insensitive.
    pub city: Option<String>,
    /// State, case-insensitive.
    pub state: Option<String>,
}

impl PlaceQuery {
    /// The trimmed city and state; at least one must be given.
    fn parts(self) -> Result<(Option<String>, Option<String>), ApiError> {
        let city = blank_is_none(self.city).map(|c| c.trim().to_owned());
        let state = blank_is_none(self.state).map(|s| s.trim().to_owned());
        if city.is_none() && state.is_none() {
            return Err(ApiError::bad_request("Please enter a city or state"));
        }
        Ok((city, state))
    }
}

/// Coaches with a location in a city and/or state.
#[utoipa::path(get, path = "/coaches/search/city", tag = "coaching", params(PlaceQuery),
    responses((status = 200, description = "Coaches in that city or state", body = [CoachListing])))]
async fn search_city(
    State(state): State<AppState>,
    Query(query): Query<PlaceQuery>,
) -> Result<axum::Json<Vec<CoachListing>>, ApiError> {
    let (city, place_state) = query.parts()?;
    let message = pb::SearchCoachesByCityRequest {
        city,
        state: place_state,
    };
    let reply = crate::read!(state, coaching.search_coaches_by_city, None, message).await?;
    Ok(axum::Json(with_names(&state, None, reply.coaches).await?))
}

/// A typed place resolved to coordinates.
#[derive(Debug, Serialize, ToSchema)]
pub struct GeocodeResult {
    /// Whether the place is known; when false, search by city instead.
    pub found: bool,
    /// Null when not found.
    pub lat: Option<f64>,
    /// Null when not found.
    pub lng: Option<f64>,
    /// The place as found, e.g. "Austin, TX"; null when not found.
    pub name: Option<String>,
}

/// Resolves a city and/or state to coordinates from the bundled gazetteer (no outside network).
#[utoipa::path(get, path = "/geocode", tag = "coaching", params(PlaceQuery),
    responses((status = 200, description = "The place, or found: false", body = GeocodeResult)))]
async fn geocode(
    State(state): State<AppState>,
    Query(query): Query<PlaceQuery>,
) -> Result<axum::Json<GeocodeResult>, ApiError> {
    let (city, place_state) = query.parts()?;
    let query = [city, place_state]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
    let message = pb::GeocodeRequest { query };
    let reply = crate::read!(state, coaching.geocode, None, message).await?;
    Ok(axum::Json(if reply.found {
        GeocodeResult {
            found: true,
            lat: Some(reply.lat),
            lng: Some(reply.lng),
            name: Some(reply.name),
        }
    } else {
        GeocodeResult {
            found: false,
            lat: None,
            lng: None,
            name: None,
        }
    }))
}

// ---------------------------------------------------------------------------------------------
// Profile

/// A coach's profile with their name.
#[derive(Debug, Serialize, ToSchema)]
pub struct CoachProfile {
    #[schema(format = Uuid)]
    pub coach_id: String,
    pub coach_name: String,
    pub bio: String,
    pub specialties: Vec<String>,
    /// Dollars per hour.
    pub hourly_rate: f64,
    pub years_experience: i32,
}

impl CoachProfile {
    fn new(profile: pb::CoachProfile, coach_name: String) -> Self {
        Self {
            coach_id: profile.coach_id,
            coach_name,
            bio: profile.bio,
            specialties: profile.specialties,
            hourly_rate: profile.hourly_rate,
            years_experience: profile.years_experience,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CoachProfileBody {
    #[serde(default)]
    pub bio: String,
    #[serde(default)]
    pub specialties: Vec<String>,
    /// Dollars per hour, not negative.
    pub hourly_rate: f64,
    /// Not negative.
    pub years_experience: i32,
}

impl From<CoachProfileBody> for pb::CoachProfileFields {
    fn from(b: CoachProfileBody) -> Self {
        Self {
            bio: b.bio,
            specialties: b.specialties,
            hourly_rate: b.hourly_rate,
            years_experience: b.years_experience,
        }
    }
}

/// The signed-in coach's own name.
async fn own_name(state: &AppState, session: &Session) -> Result<String, ApiError> {
    let id = session.caller.user_id.to_string();
    Ok(names(state, Some(session), [id.clone()])
        .await?
        .remove(&id)
        .unwrap_or_else(|| DELETED_USER.to_owned()))
}

/// A coach's profile; 404 when they have none.
#[utoipa::path(get, path = "/coach/profile/{coach_id}", tag = "coaching",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id")),
    responses((status = 200, description = "The profile", body = CoachProfile),
              (status = 404, description = "This coach has no profile", body = crate::error::ErrorBody)))]
async fn get_profile(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = session.stamps.of(&[Context::Coaching, Context::Names]);
    state
        .memo
        .json("coach-profile", &coach_id, stamp, async {
            let message = pb::GetCoachProfileRequest {
                coach_id: coach_id.clone(),
            };
            let (profile, users) = tokio::join!(
                crate::read!(state, coaching.get_coach_profile, Some(&session), message),
                names(&state, Some(&session), [coach_id.clone()]),
            );
            let profile = present("coaching", profile?.profile)?;
            let coach_name = users?
                .remove(&profile.coach_id)
                .ok_or_else(|| ApiError::not_found("This coach no longer exists."))?;
            Ok(CoachProfile::new(profile, coach_name))
        })
        .await
}

/// Create the signed-in coach's profile.
#[utoipa::path(post, path = "/coach/profile", tag = "coaching", request_body = CoachProfileBody,
    responses((status = 201, description = "Profile created", body = CoachProfile),
              (status = 409, description = "A profile exists already: update it", body = crate::error::ErrorBody)))]
async fn create_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CoachProfileBody>,
) -> Result<(StatusCode, axum::Json<CoachProfile>), ApiError> {
    let message = pb::CreateCoachProfileRequest {
        fields: Some(body.into()),
    };
    let mut coaching = state.coaching.clone();
    let (reply, name) = tokio::join!(
        write(
            "coaching",
            coaching.create_coach_profile(state.request(Some(&session), message)),
        ),
        own_name(&state, &session),
    );
    let profile = present("coaching", reply?.profile)?;
    Ok((StatusCode::CREATED, axum::Json(CoachProfile::new(profile, name?))))
}

/// Update the signed-in coach's profile.
#[utoipa::path(put, path = "/coach/profile", tag = "coaching", request_body = CoachProfileBody,
    responses((status = 200, description = "Profile updated", body = CoachProfile),
              (status = 404, description = "No profile yet: create it", body = crate::error::ErrorBody)))]
async fn update_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CoachProfileBody>,
) -> Result<axum::Json<CoachProfile>, ApiError> {
    let message = pb::UpdateCoachProfileRequest {
        fields: Some(body.into()),
    };
    let mut coaching = state.coaching.clone();
    let (reply, name) = tokio::join!(
        write(
            "coaching",
            coaching.update_coach_profile(state.request(Some(&session), message)),
        ),
        own_name(&state, &session),
    );
    let profile = present("coaching", reply?.profile)?;
    Ok(axum::Json(CoachProfile::new(profile, name?)))
}

// ---------------------------------------------------------------------------------------------
// Locations

/// A place where a coach offers sessions.
#[derive(Debug, Serialize, ToSchema)]
pub struct Location {
    #[schema(format = Uuid)]
    pub location_id: String,
    pub name: String,
    pub address: String,
    pub court_number: String,
    pub city: String,
    pub state: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
}

impl From<pb::Location> for Location {
    fn from(l: pb::Location) -> Self {
        Self {
            location_id: l.location_id,
            name: l.name,
            address: l.address,
            court_number: l.court_number,
            city: l.city,
            state: l.state,
            latitude: l.latitude,
            longitude: l.longitude,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LocationBody {
    pub name: String,
    #[serde(default)]
    pub address: String,
    #[serde(default)]
    pub court_number: String,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub state: String,
    /// -90 to 90; without coordinates the place is looked up from city and state.
    #[serde(default)]
    pub latitude: Option<f64>,
    /// -180 to 180.
    #[serde(default)]
    pub longitude: Option<f64>,
}

/// The signed-in coach's locations.
#[utoipa::path(get, path = "/locations", tag = "coaching",
    responses((status = 200, description = "Own locations", body = [Location])))]
async fn my_locations(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Vec<Location>>, ApiError> {
    let reply = crate::read!(
        state,
        coaching.list_my_locations,
        Some(&session),
        pb::ListMyLocationsRequest {}
    )
    .await?;
    Ok(axum::Json(
        reply.locations.into_iter().map(Location::from).collect(),
    ))
}

/// Add a location for the signed-in coach.
#[utoipa::path(post, path = "/locations", tag = "coaching", request_body = LocationBody,
    responses((status = 201, description = "Location added", body = Location)))]
async fn create_location(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<LocationBody>,
) -> Result<(StatusCode, axum::Json<Location>), ApiError> {
    let message = pb::CreateLocationRequest {
        name: body.name,
        address: body.address,
        court_number: body.court_number,
        city: body.city,
        state: body.state,
        latitude: body.latitude,
        longitude: body.longitude,
    };
    let reply = write(
        "coaching",
        state
            .coaching
            .clone()
            .create_location(state.request(Some(&session), message)),
    )
    .await?;
    let location = present("coaching", reply.location)?;
    Ok((StatusCode::CREATED, axum::Json(location.into())))
}

/// A coach's locations.
#[utoipa::path(get, path = "/locations/coach/{coach_id}", tag = "coaching",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id")),
    responses((status = 200, description = "The coach's locations", body = [Location])))]
async fn coach_locations(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = session.stamps.of(&[Context::Coaching]);
    state
        .memo
        .json("coach-locations", &coach_id, stamp, async {
            let message = pb::ListCoachLocationsRequest {
                coach_id: coach_id.clone(),
            };
            let reply = crate::read!(state, coaching.list_coach_locations, Some(&session), message).await?;
            Ok(reply
                .locations
                .into_iter()
                .map(Location::from)
                .collect::<Vec<_>>())
        })
        .await
}

// ---------------------------------------------------------------------------------------------
// Availability

/// A slot a client can book: weekly on a day (recurring) or on one date (one-time).
#[derive(Debug, Serialize, ToSchema)]
pub struct Slot {
    #[schema(format = Uuid)]
    pub slot_id: String,
    /// recurring or one-time.
    pub slot_type: String,
    /// Monday to Sunday; recurring slots only.
    pub day_of_week: Option<String>,
    /// YYYY-MM-DD; one-time slots only.
    #[schema(format = Date)]
    pub specific_date: Option<String>,
    /// HH:MM.
    pub start_time: String,
    /// HH:MM.
    pub end_time: String,
    #[schema(format = Uuid)]
    pub location_id: Option<String>,
}

impl From<pb::Slot> for Slot {
    fn from(s: pb::Slot) -> Self {
        Self {
            slot_id: s.slot_id,
            slot_type: s.slot_type,
            day_of_week: s.day_of_week,
            specific_date: s.specific_date,
            start_time: s.start_time,
            end_time: s.end_time,
            location_id: s.location_id,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SlotBody {
    /// recurring or one-time.
    pub slot_type: String,
    /// Monday to Sunday; needed for a recurring slot.
    #[serde(default)]
    pub day_of_week: Option<String>,
    /// YYYY-MM-DD; needed for a one-time slot.
    #[serde(default)]
    #[schema(format = Date)]
    pub specific_date: Option<String>,
    /// HH:MM.
    pub start_time: String,
    /// HH:MM, after start_time.
    pub end_time: String,
    /// One of the coach's own locations; blank or absent for none.
    #[serde(default)]
    #[schema(format = Uuid)]
    pub location_id: Option<String>,
}

/// A coach's availability slots.
#[utoipa::path(get, path = "/availability/coach/{coach_id}", tag = "coaching",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id")),
    responses((status = 200, description = "The coach's slots", body = [Slot])))]
async fn coach_slots(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = session.stamps.of(&[Context::Coaching]);
    state
        .memo
        .json("coach-slots", &coach_id, stamp, async {
            let message = pb::ListCoachSlotsRequest {
                coach_id: coach_id.clone(),
            };
            let reply = crate::read!(state, coaching.list_coach_slots, Some(&session), message).await?;
            Ok(reply.slots.into_iter().map(Slot::from).collect::<Vec<_>>())
        })
        .await
}

/// Add an availability slot for the signed-in coach.
#[utoipa::path(post, path = "/availability", tag = "coaching", request_body = SlotBody,
    responses((status = 201, description = "Slot added", body = Slot)))]
async fn create_slot(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<SlotBody>,
) -> Result<(StatusCode, axum::Json<Slot>), ApiError> {
    let message = pb::CreateSlotRequest {
        slot_type: body.slot_type,
        day_of_week: blank_is_none(body.day_of_week),
        specific_date: blank_is_none(body.specific_date),
        start_time: body.start_time,
        end_time: body.end_time,
        location_id: blank_is_none(body.location_id),
    };
    let reply = write(
        "coaching",
        state
            .coaching
            .clone()
            .create_slot(state.request(Some(&session), message)),
    )
    .await?;
    let slot = present("coaching", reply.slot)?;
    Ok((StatusCode::CREATED, axum::Json(slot.into())))
}

/// Delete one of the signed-in coach's slots.
#[utoipa::path(delete, path = "/availability/{slot_id}", tag = "coaching",
    params(("slot_id" = String, Path, format = Uuid, description = "The slot")),
    responses((status = 204, description = "Slot deleted")))]
async fn delete_slot(
    State(state): State<AppState>,
    session: Session,
    PathId(slot_id): PathId,
) -> Result<StatusCode, ApiError> {
    write(
        "coaching",
        state
            .coaching
            .clone()
            .delete_slot(state.request(Some(&session), pb::DeleteSlotRequest { slot_id })),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_etag_changes_with_the_body_and_is_a_quoted_weak_tag() {
        let a = etag(br#"[{"coach_name":"Ann"}]"#);
        let b = etag(br#"[{"coach_name":"Anne"}]"#);
        assert_ne!(a, b);
        assert!(a.starts_with("W/\"") && a.ends_with('"'));
        assert_eq!(a, etag(br#"[{"coach_name":"Ann"}]"#));
    }

    #[test]
    fn if_none_match_accepts_lists_weak_and_strong_forms_and_star() {
        let tag = etag(b"[]");
        let directory = Rendered {
            json: "[]".into(),
            gzip: None,
            etag: Some(HeaderValue::from_str(&tag).unwrap()),
        };
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
            if_none_match(&headers, &directory)
        };
        let strong = tag.trim_start_matches("W/");
        assert!(with(&tag));
        assert!(with(strong));
        assert!(with(&format!("\"other\", {tag}")));
        assert!(with("*"));
        assert!(!with("\"other\""));
        assert!(!if_none_match(&HeaderMap::new(), &directory));
    }

    #[test]
    fn gzip_is_sent_only_to_clients_that_take_it() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(value).unwrap());
            accepts_gzip(&headers)
        };
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, gzip;q=0.8"));
        assert!(with("*"));
        assert!(!with("gzip;q=0"));
        assert!(!with("br, identity"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn a_place_needs_a_city_or_a_state() {
        let blank = PlaceQuery {
            city: Some("  ".into()),
            state: None,
        };
        assert_eq!(blank.parts().unwrap_err().detail, "Please enter a city or state");
        let state_only = PlaceQuery {
            city: None,
            state: Some(" TX ".into()),
        };
        assert_eq!(state_only.parts().unwrap(), (None, Some("TX".to_owned())));
    }
}
