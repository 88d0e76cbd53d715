//! Calendars (issue 18): each person's sessions in the calendar app they use.
//!
//! - `GET /calendar/feed` gives the signed-in client, coach or gym the address of their feed,
//!   `<PUBLIC_URL>/api/calendar/<secret>.ics`, and `POST /calendar/feed` replaces its secret
//!   (identity-svc keeps it; the old address answers 404 from then on).
//! - `GET /calendar/{file}` is that address: no token, the secret is the key. identity says whose
//!   feed it is; their sessions come from booking-svc and gym-svc in one call each, side by side,
//!   and the names they mention from identity in one more; [`crate::ics`] writes the calendar.
//! - `GET /bookings/{booking_id}/ics` is one booking as an `.ics` file, for its client or coach.
//!
//! The feed is fetched by calendar apps every few minutes to every day, from their own servers,
//! and its address is a secret: its answers are `private` (no shared cache keeps them), fresh for
//! [`FRESH_FOR`] seconds, and carry an ETag of the calendar, so a fetch of an unchanged feed is a
//! 304 without a body. Fetches are counted per feed and per client address in Redis (429 past
//! `CALENDAR_RATE_LIMIT_PER_MINUTE` and `CALENDAR_RATE_LIMIT_PER_ADDRESS_PER_MINUTE`): a calendar
//! app gone wild, or someone trying addresses, cannot take the services with it. The secret never
//! reaches a log: the gateway logs routes by their template, nginx skips these requests.
//!
//! [`sessions`] turns bookings and court time into the events a person's calendar shows.

mod sessions;

use axum::{
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use proto::{booking::v1 as booking_pb, identity::v1 as identity_pb};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{ClientIp, PathId, Session},
    http_cache, ics, names,
    state::AppState,
};
use sessions::{Perspective, booking_session, compose};

/// Seconds a fetched feed stays fresh for the app that fetched it.
const FRESH_FOR: u32 = 300;

/// Why an address opens no feed.
const NO_FEED: &str =
    "This calendar address does not exist or was reset. Copy the current one from your dashboard.";

/// The address of a person's calendar feed.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"url": "https://courtside.example/api/calendar/Vx2V0F6n4yJ1bq9Hc0wYt3ZpR8sLmN5aQeK7uDfGhIj.ics"}))]
pub struct CalendarFeed {
    /// Subscribe to it in a calendar app. It opens your sessions without signing in: keep it to
    /// yourself, and reset it if it leaks. Shown only when the feed is made or reset (Courtside
    /// keeps a hash of it, not the address): null when you have a feed already; reset it for a
    /// new address.
    #[schema(format = "uri")]
    pub url: Option<String>,
}

/// The answer for identity's `secret`, empty when the person has a feed whose secret is not kept.
fn feed(state: &AppState, secret: String) -> CalendarFeed {
    CalendarFeed {
        url: (!secret.is_empty()).then(|| format!("{}/api/calendar/{secret}.ics", state.config.public_url)),
    }
}

/// The address of the signed-in person's calendar feed, made on the first ask (and the first ask
/// after signing out everywhere, a password change or a role change, which end it): every session
/// of theirs from 30 days ago on, for a calendar app to subscribe to. The address is shown only
/// when made; once a feed exists, `url` is null.
#[utoipa::path(get, path = "/calendar/feed", tag = "calendar",
    responses((status = 200, description = "The feed's address when it was made now, else a null url", body = CalendarFeed)))]
pub(crate) async fn get_feed(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<CalendarFeed>, ApiError> {
    let message = identity_pb::GetCalendarFeedRequest {};
    let reply = call::read!(state, identity.get_calendar_feed, Some(&session), message).await?;
    Ok(axum::Json(feed(&state, reply.secret)))
}

/// Give the signed-in person's calendar feed a new address. The old one answers 404 at once:
/// calendars subscribed to it stop updating until they subscribe to the new one.
#[utoipa::path(post, path = "/calendar/feed", tag = "calendar",
    responses((status = 200, description = "The feed's new address", body = CalendarFeed)))]
pub(crate) async fn reset_feed(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<CalendarFeed>, ApiError> {
    let message = identity_pb::ResetCalendarFeedRequest {};
    let reply = call::write!(state, identity.reset_calendar_feed, Some(&session), message).await?;
    Ok(axum::Json(feed(&state, reply.secret)))
}

/// The secret in a feed's file name `<secret>.ics`: 43 URL-safe characters.
fn secret_of(file: &str) -> Option<&str> {
    file.strip_suffix(".ics").filter(|secret| {
        secret.len() == 43
            && secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// Counts a fetch against the client's address and, when there is one, the feed; a 429 past
/// either limit. Fails open while Redis is down (said in the log), as sign-in limits do.
async fn limit(state: &AppState, ip: &str, secret: Option<&str>) -> Result<(), ApiError> {
    let mut buckets = vec![(
        format!("cal-ip:{ip}"),
        state.config.calendar_rate_limit_per_address_per_minute,
    )];
    if let Some(secret) = secret {
        // A prefix tells feeds apart (96 bits) without writing the secret into Redis.
        buckets.push((
            format!("cal-feed:{}", &secret[..16]),
            state.config.calendar_rate_limit_per_minute,
        ));
    }
    match state.redis.hit(&buckets).await {
        Ok(Some(retry_after)) => Err(ApiError::too_many(retry_after)),
        Ok(None) => Ok(()),
        Err(down) => {
            tracing::warn!(error = %down, "calendar feed rate limits are off while Redis is unavailable");
            Ok(())
        }
    }
}

/// A person's calendar feed (RFC 5545, `text/calendar`), the address `GET /calendar/feed` gives;
/// no token: the address is the key. Their sessions from 30 days ago on, each one event with a
/// stable UID, its start and end in UTC, its status and a SEQUENCE that grows with every change: a
/// client's pending (tentative) and confirmed bookings, a coach's confirmed bookings and approved
/// court time, a gym's approved reservations, and those called off, denied or expired
/// (cancelled) so that subscribed calendars drop them. Revalidate with `If-None-Match`.
#[utoipa::path(get, path = "/calendar/{file}", tag = "calendar",
    params(("file" = String, Path, pattern = r"^[A-Za-z0-9_-]{43}\.ics$",
                description = "The feed's file name: its secret, then `.ics`"),
           ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer")),
    responses(
        (status = 200, description = "The calendar", content_type = "text/calendar", body = String,
            headers(("ETag" = String, description = "Changes whenever the calendar changes"),
                    ("Cache-Control" = String, description = "private: for the fetching app only, fresh for 5 minutes"))),
        (status = 304, description = "Unchanged since the ETag given in If-None-Match"),
        (status = 404, description = "No feed has this address (it was never given, or was reset)", body = crate::error::ErrorBody),
        (status = 429, description = "This feed, or this address, fetched too often; wait", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before trying again")))))]
pub(crate) async fn calendar_feed(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    PathId(file): PathId,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let secret = secret_of(&file);
    limit(&state, &ip, secret).await?;
    let secret = secret.ok_or_else(|| ApiError::not_found(NO_FEED))?;
    let message = identity_pb::ResolveCalendarFeedRequest {
        secret: secret.to_owned(),
    };
    let owner = call::read!(state, identity.resolve_calendar_feed, None, message)
        .await
        .map_err(|e| match e.status {
            StatusCode::NOT_FOUND => ApiError::not_found(NO_FEED),
            _ => e,
        })?;
    let Perspective {
        sessions,
        calendar_name,
    } = compose(&state, owner).await?;
    let body = ics::feed(&calendar_name, &sessions);
    let tag = http_cache::etag(body.as_bytes());
    let cache = [
        (
            header::CACHE_CONTROL,
            HeaderValue::from_str(&format!("private, max-age={FRESH_FOR}")).map_err(ApiError::internal)?,
        ),
        (
            header::ETAG,
            HeaderValue::from_str(&tag).map_err(ApiError::internal)?,
        ),
        // The address is a secret: never for a search engine's index.
        (
            header::HeaderName::from_static("x-robots-tag"),
            HeaderValue::from_static("noindex, nofollow"),
        ),
    ];
    if http_cache::names_tag(&headers, &tag) {
        return Ok((StatusCode::NOT_MODIFIED, cache).into_response());
    }
    Ok((
        cache,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/calendar; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("inline; filename=\"courtside.ics\""),
            ),
        ],
        body,
    )
        .into_response())
}

/// One booking as an `.ics` file (`text/calendar`), for its client or its coach to add to their
/// calendar: the same event, UID included, as in their feed.
#[utoipa::path(get, path = "/bookings/{booking_id}/ics", tag = "calendar",
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses(
        (status = 200, description = "The booking's event", content_type = "text/calendar", body = String,
            headers(("Content-Disposition" = String, description = "attachment, with a file name"))),
        (status = 404, description = "No such booking of yours", body = crate::error::ErrorBody)))]
pub(crate) async fn booking_ics(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
) -> Result<Response, ApiError> {
    let message = booking_pb::GetCalendarBookingRequest { booking_id };
    let reply = call::read!(state, booking.get_calendar_booking, Some(&session), message).await?;
    let booking = call::present("booking", reply.booking)?;
    let record = call::present("booking", booking.booking.as_ref())?;
    let parties = [record.coach_id.clone(), record.client_id.clone()];
    let names = names::names(&state, Some(&session), parties).await?;
    let event = booking_session(&state, session.caller.role.as_str(), &booking, &names)
        .ok_or_else(|| ApiError::internal("a booking without readable instants"))?;
    let disposition = format!(
        "attachment; filename=\"courtside-session-{}.ics\"",
        record.booking_date
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/calendar; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).map_err(ApiError::internal)?,
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-store"),
            ),
        ],
        ics::single(&event),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::secret_of;

    #[test]
    fn only_a_secret_and_ics_is_a_feed_file() {
        let secret = "Vx2V0F6n4yJ1bq9Hc0wYt3ZpR8sLmN5aQeK7uDfGhIj";
        assert_eq!(secret_of(&format!("{secret}.ics")), Some(secret));
        for bad in [
            secret.to_owned(),
            format!("{secret}.ICS"),
            format!("{}.ics", &secret[1..]),
            format!("{secret}A.ics"),
            format!("{}+.ics", &secret[1..]),
            format!("{}é.ics", &secret[2..]),
            "feed".to_owned(),
        ] {
            assert_eq!(secret_of(&bad), None, "{bad}");
        }
    }
}
