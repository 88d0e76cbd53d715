//! The public coach directory: its filters and orders, shared with the searches
//! ([`super::search`]), and the listing every one of them answers. Coach names come from
//! identity-svc in one batched call per answer; the whole directory is remembered and served with
//! HTTP caching (`crate::http_cache`).

use axum::{extract::State, http::HeaderMap, response::Response};
use proto::coaching::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    call,
    error::ApiError,
    extract::Query,
    http_cache,
    memo::{self, Rendered, Stamps},
    names::named,
    pages::Paging,
    routes::cache,
    state::AppState,
};

/// The directory's filters and order (issue 19), shared by `/coaches` and its two searches; all
/// optional. coaching-svc judges them (a bad value is a 400 with its detail); here numbers are
/// only read.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DirectoryParams {
    /// Part of the coach's name or of a specialty, case-insensitive.
    #[param(max_length = 100, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub q: Option<String>,
    /// One of the coach's specialties, case-insensitive.
    #[param(max_length = 100, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    pub specialty: Option<String>,
    /// Dollars per hour, at least.
    #[param(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub min_rate: Option<String>,
    /// Dollars per hour, at most.
    #[param(value_type = Option<f64>, minimum = 0, maximum = 10000)]
    pub max_rate: Option<String>,
    /// Average rating, at least (1 to 5); coaches without reviews are left out.
    #[param(value_type = Option<f64>, minimum = 1, maximum = 5)]
    pub min_rating: Option<String>,
}

/// The order of the directory and of the city search (the nearby search's `sort` also takes
/// `distance`, [`super::search::NearbyQuery`]).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DirectorySort {
    /// `rating` (best first), `price` (cheapest first), `price_desc`, `experience` (most years
    /// first), `name`. Absent: the list's own order.
    #[param(pattern = "^(rating|price|price_desc|experience|name)?$")]
    pub sort: Option<String>,
}

impl DirectoryParams {
    /// Whether any filter, or the order `sort`, is given.
    fn any(&self, sort: Option<&str>) -> bool {
        [
            self.q.as_deref(),
            self.specialty.as_deref(),
            self.min_rate.as_deref(),
            self.max_rate.as_deref(),
            self.min_rating.as_deref(),
            sort,
        ]
        .iter()
        .any(|p| p.is_some_and(|v| !v.trim().is_empty()))
    }

    /// The query for coaching-svc in the order `sort`, with a page of `limit` after `after`.
    fn query(self, sort: Option<String>, limit: u32, after: String) -> Result<pb::DirectoryQuery, ApiError> {
        fn number(name: &str, raw: Option<String>) -> Result<Option<f64>, ApiError> {
            match raw.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                None => Ok(None),
                Some(v) => v
                    .parse::<f64>()
                    .ok()
                    .filter(|n| n.is_finite())
                    .map(Some)
                    .ok_or_else(|| ApiError::bad_request(format!("{name} must be a number, not {v:?}."))),
            }
        }
        Ok(pb::DirectoryQuery {
            min_rate: number("min_rate", self.min_rate)?,
            max_rate: number("max_rate", self.max_rate)?,
            min_rating: number("min_rating", self.min_rating)?,
            q: self.q,
            specialty: self.specialty,
            sort: sort.unwrap_or_default(),
            limit,
            after,
        })
    }

    /// A search's query in the order `sort`, when any filter or order is given (searches answer
    /// whole).
    pub(super) fn search(self, sort: Option<String>) -> Result<Option<pb::DirectoryQuery>, ApiError> {
        if self.any(sort.as_deref()) {
            self.query(sort, 0, String::new()).map(Some)
        } else {
            Ok(None)
        }
    }
}

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
    /// The average of the coach's reviews, to one decimal; null while they have none.
    #[schema(minimum = 1, maximum = 5)]
    pub rating_average: Option<f64>,
    /// How many reviews the average is of (hidden ones left out).
    pub rating_count: i64,
}

/// Listings with their coach names, in the service's order. A coach whose account no longer
/// exists (its removal has not reached coaching-svc yet) is left out.
pub(super) async fn with_names(
    state: &AppState,
    coaches: Vec<pb::CoachListing>,
) -> Result<Vec<CoachListing>, ApiError> {
    // A public route reads no change stamps at the gate (`routes::authorize`); without them no
    // remembered name is served, and every page would ask identity for its coaches' names.
    let stamps = state.redis.stamps().await.unwrap_or_else(|down| {
        tracing::warn!(error = %down, "change stamps unavailable; names read from identity");
        Stamps::default()
    });
    memo::with_stamps(stamps, listed(state, coaches)).await
}

async fn listed(state: &AppState, coaches: Vec<pb::CoachListing>) -> Result<Vec<CoachListing>, ApiError> {
    let ids = |c: &pb::CoachListing| [c.coach_id.clone()];
    named(state, None, coaches, ids, |c, names| {
        let coach_name = names.get(&c.coach_id)?.to_owned();
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
            rating_average: c.rating_average,
            rating_count: c.rating_count,
        })
    })
    .await
}

/// Every coach who has a profile. Revalidate with `If-None-Match`: the ETag covers the whole
/// body, names included. With filters, an order or `limit`, the coaches that pass, in that order,
/// a page at a time (`Link: <…>; rel="next"` while more remain); without any, the whole directory,
/// oldest profile first.
#[utoipa::path(get, path = "/coaches", tag = "coaching",
    params(("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer"),
           DirectoryParams, DirectorySort, Paging<100>),
    responses(
        (status = 200, description = "The coach directory", body = [CoachListing],
            headers(("ETag" = String, description = "Changes whenever the list changes (the whole directory only)"),
                    ("Cache-Control" = String, description = "no-cache: revalidate every time"),
                    ("Link" = String, description = "The next page, while more remain"))),
        (status = 304, description = "Unchanged since the ETag given in If-None-Match")))]
pub(crate) async fn list_coaches(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(params): Query<DirectoryParams>,
    Query(DirectorySort { sort }): Query<DirectorySort>,
    paging: Paging<100>,
) -> Result<Response, ApiError> {
    if params.any(sort.as_deref()) || paging.limit() > 0 || !paging.after().is_empty() {
        let query = params.query(sort, paging.limit(), paging.after())?;
        let message = pb::ListCoachesRequest { query: Some(query) };
        let reply = call::read!(state, coaching.list_coaches, None, message).await?;
        let listings = with_names(&state, reply.coaches).await?;
        return Ok(paging.respond(listings, &reply.next, None));
    }
    // Read before rendering: what is rendered then reflects every change made before the stamps.
    let stamp = match state.redis.stamps().await {
        Ok(stamps) => stamps.of(cache::DIRECTORY.shows),
        Err(down) => {
            tracing::warn!(error = %down, "change stamps unavailable; rendering the directory afresh");
            None
        }
    };
    let directory = state
        .memo
        .get_or_render(cache::DIRECTORY.name, "", stamp, || render_directory(&state))
        .await?;
    http_cache::respond(&headers, directory)
}

/// The directory as JSON, gzipped once, with its ETag.
async fn render_directory(state: &AppState) -> Result<Rendered, ApiError> {
    let message = pb::ListCoachesRequest { query: None };
    let reply = call::read!(state, coaching.list_coaches, None, message).await?;
    let listings = with_names(state, reply.coaches).await?;
    http_cache::rendered(serde_json::to_vec(&listings).map_err(ApiError::internal)?)
}
