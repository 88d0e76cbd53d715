//! Notifications (issue 18): the signed-in person's inbox, which identity-svc keeps and fills from
//! the booking and gym contexts' events and from account facts.
//!
//! - `GET /notifications` pages the inbox newest first (`crate::pages`: 50 by default, at most
//!   100, `Link: <…>; rel="next"` while more remain); `GET /notifications/unread-count` counts the
//!   unread; `POST /notifications/{notification_id}/read` and `POST /notifications/read-all` mark
//!   them read. Another person's notification is a 404, as one that does not exist.
//! - `GET /notifications/stream` pushes each new one live, as Server-Sent Events
//!   ([`stream`]), through this replica's subscription to identity's announcements
//!   ([`crate::live`]).
//! - `GET`/`PUT /notifications/preferences`: which of them also come by email ([`preferences`]).

pub mod preferences;

use std::{convert::Infallible, sync::Arc, time::Duration};

use axum::{
    extract::State,
    http::{HeaderValue, StatusCode},
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
};
use futures::Stream;
use proto::identity::v1 as pb;
use serde::Serialize;
use tokio::sync::broadcast::{Receiver, error::RecvError};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    call,
    error::ApiError,
    extract::{PathId, Session},
    limits::StreamLease,
    live::Announced,
    pages::Paging,
    state::AppState,
};

/// How often an open stream sends a keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How often an open stream checks that its token is still in force.
pub const RECHECK: Duration = Duration::from_secs(3);

/// What a notification is about.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)] // Only documents the values `kind` takes.
pub enum NotificationKind {
    BookingRequested,
    BookingConfirmed,
    BookingDenied,
    BookingCancelled,
    BookingExpired,
    BookingRescheduled,
    BookingReminder,
    ReservationRequested,
    ReservationApproved,
    ReservationDenied,
    ReservationCancelled,
    ReservationExpired,
    ReservationReminder,
    PaymentFailed,
    PaymentReceipt,
    PaymentRefunded,
    Welcome,
    PasswordChanged,
    RoleChanged,
}

/// One notification of the signed-in person's inbox.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"notification_id": "0f6a1c7e-2b1d-4c55-8f0e-5d8b7a9c1e23",
    "kind": "booking_requested", "title": "New booking request",
    "body": "Ann Lee asked to book 2030-06-03 from 10:00 to 11:00 at Court A (America/Chicago).",
    "link": "/coach/dashboard?booking=7d1e6c2a-3b4f-4e8a-9c5d-2f1a0b9e8d76", "created_at": "2030-05-28T14:03:11.120Z", "read_at": null}))]
pub struct Notification {
    #[schema(format = Uuid)]
    pub notification_id: String,
    #[schema(value_type = NotificationKind)]
    pub kind: String,
    pub title: String,
    pub body: String,
    /// The app path that shows the thing: the reader's dashboard, at the booking
    /// (`/coach/dashboard?booking=<id>`) or court reservation (`?reservation=<id>`) it concerns;
    /// an account notice links to the dashboard alone; a receipt or a refund to the booking's
    /// receipt page (`/bookings/<id>/receipt`), a declined card to the client's payment methods
    /// (`/client/dashboard#payment-methods`).
    pub link: String,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When it was first marked read; null while unread.
    #[schema(format = DateTime)]
    pub read_at: Option<String>,
}

impl From<pb::Notification> for Notification {
    fn from(n: pb::Notification) -> Self {
        Notification {
            notification_id: n.notification_id,
            kind: n.kind,
            title: n.title,
            body: n.body,
            link: n.link,
            created_at: n.created_at,
            read_at: n.read_at,
        }
    }
}

/// How many notifications are unread.
#[derive(Debug, Serialize, ToSchema)]
pub struct UnreadCount {
    pub count: i64,
}

/// The signed-in person's notifications, newest first: 50 a page unless `limit` says otherwise (at
/// most 100), the next page in the `Link` header.
#[utoipa::path(get, path = "/notifications", tag = "notifications", params(Paging<100, 50>),
    responses((status = 200, description = "A page of the inbox, newest first", body = [Notification],
        headers(("Link" = String, description = "`<…>; rel=\"next\"` while more notifications remain")))))]
pub(crate) async fn list_notifications(
    State(state): State<AppState>,
    session: Session,
    paging: Paging<100, 50>,
) -> Result<Response, ApiError> {
    let message = pb::ListNotificationsRequest {
        limit: paging.limit(),
        after: paging.after(),
    };
    let reply = call::read!(state, identity.list_notifications, Some(&session), message).await?;
    let rows: Vec<Notification> = reply.notifications.into_iter().map(Into::into).collect();
    Ok(paging.respond(rows, &reply.next, None))
}

/// How many of the signed-in person's notifications are unread.
#[utoipa::path(get, path = "/notifications/unread-count", tag = "notifications",
    responses((status = 200, description = "The number of unread notifications", body = UnreadCount)))]
pub(crate) async fn unread_count(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<UnreadCount>, ApiError> {
    let message = pb::CountUnreadNotificationsRequest {};
    let reply = call::read!(
        state,
        identity.count_unread_notifications,
        Some(&session),
        message
    )
    .await?;
    Ok(axum::Json(UnreadCount { count: reply.count }))
}

/// Mark one of the signed-in person's notifications read.
#[utoipa::path(post, path = "/notifications/{notification_id}/read", tag = "notifications",
    params(("notification_id" = String, Path, format = Uuid, description = "The notification")),
    responses((status = 204, description = "Marked read (it stays read)"),
              (status = 404, description = "You have no notification with this id", body = crate::error::ErrorBody)))]
pub(crate) async fn mark_read(
    State(state): State<AppState>,
    session: Session,
    PathId(notification_id): PathId,
) -> Result<StatusCode, ApiError> {
    let message = pb::MarkNotificationReadRequest { notification_id };
    call::write!(state, identity.mark_notification_read, Some(&session), message).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Mark every notification of the signed-in person read.
#[utoipa::path(post, path = "/notifications/read-all", tag = "notifications",
    responses((status = 204, description = "Every notification marked read")))]
pub(crate) async fn mark_all_read(
    State(state): State<AppState>,
    session: Session,
) -> Result<StatusCode, ApiError> {
    let message = pb::MarkAllNotificationsReadRequest {};
    call::write!(
        state,
        identity.mark_all_notifications_read,
        Some(&session),
        message
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An open stream: its owner, their token, what this replica announces, and its place among the
/// owner's streams (given back when the stream is dropped).
struct Open {
    state: AppState,
    token: Arc<str>,
    user_id: Uuid,
    announced: Receiver<Announced>,
    recheck: tokio::time::Interval,
    lease: Option<StreamLease>,
    renew: tokio::time::Interval,
}

/// The owner's next notification, or `None` when the stream must end (the token no longer in
/// force, or the replica shutting down).
async fn next_event(open: &mut Open) -> Option<Event> {
    loop {
        tokio::select! {
            received = open.announced.recv() => match received {
                Ok(announced) if announced.user_id == open.user_id => {
                    return Some(Event::default().event(announced.kind).data(announced.json));
                }
                Ok(_) => {}
                Err(RecvError::Lagged(skipped)) => {
                    tracing::warn!(skipped, "a slow notification stream skipped announcements");
                }
                Err(RecvError::Closed) => return None,
            },
            _ = open.renew.tick() => {
                if let Some(lease) = &open.lease {
                    lease.renew().await;
                }
            }
            _ = open.recheck.tick() => {
                if let Err(error) = crate::auth::session(&open.state, &open.token).await
                    && error.status == StatusCode::UNAUTHORIZED
                {
                    return None;
                }
            }
        }
    }
}

/// The signed-in person's new notifications, live, as Server-Sent Events: each one an event named
/// `notification` whose data is the notification (as `GET /notifications` lists it), a comment
/// `connected` first and a keep-alive comment every 15 seconds. Each new message of the person's
/// conversations (sent to them, or by them from another tab) is an event named `message` whose
/// data is `{conversation_id, message}` (the message as `GET /conversations/{id}/messages` lists it). The stream ends when the token
/// stops being in force (sign-out, a changed password or role). Read the inbox again whenever
/// the stream (re)opens: what was announced while it was closed is only there.
///
/// One person holds at most `LIVE_STREAMS_PER_USER` streams at a time (5 unless configured), over
/// every gateway: one more is a 429 until one of them closes.
#[utoipa::path(get, path = "/notifications/stream", tag = "notifications",
    responses((status = 200, description = "The stream of new notifications", content_type = "text/event-stream", body = String),
              (status = 429, description = "Every live stream this person may hold is open", body = crate::error::ErrorBody,
                  headers(("Retry-After" = u64, description = "Seconds until a stream of a gone gateway frees its place at the latest")))))]
pub(crate) async fn stream(State(state): State<AppState>, session: Session) -> Result<Response, ApiError> {
    let lease = state.limits.open_stream(session.caller.user_id).await?;
    let announced = state.live.subscribe().await;
    let open = Open {
        token: session.token.clone(),
        user_id: session.caller.user_id,
        announced,
        recheck: tokio::time::interval_at(tokio::time::Instant::now() + RECHECK, RECHECK),
        lease,
        renew: tokio::time::interval_at(
            tokio::time::Instant::now() + crate::limits::LEASE_RENEW,
            crate::limits::LEASE_RENEW,
        ),
        state,
    };
    let connected = futures::stream::once(async { Ok(Event::default().comment("connected")) });
    let events = futures::stream::unfold(open, |mut open| async move {
        let event = next_event(&mut open).await?;
        Some((Ok::<_, Infallible>(event), open))
    });
    let body: std::pin::Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>> =
        Box::pin(futures::StreamExt::chain(connected, events));
    let mut response = Sse::new(body)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"))
        .into_response();
    // nginx passes each event on at once instead of buffering the answer.
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}
