//! The booking.v1 service: proto → domain → store → proto, nothing else.

use platform::{
    auth::{self, Caller, Role},
    clock::SharedClock,
    instants::rfc3339,
    pages::Page,
};
use proto::booking::v1::{self as pb, booking_server};
use sqlx::PgPool;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    calendar, coaching,
    domain::{Action, BookingDate, BookingId, ClientId, CoachId, Party, SlotId, format_time, parse_reason},
    error::Error,
    lifecycle::Lifecycle,
    slots::Slots,
    store::{self, BookingRow, NewBooking},
};

/// The state every RPC shares.
#[derive(Clone)]
pub struct BookingService {
    /// For reads; every write goes through `lifecycle`.
    pub db: PgPool,
    pub lifecycle: Lifecycle,
    /// coaching's slots, remembered while they are current.
    pub slots: Slots,
    /// Where "now" comes from.
    pub clock: SharedClock,
}

impl From<BookingRow> for pb::BookingRecord {
    fn from(row: BookingRow) -> Self {
        pb::BookingRecord {
            booking_id: row.booking_id.to_string(),
            coach_id: row.coach_id.to_string(),
            client_id: row.client_id.to_string(),
            slot_id: row.slot_id.to_string(),
            booking_date: row.booking_date.to_string(),
            start_time: format_time(row.start_time),
            end_time: format_time(row.end_time),
            location_name: row.location_name,
            status: row.status,
            payment_status: row.payment_status,
            created_at: rfc3339(row.created_at),
            time_zone: row.time_zone,
            starts_at: rfc3339(row.starts_at),
            ends_at: rfc3339(row.ends_at),
            late_cancellation: row.late_cancellation,
            cancelled_by: row.cancelled_by,
            cancellation_reason: row.cancellation_reason,
        }
    }
}

fn one(row: BookingRow) -> Option<pb::BookingRecord> {
    Some(row.into())
}

/// The caller, when they are a client; who may not book is told so.
fn client<T>(request: &Request<T>, doing: &str) -> Result<ClientId, Status> {
    let caller = auth::caller(request)?;
    match caller.role {
        Role::Client => Ok(ClientId(caller.user_id)),
        role => Err(Error::Forbidden(format!(
            "only a client account can {doing}; yours is a {role} account"
        ))
        .into()),
    }
}

/// The idempotency key the gateway passed along (the client's `Idempotency-Key`), if any.
fn idempotency_key<T>(request: &Request<T>) -> Option<String> {
    request
        .metadata()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .filter(|k| !k.is_empty())
        .map(str::to_owned)
}

/// The answer to a booking request whose key already made `row`: that booking, when the request
/// asks for the same coach, slot and date; refused when the key made another booking.
fn made_with_key(
    row: BookingRow,
    coach_id: CoachId,
    slot_id: SlotId,
    date: BookingDate,
) -> Result<Response<pb::CreateBookingResponse>, Status> {
    if row.coach_id != coach_id.0 || row.slot_id != slot_id.0 || row.booking_date != date.get() {
        return Err(Error::KeyUsed.into());
    }
    tracing::info!(booking_id = %row.booking_id, "booking request retried with its key; answered the booking it made");
    Ok(Response::new(pb::CreateBookingResponse { booking: one(row) }))
}

/// The caller, when they are a coach.
fn coach<T>(request: &Request<T>, doing: &str) -> Result<CoachId, Status> {
    let caller = auth::caller(request)?;
    match caller.role {
        Role::Coach => Ok(CoachId(caller.user_id)),
        role => Err(Error::Forbidden(format!(
            "only a coach account can {doing}; yours is a {role} account"
        ))
        .into()),
    }
}

impl BookingService {
    /// A person's move on a booking, now.
    async fn moves(
        &self,
        booking_id: &str,
        by: Party,
        action: Action,
        reason: Option<String>,
    ) -> Result<BookingRow, Status> {
        let booking_id = BookingId::parse(booking_id)?;
        let reason = parse_reason(reason)?;
        Ok(self
            .lifecycle
            .act(booking_id, by, action, reason, self.clock.now())
            .await?)
    }
}

#[tonic::async_trait]
impl booking_server::Booking for BookingService {
    async fn create_booking(
        &self,
        request: Request<pb::CreateBookingRequest>,
    ) -> Result<Response<pb::CreateBookingResponse>, Status> {
        let client_id = client(&request, "book a session")?;
        let authorization = coaching::authorization(&request);
        let key = idempotency_key(&request);
        let r = request.into_inner();
        let coach_id = CoachId::parse(&r.coach_id)?;
        let slot_id = SlotId::parse(&r.slot_id)?;
        let date = BookingDate::parse(&r.booking_date)?;
        // A retry of a booking already made (its answer lost on the way) is answered that booking,
        // before the slot, the clock or the policy are asked: they have moved on since.
        if let Some(key) = &key
            && let Some(row) = store::booking_by_key(&self.db, client_id, key).await?
        {
            return made_with_key(row, coach_id, slot_id, date);
        }

        let slot = self.slots.slot(slot_id, authorization).await?;
        let session = slot.session(coach_id, date)?;
        // "Now" is read after the slot, which may have taken a while to come.
        let now = self.clock.now();
        slot.policy.check_bookable(&session, now)?;

        let time_zone = session.time_zone.to_string();
        let booking = NewBooking {
            // Time-ordered (UUIDv7): each new row lands at the right edge of the primary key's
            // index instead of on a random page of it.
            booking_id: BookingId(Uuid::now_v7()),
            client_id,
            coach_id,
            slot_id,
            booking_date: session.date,
            start_time: session.start_time,
            end_time: session.end_time,
            location_name: &slot.location_name,
            time_zone: &time_zone,
            starts_at: session.starts_at,
            ends_at: session.ends_at,
            created_at: now,
            expires_at: slot.policy.expires_at(now, session.starts_at),
            cancellation_window_minutes: i32::try_from(slot.policy.cancellation_window.num_minutes())
                .unwrap_or(i32::MAX),
            idempotency_key: key.as_deref(),
        };
        let row = match self.lifecycle.create(&booking, now).await {
            // The first attempt with this key committed while this one was on its way.
            Err(Error::KeyUsed) => {
                let key = key.as_deref().unwrap_or_default();
                let row = store::booking_by_key(&self.db, client_id, key)
                    .await?
                    .ok_or(Error::KeyUsed)?;
                return made_with_key(row, coach_id, slot_id, date);
            }
            made => made?,
        };
        tracing::info!(booking_id = %row.booking_id, %coach_id, %slot_id, date = %date.get(), "booking made");
        Ok(Response::new(pb::CreateBookingResponse { booking: one(row) }))
    }

    async fn list_bookings(
        &self,
        request: Request<pb::ListBookingsRequest>,
    ) -> Result<Response<pb::ListBookingsResponse>, Status> {
        let Caller { user_id, role, .. } = auth::caller(&request)?;
        let side = match role {
            Role::Client => store::Side::Client(ClientId(user_id)),
            Role::Coach => store::Side::Coach(CoachId(user_id)),
            role => {
                return Err(Error::Forbidden(format!(
                    "only clients and coaches have bookings; yours is a {role} account"
                ))
                .into());
            }
        };
        let r = request.into_inner();
        let page = Page::parse(r.limit, &r.after)?;
        let rows = store::bookings_of(&self.db, side, &page).await?;
        let (rows, next) = page.split(rows, |b| (b.booking_date, b.start_time, b.booking_id));
        Ok(Response::new(pb::ListBookingsResponse {
            bookings: rows.into_iter().map(Into::into).collect(),
            next,
        }))
    }

    async fn cancel_booking(
        &self,
        request: Request<pb::CancelBookingRequest>,
    ) -> Result<Response<pb::CancelBookingResponse>, Status> {
        let client_id = client(&request, "cancel a booking")?;
        let r = request.into_inner();
        let row = self
            .moves(&r.booking_id, Party::Client(client_id), Action::Cancel, r.reason)
            .await?;
        Ok(Response::new(pb::CancelBookingResponse { booking: one(row) }))
    }

    async fn approve_booking(
        &self,
        request: Request<pb::ApproveBookingRequest>,
    ) -> Result<Response<pb::ApproveBookingResponse>, Status> {
        let coach_id = coach(&request, "approve a booking")?;
        let row = self
            .moves(
                &request.get_ref().booking_id,
                Party::Coach(coach_id),
                Action::Approve,
                None,
            )
            .await?;
        Ok(Response::new(pb::ApproveBookingResponse { booking: one(row) }))
    }

    async fn deny_booking(
        &self,
        request: Request<pb::DenyBookingRequest>,
    ) -> Result<Response<pb::DenyBookingResponse>, Status> {
        let coach_id = coach(&request, "deny a booking")?;
        let row = self
            .moves(
                &request.get_ref().booking_id,
                Party::Coach(coach_id),
                Action::Deny,
                None,
            )
            .await?;
        Ok(Response::new(pb::DenyBookingResponse { booking: one(row) }))
    }

    async fn count_bookings(
        &self,
        request: Request<pb::CountBookingsRequest>,
    ) -> Result<Response<pb::CountBookingsResponse>, Status> {
        auth::require_role(&request, &[Role::Admin])?;
        let user_id = request
            .into_inner()
            .user_id
            .map(|raw| raw.trim().parse::<Uuid>())
            .transpose()
            .map_err(|_| Error::Invalid("user_id must be a UUID".into()))?;
        let total = store::count_bookings(&self.db, user_id).await?;
        let per_week = match user_id {
            Some(_) => Vec::new(),
            None => store::weekly_counts(&self.db)
                .await?
                .into_iter()
                .map(|(week_start, count)| pb::WeeklyCount {
                    week_start: week_start.to_string(),
                    count,
                })
                .collect(),
        };
        Ok(Response::new(pb::CountBookingsResponse { total, per_week }))
    }

    async fn coach_cancel_booking(
        &self,
        request: Request<pb::CoachCancelBookingRequest>,
    ) -> Result<Response<pb::CoachCancelBookingResponse>, Status> {
        let coach_id = coach(&request, "cancel a session with a client")?;
        let r = request.into_inner();
        let row = self
            .moves(
                &r.booking_id,
                Party::Coach(coach_id),
                Action::CoachCancel,
                r.reason,
            )
            .await?;
        Ok(Response::new(pb::CoachCancelBookingResponse {
            booking: one(row),
        }))
    }

    async fn mark_no_show(
        &self,
        request: Request<pb::MarkNoShowRequest>,
    ) -> Result<Response<pb::MarkNoShowResponse>, Status> {
        let coach_id = coach(&request, "mark a booking no-show")?;
        let row = self
            .moves(
                &request.get_ref().booking_id,
                Party::Coach(coach_id),
                Action::MarkNoShow,
                None,
            )
            .await?;
        Ok(Response::new(pb::MarkNoShowResponse { booking: one(row) }))
    }

    async fn get_calendar_booking(
        &self,
        request: Request<pb::GetCalendarBookingRequest>,
    ) -> Result<Response<pb::GetCalendarBookingResponse>, Status> {
        let caller = auth::caller(&request)?;
        let booking_id = BookingId::parse(&request.get_ref().booking_id)?;
        // Another person's booking is as absent as one that never was.
        let row = calendar::booking_of_party(&self.db, booking_id, caller.user_id)
            .await?
            .ok_or_else(|| Error::NotFound("this booking does not exist".into()))?;
        Ok(Response::new(pb::GetCalendarBookingResponse {
            booking: Some(row.into()),
        }))
    }

    async fn list_calendar_bookings(
        &self,
        request: Request<pb::ListCalendarBookingsRequest>,
    ) -> Result<Response<pb::ListCalendarBookingsResponse>, Status> {
        let r = request.into_inner();
        let user_id = r
            .user_id
            .trim()
            .parse::<Uuid>()
            .map_err(|_| Error::Invalid("user_id must be a UUID".into()))?;
        let side = match r.role.as_str() {
            "client" => store::Side::Client(ClientId(user_id)),
            "coach" => store::Side::Coach(CoachId(user_id)),
            _ => return Err(Error::Invalid("role must be client or coach".into()).into()),
        };
        let since = self.clock.now() - calendar::FEED_PAST;
        let rows = calendar::feed_bookings(&self.db, side, since).await?;
        Ok(Response::new(pb::ListCalendarBookingsResponse {
            bookings: rows.into_iter().map(Into::into).collect(),
        }))
    }
}

impl From<calendar::CalendarRow> for pb::CalendarBooking {
    fn from(row: calendar::CalendarRow) -> Self {
        pb::CalendarBooking {
            booking: Some(row.booking.into()),
            revision: row.revision,
            updated_at: rfc3339(row.updated_at),
        }
    }
}
