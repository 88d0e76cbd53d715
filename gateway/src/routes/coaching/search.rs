//! The directory's searches, nearby a point and by city or state, and geocoding of a typed place
//! from the bundled gazetteer. The directory's filters and orders apply to both searches
//! ([`DirectoryParams`]); searches answer whole, never remembered.

use axum::{extract::State, http::StatusCode};
use proto::coaching::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    blank_is_none,
    directory::{CoachListing, DirectoryParams, DirectorySort, with_names},
};
use crate::{call, error::ApiError, extract::Query, state::AppState};

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
    #[param(exclusive_minimum = 0, maximum = 12500)]
    pub radius: Option<f64>,
    /// `distance` (nearest first, the default), or one of the directory's orders: `rating`,
    /// `price`, `price_desc`, `experience`, `name`.
    #[param(pattern = "^(rating|price|price_desc|experience|name|distance)?$")]
    pub sort: Option<String>,
}

/// Coaches with a location within `radius` miles of a point, nearest first (or in `sort` order),
/// with `distance`; the directory's filters apply.
#[utoipa::path(get, path = "/coaches/search/nearby", tag = "coaching", params(NearbyQuery, DirectoryParams),
    responses((status = 200, description = "Coaches nearby, nearest first", body = [CoachListing])))]
pub(crate) async fn search_nearby(
    State(state): State<AppState>,
    Query(query): Query<NearbyQuery>,
    Query(refine): Query<DirectoryParams>,
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
    if radius_miles > 12_500.0 {
        return Err(ApiError::bad_request("radius must be at most 12500 miles."));
    }
    let message = pb::SearchCoachesNearbyRequest {
        lat,
        lng,
        radius_miles,
        query: refine.search(query.sort)?,
    };
    let reply = call::read!(state, coaching.search_coaches_nearby, None, message).await?;
    Ok(axum::Json(with_names(&state, reply.coaches).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlaceQuery {
    /// City, case-insensitive. Give a city, a state or both.
    #[param(pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub city: Option<String>,
    /// State, case-insensitive. Give a city, a state or both.
    #[param(pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub state: Option<String>,
}

impl PlaceQuery {
    /// The trimmed city and state: one line each, as the document says
    /// ([`crate::body_check::LINE`]); at least one must be given.
    fn parts(self) -> Result<(Option<String>, Option<String>), ApiError> {
        for (name, value) in [("city", &self.city), ("state", &self.state)] {
            if value.as_deref().is_some_and(|v| v.chars().any(char::is_control)) {
                return Err(ApiError::bad_request(format!(
                    "{name} must be one line without control characters"
                )));
            }
        }
        let city = blank_is_none(self.city).map(|c| c.trim().to_owned());
        let state = blank_is_none(self.state).map(|s| s.trim().to_owned());
        if city.is_none() && state.is_none() {
            // Each parameter is valid alone; together they must name a place, a rule OpenAPI's
            // parameters cannot state: 422, as for a body's rule across fields.
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Please enter a city or state",
            ));
        }
        Ok((city, state))
    }
}

/// Coaches with a location in a city and/or state; the directory's filters and orders apply.
#[utoipa::path(get, path = "/coaches/search/city", tag = "coaching", params(PlaceQuery, DirectoryParams, DirectorySort),
    responses((status = 200, description = "Coaches in that city or state", body = [CoachListing]),
              (status = 422, description = "Neither a city nor a state given (blank counts as not given)",
               body = crate::error::ErrorBody)))]
pub(crate) async fn search_city(
    State(state): State<AppState>,
    Query(query): Query<PlaceQuery>,
    Query(refine): Query<DirectoryParams>,
    Query(DirectorySort { sort }): Query<DirectorySort>,
) -> Result<axum::Json<Vec<CoachListing>>, ApiError> {
    let (city, place_state) = query.parts()?;
    let message = pb::SearchCoachesByCityRequest {
        city,
        state: place_state,
        query: refine.search(sort)?,
    };
    let reply = call::read!(state, coaching.search_coaches_by_city, None, message).await?;
    Ok(axum::Json(with_names(&state, reply.coaches).await?))
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
    responses((status = 200, description = "The place, or found: false", body = GeocodeResult),
              (status = 422, description = "Neither a city nor a state given (blank counts as not given)",
               body = crate::error::ErrorBody)))]
pub(crate) async fn geocode(
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
    let reply = call::read!(state, coaching.geocode, None, message).await?;
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let bell = PlaceQuery {
            city: Some("Aus\u{7}tin".into()),
            state: None,
        };
        assert_eq!(
            bell.parts().unwrap_err().detail,
            "city must be one line without control characters"
        );
    }

    /// The query's rule and the document's pattern for it say the same.
    #[test]
    fn one_line_is_what_the_pattern_says() {
        let line = regex::Regex::new(crate::body_check::LINE).unwrap();
        for c in (0..=0x3000).filter_map(char::from_u32) {
            assert_eq!(line.is_match(&c.to_string()), !c.is_control(), "{c:?}");
        }
    }
}
