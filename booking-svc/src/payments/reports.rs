//! Receipts, a coach's earnings, the admin's payments list, totals and refunds: reads of the
//! bookings' money and of the ledger, and the one write an admin makes (a refund, accepted and
//! audited here, carried to the provider by the worker).

use chrono::{DateTime, Months, NaiveDate, Utc};
use platform::{auth::Caller, instants::rfc3339, pages::Page};
use proto::booking::v1 as pb;
use uuid::Uuid;

use super::{Payments, ledger, money::dollars};
use crate::{
    domain::{BookingId, CoachId, REASON_MAX},
    error::Error,
    store::{self, BookingRow, booking_columns},
};

/// payments.proto's `payment_status` vocabulary.
pub const PAYMENT_STATUSES: [&str; 9] = [
    "none",
    "pending",
    "authorized",
    "paid",
    "partially_paid",
    "released",
    "refunded",
    "partially_refunded",
    "failed",
];

/// One of a receipt's lines, as stored.
#[derive(sqlx::FromRow)]
struct LineRow {
    kind: String,
    amount_cents: i64,
    at: DateTime<Utc>,
    reason: Option<String>,
}

fn absent() -> Error {
    Error::NotFound("this booking does not exist".into())
}

/// The receipt of a booking, for its client or its coach (anyone else: NotFound, as for a
/// booking that never was); NotFound too before anything was charged.
pub async fn receipt(p: &Payments, caller: Caller, booking: BookingId) -> Result<pb::Receipt, Error> {
    let row = sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking where booking_id = $1"
    ))
    .bind(booking.0)
    .fetch_optional(&p.db)
    .await?
    .filter(|row| row.client_id == caller.user_id || row.coach_id == caller.user_id)
    .ok_or_else(absent)?;
    if row.amount_paid_cents == 0 {
        return Err(Error::NotFound(
            "nothing has been charged for this booking yet; its receipt comes with the first charge".into(),
        ));
    }
    let (brand, last4) = sqlx::query_as::<_, (String, String)>(
        "select brand, last4 from booking.payment_method where payment_method_id = $1",
    )
    .bind(row.payment_method_id.as_deref())
    .fetch_optional(&p.db)
    .await?
    .unwrap_or_default();
    let lines = sqlx::query_as::<_, LineRow>(
        "select kind, amount_cents, at, reason from booking.payment_line
         where booking_id = $1 order by at, line_id",
    )
    .bind(booking.0)
    .fetch_all(&p.db)
    .await?;
    let issued_at = lines
        .iter()
        .find(|l| l.kind == "capture")
        .map(|l| rfc3339(l.at))
        .unwrap_or_default();
    Ok(pb::Receipt {
        receipt_id: format!("rcpt_{}", row.booking_id.simple()),
        card_brand: brand,
        card_last4: last4,
        amount_paid_cents: row.amount_paid_cents,
        amount_refunded_cents: row.amount_refunded_cents,
        currency: row.currency.clone(),
        lines: lines
            .into_iter()
            .map(|l| pb::PaymentLine {
                kind: l.kind,
                amount_cents: l.amount_cents,
                at: rfc3339(l.at),
                reason: l.reason,
            })
            .collect(),
        issued_at,
        booking: Some(row.into()),
    })
}

/// The first instant of `month` ("YYYY-MM", UTC) and of the month after it.
pub fn month_bounds(month: &str) -> Result<(DateTime<Utc>, DateTime<Utc>), Error> {
    let invalid = || {
        Error::Invalid(format!(
            "month must be a month as YYYY-MM, like 2026-03 (got {month:?})"
        ))
    };
    let month = month.trim();
    if month.len() != 7 || month.as_bytes()[4] != b'-' {
        return Err(invalid());
    }
    let first = NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").map_err(|_| invalid())?;
    let next = first.checked_add_months(Months::new(1)).ok_or_else(invalid)?;
    Ok((
        first.and_time(chrono::NaiveTime::MIN).and_utc(),
        next.and_time(chrono::NaiveTime::MIN).and_utc(),
    ))
}

/// A coach's money in one month (UTC): what is held now for their sessions, and the month's
/// captures and refunds from the ledger.
pub async fn earnings(p: &Payments, coach: CoachId, month: &str) -> Result<pb::GetEarningsResponse, Error> {
    let (from, to) = month_bounds(month)?;
    let held = sqlx::query_scalar::<_, i64>(
        "select coalesce(sum(price_cents), 0)::int8 from booking.booking
         where coach_id = $1 and payment_status = 'authorized'",
    )
    .bind(coach.0)
    .fetch_one(&p.db)
    .await?;
    let lines = ledger::coach_lines(&p.db, coach.0, from, to).await?;
    let (paid, fees, net) = lines.iter().fold((0, 0, 0), |(g, f, n), l| {
        (g + l.gross_cents, f + l.fee_cents, n + l.net_cents)
    });
    Ok(pb::GetEarningsResponse {
        held_cents: held,
        paid_cents: paid,
        fees_cents: fees,
        net_cents: net,
        lines: lines
            .into_iter()
            .map(|l| pb::EarningsLine {
                booking_id: l.booking_id.to_string(),
                booking_date: l.booking_date.to_string(),
                kind: l.kind,
                gross_cents: l.gross_cents,
                fee_cents: l.fee_cents,
                net_cents: l.net_cents,
                at: rfc3339(l.at),
                client_id: l.client_id.to_string(),
            })
            .collect(),
    })
}

/// Where a page of the admin's payments starts: after this creation instant and booking id.
type PaymentKeyset = (DateTime<Utc>, Uuid);

/// The admin's page of bookings that carry money (price above 0), newest first, filtered by
/// payment status, coach and booking dates (one range of `booking_payments_page_idx`).
pub async fn payments(
    p: &Payments,
    request: pb::ListPaymentsRequest,
) -> Result<pb::ListPaymentsResponse, Error> {
    let status = request
        .payment_status
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if let Some(status) = status
        && !PAYMENT_STATUSES.contains(&status)
    {
        return Err(Error::Invalid(format!(
            "payment_status must be one of {} (got {status:?})",
            PAYMENT_STATUSES.join(", ")
        )));
    }
    let coach = request
        .coach_id
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| c.parse::<Uuid>())
        .transpose()
        .map_err(|_| Error::Invalid("coach_id must be a UUID".into()))?;
    let date = |raw: Option<&str>, field: &str| -> Result<Option<NaiveDate>, Error> {
        raw.map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|d| {
                crate::domain::parse_date(d)
                    .ok_or_else(|| Error::Invalid(format!("{field} must be a date as YYYY-MM-DD")))
            })
            .transpose()
    };
    let from = date(request.from.as_deref(), "from")?;
    let to = date(request.to.as_deref(), "to")?;
    let page = Page::<PaymentKeyset>::parse(request.limit, &request.after)
        .map_err(|status| Error::Invalid(status.message().to_owned()))?;
    let after = page.after;
    let rows = sqlx::query_as::<_, BookingRow>(concat!(
        "select ",
        booking_columns!(),
        " from booking.booking
          where price_cents > 0
            and ($1::text is null or payment_status = $1)
            and ($2::uuid is null or coach_id = $2)
            and ($3::date is null or booking_date >= $3)
            and ($4::date is null or booking_date <= $4)
            and ($5::timestamptz is null or (created_at, booking_id) < ($5, $6))
          order by created_at desc, booking_id desc
          limit $7"
    ))
    .bind(status)
    .bind(coach)
    .bind(from)
    .bind(to)
    .bind(after.map(|(at, _)| at))
    .bind(after.map(|(_, id)| id))
    .bind(page.fetch())
    .fetch_all(&p.db)
    .await?;
    let (rows, next) = page.split(rows, |r| (r.created_at, r.booking_id));
    Ok(pb::ListPaymentsResponse {
        bookings: rows.into_iter().map(Into::into).collect(),
        next,
    })
}

/// An admin's refund of `amount_cents` of what a booking's client paid, with a reason: accepted
/// on a paid, partially paid or partially refunded booking, up to what is left (paid, less
/// refunded, less refunds on their way); recorded with who, why and when in one transaction;
/// the worker sends it to the provider. Answers the booking.
pub async fn refund(
    p: &Payments,
    admin_id: Uuid,
    request: pb::RefundBookingRequest,
) -> Result<pb::BookingRecord, Error> {
    let booking_id = BookingId::parse(&request.booking_id)?;
    let reason = request.reason.trim();
    if reason.is_empty() {
        return Err(Error::Invalid(
            "reason is required: say why the money is returned (the client reads it)".into(),
        ));
    }
    if reason.chars().count() > REASON_MAX {
        return Err(Error::Invalid(format!(
            "reason must be at most {REASON_MAX} characters (this one has {})",
            reason.chars().count()
        )));
    }
    let amount = request.amount_cents;
    if amount < 1 {
        return Err(Error::Invalid(
            "amount_cents must be at least 1 (whole cents: 2500 is $25.00)".into(),
        ));
    }
    let now = p.clock.now();
    let mut tx = p.db.begin().await?;
    let row = store::lock_booking(&mut tx, booking_id)
        .await?
        .ok_or_else(absent)?;
    if !matches!(
        row.payment_status.as_str(),
        "paid" | "partially_paid" | "partially_refunded"
    ) {
        return Err(Error::Refused(format!(
            "only a paid booking can be refunded (this one's payment is {})",
            row.payment_status
        )));
    }
    let on_the_way = sqlx::query_scalar::<_, i64>(
        "select coalesce(sum(amount_cents), 0)::int8 from booking.refund
         where booking_id = $1 and done_at is null",
    )
    .bind(booking_id.0)
    .fetch_one(&mut *tx)
    .await?;
    let left = row.amount_paid_cents - row.amount_refunded_cents - on_the_way;
    if left <= 0 {
        return Err(Error::Refused(
            "everything paid for this booking is already refunded or being refunded".into(),
        ));
    }
    if amount > left {
        return Err(Error::Invalid(format!(
            "amount_cents must be at most {left} ({}): what is left to refund of this booking",
            dollars(left)
        )));
    }
    let refund_id = Uuid::now_v7();
    sqlx::query(
        "insert into booking.refund (refund_id, booking_id, amount_cents, reason, requested_by,
                                     requested_at, due_at)
         values ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(refund_id)
    .bind(booking_id.0)
    .bind(amount)
    .bind(reason)
    .bind(admin_id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    p.wake.notify_one();
    tracing::info!(%booking_id, %refund_id, amount, %admin_id, "refund accepted");
    Ok(row.into())
}

/// The platform's money, from the ledger.
pub async fn totals(p: &Payments) -> Result<pb::GetPaymentTotalsResponse, Error> {
    let totals = ledger::totals(&p.db).await?;
    Ok(pb::GetPaymentTotalsResponse {
        gross_cents: totals.gross,
        fees_cents: totals.fees,
        refunds_cents: totals.refunds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_is_its_first_instant_to_the_next_months() {
        let (from, to) = month_bounds("2026-02").unwrap();
        assert_eq!(rfc3339(from), "2026-02-01T00:00:00Z");
        assert_eq!(rfc3339(to), "2026-03-01T00:00:00Z");
        let (from, to) = month_bounds("2026-12").unwrap();
        assert_eq!(
            (rfc3339(from), rfc3339(to)),
            ("2026-12-01T00:00:00Z".into(), "2027-01-01T00:00:00Z".into())
        );
    }

    #[test]
    fn anything_but_yyyy_mm_is_refused_saying_the_form() {
        for bad in [
            "",
            "2026",
            "2026-13",
            "2026-1",
            "26-01",
            "2026/01",
            "2026-01-01",
            "abcd-ef",
        ] {
            let error = month_bounds(bad).unwrap_err();
            assert!(matches!(error, Error::Invalid(_)), "{bad}");
            assert!(error.to_string().contains("YYYY-MM"), "{bad}: {error}");
        }
    }
}
