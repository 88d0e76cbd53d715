//! The booking.v1 service: proto → domain → store → proto, nothing else. The calendar, review and
//! payment RPCs are in [`calendars`], [`reviews`] and [`payments`].

mod calendars;
mod making;
mod payments;
mod reviews;

use chrono::Duration;
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

use making::{idempotency_key, made_with_key, new_booking};

use crate::{
    coaching,
    domain::{Action, BookingDate, BookingId, ClientId, CoachId, Party, SlotId, format_time, parse_reason},
    error::Error,
    lifecycle::Lifecycle,
    payments::{Payments, cards, settle},
    slots::Slots,
    store::{self, BookingRow},
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
    pub payments: Payments,
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
            rescheduled_from: row.rescheduled_from.map(|id| id.to_string()),
            rescheduled_to: row.rescheduled_to.map(|id| id.to_string()),
            review: None,
            free_cancellation_until: rfc3339(
                row.starts_at - Duration::minutes(i64::from(row.cancellation_window_minutes)),
            ),
            price_cents: row.price_cents,
            currency: row.currency,
            amount_paid_cents: row.amount_paid_cents,
            amount_refunded_cents: row.amount_refunded_cents,
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
        // "Now" is read after the slot, which may have taken a while to come.
        let now = self.clock.now();
        // The rule the bookable calendar shows (domain::bookable); the database refuses a taken
        // time.
        let session = slot.check_bookable(coach_id, date, now)?;

        let opening = self
            .opening(client_id, &slot, &session, r.payment_method_id.as_deref(), now)
            .await?;
        let time_zone = session.time_zone.to_string();
        let booking = new_booking(
            client_id,
            &slot,
            &session,
            &time_zone,
            now,
            None,
            key.as_deref(),
            opening,
        );
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
        let (rows, next) = page.split(rows, |r| {
            (r.booking.booking_date, r.booking.start_time, r.booking.booking_id)
        });
        Ok(Response::new(pb::ListBookingsResponse {
            bookings: rows
                .into_iter()
                .map(|row| pb::BookingRecord {
                    review: row.review().map(Into::into),
                    ..row.booking.into()
                })
                .collect(),
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

    async fn has_booking_with_client(
        &self,
        request: Request<pb::HasBookingWithClientRequest>,
    ) -> Result<Response<pb::HasBookingWithClientResponse>, Status> {
        let coach_id = coach(&request, "ask whether a client booked them")?;
        // The one client id read from input: only to ask about the caller's own bookings.
        let client_id = request
            .get_ref()
            .client_id
            .trim()
            .parse::<Uuid>()
            .map(ClientId)
            .map_err(|_| Error::Invalid("client_id must be a UUID".into()))?;
        let booked = store::has_booked(&self.db, client_id, coach_id).await?;
        Ok(Response::new(pb::HasBookingWithClientResponse { booked }))
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
        calendars::get_calendar_booking(self, request).await
    }

    async fn list_calendar_bookings(
        &self,
        request: Request<pb::ListCalendarBookingsRequest>,
    ) -> Result<Response<pb::ListCalendarBookingsResponse>, Status> {
        calendars::list_calendar_bookings(self, request).await
    }

    async fn get_coach_calendar(
        &self,
        request: Request<pb::GetCoachCalendarRequest>,
    ) -> Result<Response<pb::GetCoachCalendarResponse>, Status> {
        calendars::get_coach_calendar(self, request).await
    }

    async fn list_active_bookings(
        &self,
        request: Request<pb::ListActiveBookingsRequest>,
    ) -> Result<Response<pb::ListActiveBookingsResponse>, Status> {
        calendars::list_active_bookings(self, request).await
    }

    async fn reschedule_booking(
        &self,
        request: Request<pb::RescheduleBookingRequest>,
    ) -> Result<Response<pb::RescheduleBookingResponse>, Status> {
        let client_id = client(&request, "reschedule a booking")?;
        let authorization = coaching::authorization(&request);
        let r = request.into_inner();
        let old = BookingId::parse(&r.booking_id)?;
        let slot_id = SlotId::parse(&r.slot_id)?;
        let date = BookingDate::parse(&r.booking_date)?;

        let slot = self.slots.slot(slot_id, authorization).await?;
        let now = self.clock.now();
        // The same rule as a new booking (and the calendar); the lifecycle checks the old booking
        // is the caller's, with the same coach, and may still be cancelled.
        let session = slot.check_bookable(slot.coach_id, date, now)?;
        // The client's default card, if the hold does not follow from the old booking (the
        // lifecycle then takes the old booking's card, or refuses: payment_required).
        let price = slot.price_cents();
        let card = match price {
            0 => None,
            _ => cards::card_for_booking(&self.db, client_id, None).await?,
        };
        let fees = (
            slot.policy.late_cancellation_fee_percent,
            slot.policy.no_show_fee_percent,
        );
        let opening = settle::opening(price, fees, card, session.starts_at, now);
        let time_zone = session.time_zone.to_string();
        let booking = new_booking(
            client_id,
            &slot,
            &session,
            &time_zone,
            now,
            Some(old),
            None,
            opening,
        );
        let row = self.lifecycle.reschedule(old, client_id, &booking, now).await?;
        Ok(Response::new(pb::RescheduleBookingResponse { booking: one(row) }))
    }

    async fn post_review(
        &self,
        request: Request<pb::PostReviewRequest>,
    ) -> Result<Response<pb::PostReviewResponse>, Status> {
        reviews::post_review(self, request).await
    }

    async fn edit_review(
        &self,
        request: Request<pb::EditReviewRequest>,
    ) -> Result<Response<pb::EditReviewResponse>, Status> {
        reviews::edit_review(self, request).await
    }

    async fn get_booking_review(
        &self,
        request: Request<pb::GetBookingReviewRequest>,
    ) -> Result<Response<pb::GetBookingReviewResponse>, Status> {
        reviews::get_booking_review(self, request).await
    }

    async fn list_coach_reviews(
        &self,
        request: Request<pb::ListCoachReviewsRequest>,
    ) -> Result<Response<pb::ListCoachReviewsResponse>, Status> {
        reviews::list_coach_reviews(self, request).await
    }

    async fn list_all_reviews(
        &self,
        request: Request<pb::ListAllReviewsRequest>,
    ) -> Result<Response<pb::ListAllReviewsResponse>, Status> {
        reviews::list_all_reviews(self, request).await
    }

    async fn reply_to_review(
        &self,
        request: Request<pb::ReplyToReviewRequest>,
    ) -> Result<Response<pb::ReplyToReviewResponse>, Status> {
        reviews::reply_to_review(self, request).await
    }

    async fn hide_review(
        &self,
        request: Request<pb::HideReviewRequest>,
    ) -> Result<Response<pb::HideReviewResponse>, Status> {
        reviews::hide_review(self, request).await
    }
    async fn setup_payment_method(
        &self,
        request: Request<pb::SetupPaymentMethodRequest>,
    ) -> Result<Response<pb::SetupPaymentMethodResponse>, Status> {
        payments::setup_payment_method(self, request).await
    }

    async fn list_payment_methods(
        &self,
        request: Request<pb::ListPaymentMethodsRequest>,
    ) -> Result<Response<pb::ListPaymentMethodsResponse>, Status> {
        payments::list_payment_methods(self, request).await
    }

    async fn set_default_payment_method(
        &self,
        request: Request<pb::SetDefaultPaymentMethodRequest>,
    ) -> Result<Response<pb::SetDefaultPaymentMethodResponse>, Status> {
        payments::set_default_payment_method(self, request).await
    }

    async fn remove_payment_method(
        &self,
        request: Request<pb::RemovePaymentMethodRequest>,
    ) -> Result<Response<pb::RemovePaymentMethodResponse>, Status> {
        payments::remove_payment_method(self, request).await
    }

    async fn get_receipt(
        &self,
        request: Request<pb::GetReceiptRequest>,
    ) -> Result<Response<pb::GetReceiptResponse>, Status> {
        payments::get_receipt(self, request).await
    }

    async fn get_earnings(
        &self,
        request: Request<pb::GetEarningsRequest>,
    ) -> Result<Response<pb::GetEarningsResponse>, Status> {
        payments::get_earnings(self, request).await
    }

    async fn list_payments(
        &self,
        request: Request<pb::ListPaymentsRequest>,
    ) -> Result<Response<pb::ListPaymentsResponse>, Status> {
        payments::list_payments(self, request).await
    }

    async fn refund_booking(
        &self,
        request: Request<pb::RefundBookingRequest>,
    ) -> Result<Response<pb::RefundBookingResponse>, Status> {
        payments::refund_booking(self, request).await
    }

    async fn get_payment_totals(
        &self,
        request: Request<pb::GetPaymentTotalsRequest>,
    ) -> Result<Response<pb::GetPaymentTotalsResponse>, Status> {
        payments::get_payment_totals(self, request).await
    }

    async fn apply_payment_webhook(
        &self,
        request: Request<pb::ApplyPaymentWebhookRequest>,
    ) -> Result<Response<pb::ApplyPaymentWebhookResponse>, Status> {
        payments::apply_payment_webhook(self, request).await
    }
}
