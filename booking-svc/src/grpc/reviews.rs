//! The review RPCs of booking.v1: who may call each, then [`crate::reviews`].

use chrono::Duration;
use platform::{
    auth::{self, Role},
    instants::rfc3339,
    pages::Page,
};
use proto::booking::v1 as pb;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::{BookingService, client, coach};
use crate::{
    domain::{
        BookingId, CoachId,
        review::{EDIT_WINDOW_DAYS, Rating, parse_comment, parse_hide_reason, parse_reply},
    },
    error::Error,
    reviews::{self, ReviewRow, Said},
};

type Answer<T> = Result<Response<T>, Status>;

impl From<ReviewRow> for pb::Review {
    fn from(row: ReviewRow) -> Self {
        pb::Review {
            review_id: row.review_id.to_string(),
            booking_id: row.booking_id.to_string(),
            coach_id: row.coach_id.to_string(),
            client_id: row.client_id.to_string(),
            rating: i32::from(row.rating),
            comment: row.comment,
            created_at: rfc3339(row.created_at),
            updated_at: rfc3339(row.updated_at),
            reply: row.reply,
            replied_at: row.replied_at.map(rfc3339),
            hidden: row.hidden_at.is_some(),
            hidden_reason: row.hidden_reason,
            editable_until: rfc3339(row.created_at + Duration::days(EDIT_WINDOW_DAYS)),
        }
    }
}

/// What a review request says, parsed.
fn said(rating: i32, comment: Option<String>) -> Result<Said, Error> {
    Ok(Said {
        rating: Rating::parse(rating)?,
        comment: parse_comment(comment)?,
    })
}

/// A review id from a request.
fn review_id(raw: &str) -> Result<Uuid, Error> {
    raw.trim()
        .parse()
        .map_err(|_| Error::Invalid("review_id must be a UUID".into()))
}

pub(super) async fn post_review(
    s: &BookingService,
    request: Request<pb::PostReviewRequest>,
) -> Answer<pb::PostReviewResponse> {
    let client_id = client(&request, "review a session")?;
    let r = request.into_inner();
    let booking_id = BookingId::parse(&r.booking_id)?;
    let said = said(r.rating, r.comment)?;
    let row = reviews::post(&s.db, booking_id, client_id, said, s.clock.now()).await?;
    s.lifecycle.wake_relay();
    tracing::info!(review_id = %row.review_id, %booking_id, "review posted");
    Ok(Response::new(pb::PostReviewResponse {
        review: Some(row.into()),
    }))
}

pub(super) async fn edit_review(
    s: &BookingService,
    request: Request<pb::EditReviewRequest>,
) -> Answer<pb::EditReviewResponse> {
    let client_id = client(&request, "edit a review")?;
    let r = request.into_inner();
    let booking_id = BookingId::parse(&r.booking_id)?;
    let said = said(r.rating, r.comment)?;
    let row = reviews::edit(&s.db, booking_id, client_id, said, s.clock.now()).await?;
    s.lifecycle.wake_relay();
    Ok(Response::new(pb::EditReviewResponse {
        review: Some(row.into()),
    }))
}

pub(super) async fn get_booking_review(
    s: &BookingService,
    request: Request<pb::GetBookingReviewRequest>,
) -> Answer<pb::GetBookingReviewResponse> {
    let caller = auth::caller(&request)?;
    let booking_id = BookingId::parse(&request.get_ref().booking_id)?;
    let row = reviews::of_booking(&s.db, booking_id, caller.user_id).await?;
    Ok(Response::new(pb::GetBookingReviewResponse {
        review: Some(row.into()),
    }))
}

pub(super) async fn list_coach_reviews(
    s: &BookingService,
    request: Request<pb::ListCoachReviewsRequest>,
) -> Answer<pb::ListCoachReviewsResponse> {
    auth::caller(&request)?;
    let r = request.into_inner();
    let coach_id = CoachId::parse(&r.coach_id)?;
    let page = Page::parse(r.limit, &r.after)?;
    let rows = reviews::of_coach(&s.db, coach_id, &page).await?;
    let (rows, next) = page.split(rows, |r| (r.created_at, r.review_id));
    Ok(Response::new(pb::ListCoachReviewsResponse {
        reviews: rows.into_iter().map(Into::into).collect(),
        next,
    }))
}

pub(super) async fn list_all_reviews(
    s: &BookingService,
    request: Request<pb::ListAllReviewsRequest>,
) -> Answer<pb::ListAllReviewsResponse> {
    auth::require_role(&request, &[Role::Admin])?;
    let r = request.into_inner();
    let page = Page::parse(r.limit, &r.after)?;
    let rows = reviews::all(&s.db, &page).await?;
    let (rows, next) = page.split(rows, |r| (r.created_at, r.review_id));
    Ok(Response::new(pb::ListAllReviewsResponse {
        reviews: rows.into_iter().map(Into::into).collect(),
        next,
    }))
}

pub(super) async fn reply_to_review(
    s: &BookingService,
    request: Request<pb::ReplyToReviewRequest>,
) -> Answer<pb::ReplyToReviewResponse> {
    let coach_id = coach(&request, "reply to a review")?;
    let r = request.into_inner();
    let review_id = review_id(&r.review_id)?;
    let reply = parse_reply(r.reply)?;
    let row = reviews::reply(&s.db, review_id, coach_id, reply, s.clock.now()).await?;
    Ok(Response::new(pb::ReplyToReviewResponse {
        review: Some(row.into()),
    }))
}

pub(super) async fn hide_review(
    s: &BookingService,
    request: Request<pb::HideReviewRequest>,
) -> Answer<pb::HideReviewResponse> {
    let admin_id = auth::require_role(&request, &[Role::Admin])?.user_id;
    let r = request.into_inner();
    let review_id = review_id(&r.review_id)?;
    let reason = parse_hide_reason(r.reason)?;
    let row = reviews::hide(&s.db, review_id, admin_id, reason, s.clock.now()).await?;
    s.lifecycle.wake_relay();
    tracing::info!(%review_id, "review hidden");
    Ok(Response::new(pb::HideReviewResponse {
        review: Some(row.into()),
    }))
}
