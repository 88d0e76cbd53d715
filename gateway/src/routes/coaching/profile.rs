//! A coach's profile: read by any signed-in user, written by the coach, always with the coach's
//! name from identity-svc.

use axum::{extract::State, http::StatusCode, response::Response};
use proto::coaching::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call::{self, present},
    error::ApiError,
    extract::{Json, PathId, Session},
    names::names,
    routes::cache,
    state::AppState,
};

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
    /// The coach's IANA time zone (e.g. `America/Chicago`): the zone of a slot without a location.
    #[schema(example = "America/Chicago")]
    pub time_zone: String,
    /// The average of the coach's reviews, to one decimal; null while they have none.
    #[schema(minimum = 1, maximum = 5)]
    pub rating_average: Option<f64>,
    /// How many reviews the average is of (hidden ones left out).
    pub rating_count: i64,
    /// How many of them gave 1, 2, 3, 4 and 5 stars.
    pub rating_distribution: [i64; 5],
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
            time_zone: profile.time_zone,
            rating_average: profile.rating_average,
            rating_count: profile.rating_count,
            rating_distribution: std::array::from_fn(|i| profile.rating_stars.get(i).copied().unwrap_or(0)),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"bio": "Former college point guard.", "specialties": ["shooting", "defense"],
                          "hourly_rate": 60.0, "years_experience": 8}))]
pub struct CoachProfileBody {
    #[serde(default)]
    #[schema(
        max_length = 2000,
        pattern = "^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$"
    )]
    pub bio: String,
    /// Blank items are dropped and repeats kept once; at most 20 remain.
    #[serde(default)]
    pub specialties: Vec<String>,
    /// Dollars per hour.
    #[schema(minimum = 0, maximum = 10000)]
    pub hourly_rate: f64,
    #[schema(minimum = 0, maximum = 100)]
    pub years_experience: i32,
    /// An IANA time zone name (the web app sends the browser's, e.g. `America/Chicago`). Left out:
    /// an update keeps the current zone, a new profile gets `UTC`.
    #[serde(default)]
    #[schema(schema_with = crate::vocabulary::blank_or_time_zone, example = "America/Chicago")]
    pub time_zone: Option<String>,
}

impl From<CoachProfileBody> for pb::CoachProfileFields {
    fn from(b: CoachProfileBody) -> Self {
        Self {
            bio: b.bio,
            specialties: b.specialties,
            hourly_rate: b.hourly_rate,
            years_experience: b.years_experience,
            time_zone: b.time_zone.filter(|zone| !zone.trim().is_empty()),
            // Set by the handler from identity-svc, never from the body.
            coach_name: None,
        }
    }
}

/// The signed-in coach's own name.
async fn own_name(state: &AppState, session: &Session) -> Result<String, ApiError> {
    let id = session.caller.user_id.to_string();
    Ok(names(state, Some(session), [id.clone()]).await?.or_deleted(&id))
}

/// A coach's profile; 404 when they have none.
#[utoipa::path(get, path = "/coach/profile/{coach_id}", tag = "coaching",
    params(("coach_id" = String, Path, format = Uuid, description = "The coach's user id")),
    responses((status = 200, description = "The profile", body = CoachProfile),
              (status = 404, description = "This coach has no profile", body = crate::error::ErrorBody)))]
pub(crate) async fn get_profile(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
) -> Result<Response, ApiError> {
    let stamp = crate::memo::stamps().of(cache::COACH_PROFILE.shows);
    state
        .memo
        .json(cache::COACH_PROFILE.name, &coach_id, stamp, async {
            let message = pb::GetCoachProfileRequest {
                coach_id: coach_id.clone(),
            };
            let (profile, users) = tokio::join!(
                call::read!(state, coaching.get_coach_profile, Some(&session), message),
                names(&state, Some(&session), [coach_id.clone()]),
            );
            let profile = present("coaching", profile?.profile)?;
            let coach_name = users?
                .get(&profile.coach_id)
                .ok_or_else(|| ApiError::not_found("This coach no longer exists."))?
                .to_owned();
            Ok(CoachProfile::new(profile, coach_name))
        })
        .await
}

/// Create the signed-in coach's profile.
#[utoipa::path(post, path = "/coach/profile", tag = "coaching", request_body = CoachProfileBody,
    responses((status = 201, description = "Profile created", body = CoachProfile),
              (status = 409, description = "A profile exists already: update it", body = crate::error::ErrorBody)))]
pub(crate) async fn create_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CoachProfileBody>,
) -> Result<(StatusCode, axum::Json<CoachProfile>), ApiError> {
    // The name first: coaching keeps a copy for the directory's name search and order.
    let name = own_name(&state, &session).await;
    let message = pb::CreateCoachProfileRequest {
        fields: Some(pb::CoachProfileFields {
            coach_name: name.as_ref().ok().cloned(),
            ..body.into()
        }),
    };
    let reply = call::write!(state, coaching.create_coach_profile, Some(&session), message).await;
    let profile = present("coaching", reply?.profile)?;
    Ok((StatusCode::CREATED, axum::Json(CoachProfile::new(profile, name?))))
}

/// Update the signed-in coach's profile.
#[utoipa::path(put, path = "/coach/profile", tag = "coaching", request_body = CoachProfileBody,
    responses((status = 200, description = "Profile updated", body = CoachProfile),
              (status = 404, description = "No profile yet: create it", body = crate::error::ErrorBody)))]
pub(crate) async fn update_profile(
    State(state): State<AppState>,
    session: Session,
    Json(body): Json<CoachProfileBody>,
) -> Result<axum::Json<CoachProfile>, ApiError> {
    // The name first: coaching keeps a copy for the directory's name search and order.
    let name = own_name(&state, &session).await;
    let message = pb::UpdateCoachProfileRequest {
        fields: Some(pb::CoachProfileFields {
            coach_name: name.as_ref().ok().cloned(),
            ..body.into()
        }),
    };
    let reply = call::write!(state, coaching.update_coach_profile, Some(&session), message).await;
    let profile = present("coaching", reply?.profile)?;
    Ok(axum::Json(CoachProfile::new(profile, name?)))
}
