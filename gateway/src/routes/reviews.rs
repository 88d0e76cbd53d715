//! Reviews of sessions that took place (booking-svc keeps them): the client of a completed booking
//! posts one and edits it for 14 days, anyone signed in reads a coach's, the coach replies once,
//! the admin hides an abusive one. The client's name is resolved from identity-svc, one batch per
//! answer. A coach's average travels to the directory as coaching's copy, refreshed by booking's
//! `coach_rating_changed` events (coaching-svc renews its change stamp when it applies one).

use axum::{extract::State, http::StatusCode, response::Response};
use proto::booking::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    call,
    error::ApiError,
    extract::{Json, PathId, Session},
    names::{Names, named, named_one},
    pages::Paging,
    state::AppState,
};

/// A client's review of a session that took place.
#[derive(Debug, Serialize, ToSchema)]
pub struct Review {
    #[schema(format = Uuid)]
    pub review_id: String,
    #[schema(format = Uuid)]
    pub booking_id: String,
    #[schema(format = Uuid)]
    pub coach_id: String,
    pub client_name: String,
    /// Stars, 1 to 5.
    #[schema(minimum = 1, maximum = 5)]
    pub rating: i32,
    pub comment: Option<String>,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// RFC 3339, UTC: when the client last edited it (its posting, until then).
    #[schema(format = DateTime)]
    pub updated_at: String,
    /// The coach's reply, once they gave it.
    pub reply: Option<String>,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub replied_at: Option<String>,
    /// Hidden by an administrator: left out of the coach's reviews and of every average.
    pub hidden: bool,
    /// Why the administrator hid it.
    pub hidden_reason: Option<String>,
    /// RFC 3339, UTC: the client may edit it until then (unless it is hidden).
    #[schema(format = DateTime)]
    pub editable_until: String,
}

/// A review as the administrator lists it: with its coach's name as well.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminReview {
    #[serde(flatten)]
    pub review: Review,
    pub coach_name: String,
}

/// A review with its client's name.
pub(crate) fn review(r: pb::Review, names: &Names) -> Review {
    Review {
        client_name: names.or_deleted(&r.client_id),
        review_id: r.review_id,
        booking_id: r.booking_id,
        coach_id: r.coach_id,
        rating: r.rating,
        comment: r.comment,
        created_at: r.created_at,
        updated_at: r.updated_at,
        reply: r.reply,
        replied_at: r.replied_at,
        hidden: r.hidden,
        hidden_reason: r.hidden_reason,
        editable_until: r.editable_until,
    }
}

fn client_of(r: &pb::Review) -> [String; 1] {
    [r.client_id.clone()]
}

async fn one(state: &AppState, session: &Session, record: Option<pb::Review>) -> Result<Review, ApiError> {
    named_one(state, session, "booking", record, client_of, review).await
}

/// What a client says of a session.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"rating": 5, "comment": "Fixed my jump shot in one hour."}))]
pub struct ReviewBody {
    /// Stars, 1 to 5.
    #[schema(minimum = 1, maximum = 5)]
    pub rating: i32,
    /// At most 2,000 characters; blank or null for none.
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub comment: Option<String>,
}

/// The coach's reply to a review.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"reply": "Thanks, see you next week!"}))]
pub struct ReplyBody {
    /// At most 2,000 characters, not blank.
    #[schema(min_length = 1, max_length = 2000)]
    pub reply: String,
}

/// Why an administrator hides a review.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "Personal insults."}))]
pub struct HideBody {
    /// At most 500 characters, not blank; kept with the review.
    #[schema(min_length = 1, max_length = 500)]
    pub reason: String,
}

/// Review a completed session (its client, once).
#[utoipa::path(post, path = "/bookings/{booking_id}/review", tag = "reviews", request_body = ReviewBody,
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 201, description = "Posted", body = Review),
              (status = 404, description = "No such booking of yours", body = crate::error::ErrorBody),
              (status = 409, description = "The session is not completed, or you already reviewed it", body = crate::error::ErrorBody)))]
pub(crate) async fn post_review(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
    Json(body): Json<ReviewBody>,
) -> Result<(StatusCode, axum::Json<Review>), ApiError> {
    let message = pb::PostReviewRequest {
        booking_id,
        rating: body.rating,
        comment: body.comment,
    };
    let reply = call::write!(state, booking.post_review, Some(&session), message).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(one(&state, &session, reply.review).await?),
    ))
}

/// Edit your review of a session, within 14 days of posting it.
#[utoipa::path(put, path = "/bookings/{booking_id}/review", tag = "reviews", request_body = ReviewBody,
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "Edited", body = Review),
              (status = 404, description = "No such booking of yours, or no review of it yet", body = crate::error::ErrorBody),
              (status = 409, description = "Posted more than 14 days ago, or hidden by an administrator", body = crate::error::ErrorBody)))]
pub(crate) async fn edit_review(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
    Json(body): Json<ReviewBody>,
) -> Result<axum::Json<Review>, ApiError> {
    let message = pb::EditReviewRequest {
        booking_id,
        rating: body.rating,
        comment: body.comment,
    };
    let reply = call::write!(state, booking.edit_review, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.review).await?))
}

/// The review of a booking, for its client or its coach.
#[utoipa::path(get, path = "/bookings/{booking_id}/review", tag = "reviews",
    params(("booking_id" = String, Path, format = Uuid, description = "The booking")),
    responses((status = 200, description = "The review", body = Review),
              (status = 404, description = "No review of this booking (or not your booking)", body = crate::error::ErrorBody)))]
pub(crate) async fn get_review(
    State(state): State<AppState>,
    session: Session,
    PathId(booking_id): PathId,
) -> Result<axum::Json<Review>, ApiError> {
    let message = pb::GetBookingReviewRequest { booking_id };
    let reply = call::read!(state, booking.get_booking_review, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.review).await?))
}

/// A coach's reviews, newest first, hidden ones left out: pages of `limit` (20 by default), the
/// next one named by `Link: <…>; rel="next"`.
#[utoipa::path(get, path = "/coach/{coach_id}/reviews", tag = "reviews", params(
        ("coach_id" = String, Path, format = Uuid, description = "The coach"), Paging<100, 20>),
    responses((status = 200, description = "A page of the coach's reviews", body = [Review],
        headers(("Link" = String, description = "The next page, while more remain")))))]
pub(crate) async fn coach_reviews(
    State(state): State<AppState>,
    session: Session,
    PathId(coach_id): PathId,
    paging: Paging<100, 20>,
) -> Result<Response, ApiError> {
    let message = pb::ListCoachReviewsRequest {
        coach_id,
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, booking.list_coach_reviews, Some(&session), message).await?;
    let reviews = named(&state, Some(&session), reply.reviews, client_of, |r, names| {
        Some(review(r, names))
    })
    .await?;
    Ok(paging.respond(reviews, &reply.next, None))
}

/// Every review, newest first, hidden ones too (`hidden` with its `hidden_reason`), with the names
/// of its coach and client (admin): pages of `limit` (20 by default), the next one named by
/// `Link: <…>; rel="next"`.
#[utoipa::path(get, path = "/admin/reviews", tag = "reviews", params(Paging<100, 20>),
    responses((status = 200, description = "A page of the reviews", body = [AdminReview],
        headers(("Link" = String, description = "The next page, while more remain")))))]
pub(crate) async fn admin_reviews(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100, 20>,
) -> Result<Response, ApiError> {
    let message = pb::ListAllReviewsRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, booking.list_all_reviews, Some(&session), message).await?;
    let reviews = named(
        &state,
        Some(&session),
        reply.reviews,
        |r| [r.coach_id.clone(), r.client_id.clone()],
        |r, names| {
            Some(AdminReview {
                coach_name: names.or_deleted(&r.coach_id),
                review: review(r, names),
            })
        },
    )
    .await?;
    Ok(paging.respond(reviews, &reply.next, None))
}

/// Reply to a review of yours (coach), once.
#[utoipa::path(post, path = "/coach/reviews/{review_id}/reply", tag = "reviews", request_body = ReplyBody,
    params(("review_id" = String, Path, format = Uuid, description = "The review")),
    responses((status = 200, description = "Replied", body = Review),
              (status = 404, description = "No such review of yours", body = crate::error::ErrorBody),
              (status = 409, description = "Already replied to, or hidden", body = crate::error::ErrorBody)))]
pub(crate) async fn reply_to_review(
    State(state): State<AppState>,
    session: Session,
    PathId(review_id): PathId,
    Json(body): Json<ReplyBody>,
) -> Result<axum::Json<Review>, ApiError> {
    let message = pb::ReplyToReviewRequest {
        review_id,
        reply: body.reply,
    };
    let reply = call::write!(state, booking.reply_to_review, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.review).await?))
}

/// Hide an abusive review, with a reason (admin): it leaves the coach's reviews and averages.
#[utoipa::path(patch, path = "/admin/reviews/{review_id}/hide", tag = "reviews", request_body = HideBody,
    params(("review_id" = String, Path, format = Uuid, description = "The review")),
    responses((status = 200, description = "Hidden", body = Review),
              (status = 404, description = "No such review", body = crate::error::ErrorBody),
              (status = 409, description = "Already hidden", body = crate::error::ErrorBody)))]
pub(crate) async fn hide_review(
    State(state): State<AppState>,
    session: Session,
    PathId(review_id): PathId,
    Json(body): Json<HideBody>,
) -> Result<axum::Json<Review>, ApiError> {
    let message = pb::HideReviewRequest {
        review_id,
        reason: body.reason,
    };
    let reply = call::write!(state, booking.hide_review, Some(&session), message).await?;
    Ok(axum::Json(one(&state, &session, reply.review).await?))
}
