//! The booking.v1 service: proto → domain → store → proto, nothing else.

use chrono::Utc;
use platform::auth::{self, Caller, Role};
use proto::booking::v1::{self as pb, booking_server};
use sqlx::PgPool;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    coaching,
    domain::{
        Action, Booking, BookingDate, BookingId, ClientId, CoachId, Party, SlotId, Status as BookingStatus,
        format_time,
    },
    error::Error,
    slots::Slots,
    store::{self, BookingRow, NewBooking},
};

/// The state every RPC shares.
#[derive(Clone)]
pub struct BookingService {
    pub db: PgPool,
    /// coaching's slots, remembered while they are current.
    pub slots: Slots,
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
            created_at: row.created_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            // Placeholders until bookings keep their zone and instants (issue 16).
            ..Default::default()
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
    /// Approve, deny or cancel: one conditional UPDATE; only when it changed nothing is the
    /// booking read, to say why.
    async fn moves(&self, booking_id: BookingId, by: Party, action: Action) -> Result<BookingRow, Error> {
        if let Some(row) = store::transition(&self.db, booking_id, by, action).await? {
            return Ok(row);
        }
        let row = store::booking_by_id(&self.db, booking_id)
            .await?
            .ok_or_else(|| Error::NotFound("this booking does not exist".into()))?;
        let booking = Booking {
            client_id: ClientId(row.client_id),
            coach_id: CoachId(row.coach_id),
            status: row.status.parse::<BookingStatus>()?,
        };
        booking.apply(action, by)?;
        Err(changed_meanwhile())
    }
}

/// The conditional UPDATE refused a move the booking as read afterwards allows: it changed in
/// between (statuses never return to pending, so this is a lost race).
fn changed_meanwhile() -> Error {
    Error::Transition("this booking changed while you were acting on it; please reload and try again".into())
}

#[tonic::async_trait]
impl booking_server::Booking for BookingService {
    async fn create_booking(
        &self,
        request: Request<pb::CreateBookingRequest>,
    ) -> Result<Response<pb::CreateBookingResponse>, Status> {
        let client_id = client(&request, "book a session")?;
        let authorization = coaching::authorization(&request);
        let r = request.into_inner();
        let coach_id = CoachId::parse(&r.coach_id)?;
        let slot_id = SlotId::parse(&r.slot_id)?;
        let date = BookingDate::parse(&r.booking_date, Utc::now())?;

        let slot = self.slots.slot(slot_id, authorization).await?;
        slot.check_bookable(coach_id, date)?;

        let row = store::insert_booking(
            &self.db,
            &NewBooking {
                client_id,
                coach_id,
                slot_id,
                booking_date: date.get(),
                start_time: slot.start_time,
                end_time: slot.end_time,
                location_name: &slot.location_name,
            },
        )
        .await?;
        tracing::info!(booking_id = %row.booking_id, %coach_id, %slot_id, date = %date.get(), "booking made");
        Ok(Response::new(pb::CreateBookingResponse { booking: one(row) }))
    }

    async fn list_bookings(
        &self,
        request: Request<pb::ListBookingsRequest>,
    ) -> Result<Response<pb::ListBookingsResponse>, Status> {
        let Caller { user_id, role, .. } = auth::caller(&request)?;
        let rows = match role {
            Role::Client => store::bookings_of_client(&self.db, ClientId(user_id)).await?,
            Role::Coach => store::bookings_with_coach(&self.db, CoachId(user_id)).await?,
            role => {
                return Err(Error::Forbidden(format!(
                    "only clients and coaches have bookings; yours is a {role} account"
                ))
                .into());
            }
        };
        Ok(Response::new(pb::ListBookingsResponse {
            bookings: rows.into_iter().map(Into::into).collect(),
        }))
    }

    async fn cancel_booking(
        &self,
        request: Request<pb::CancelBookingRequest>,
    ) -> Result<Response<pb::CancelBookingResponse>, Status> {
        let client_id = client(&request, "cancel a booking")?;
        let booking_id = BookingId::parse(&request.get_ref().booking_id)?;
        let row = self
            .moves(booking_id, Party::Client(client_id), Action::Cancel)
            .await?;
        Ok(Response::new(pb::CancelBookingResponse { booking: one(row) }))
    }

    async fn approve_booking(
        &self,
        request: Request<pb::ApproveBookingRequest>,
    ) -> Result<Response<pb::ApproveBookingResponse>, Status> {
        let coach_id = coach(&request, "approve a booking")?;
        let booking_id = BookingId::parse(&request.get_ref().booking_id)?;
        let row = self
            .moves(booking_id, Party::Coach(coach_id), Action::Approve)
            .await?;
        Ok(Response::new(pb::ApproveBookingResponse { booking: one(row) }))
    }

    async fn deny_booking(
        &self,
        request: Request<pb::DenyBookingRequest>,
    ) -> Result<Response<pb::DenyBookingResponse>, Status> {
        let coach_id = coach(&request, "deny a booking")?;
        let booking_id = BookingId::parse(&request.get_ref().booking_id)?;
        let row = self
            .moves(booking_id, Party::Coach(coach_id), Action::Deny)
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
        _request: Request<pb::CoachCancelBookingRequest>,
    ) -> Result<Response<pb::CoachCancelBookingResponse>, Status> {
        Err(Status::unimplemented("a coach cannot cancel a booking yet"))
    }

    async fn mark_no_show(
        &self,
        _request: Request<pb::MarkNoShowRequest>,
    ) -> Result<Response<pb::MarkNoShowResponse>, Status> {
        Err(Status::unimplemented("no-shows are not recorded yet"))
    }
}
