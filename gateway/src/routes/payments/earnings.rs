//! `/coach/earnings`: a coach's money in one month (UTC), from booking-svc's ledger, as JSON and as
//! a CSV statement; the clients' names resolved in one call.

use axum::{
    extract::State,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use chrono::{Datelike, NaiveDate, Utc};
use proto::booking::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    call,
    error::ApiError,
    extract::{Query, Session},
    names::names,
    state::AppState,
    vocabulary::EarningsKind,
};

/// Which month.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MonthQuery {
    /// YYYY-MM, in UTC; the current month when left out.
    #[param(pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$", example = "2026-11")]
    pub month: Option<String>,
}

impl MonthQuery {
    /// The month asked for, or this one (UTC); a 400 naming the form when it is not YYYY-MM.
    fn month(&self) -> Result<String, ApiError> {
        match self.month.as_deref() {
            None => {
                let today = Utc::now().date_naive();
                Ok(format!("{:04}-{:02}", today.year(), today.month()))
            }
            Some(month) if is_month(month) => Ok(month.to_owned()),
            Some(_) => Err(ApiError::bad_request(
                "month must be a month as YYYY-MM, such as 2026-11.",
            )),
        }
    }
}

fn is_month(text: &str) -> bool {
    text.len() == 7 && NaiveDate::parse_from_str(&format!("{text}-01"), "%Y-%m-%d").is_ok()
}

/// A coach's money in one month.
#[derive(Debug, Serialize, ToSchema)]
pub struct Earnings {
    /// YYYY-MM (UTC).
    pub month: String,
    /// `usd`.
    pub currency: String,
    /// Held on clients' cards now for the coach's sessions that have not settled, whole cents.
    pub held_cents: i64,
    /// Charged in the month, less refunds in the month, whole cents.
    pub paid_cents: i64,
    /// The platform's fees of those, whole cents.
    pub fees_cents: i64,
    /// What the coach earns of them: paid less fees, whole cents.
    pub net_cents: i64,
    /// Each charge and refund of the month, oldest first.
    pub lines: Vec<EarningsLine>,
}

/// One charge or refund in a coach's month.
#[derive(Debug, Serialize, ToSchema)]
pub struct EarningsLine {
    #[schema(format = Uuid)]
    pub booking_id: String,
    /// The session's date, YYYY-MM-DD.
    #[schema(format = Date)]
    pub booking_date: String,
    #[schema(format = Uuid)]
    pub client_id: String,
    pub client_name: String,
    #[schema(value_type = EarningsKind)]
    pub kind: String,
    /// Charged, whole cents (negative for a refund).
    pub gross_cents: i64,
    /// The platform's share (negative when a refund returns it).
    pub fee_cents: i64,
    /// Gross less fee.
    pub net_cents: i64,
    /// RFC 3339, UTC.
    #[schema(format = DateTime)]
    pub at: String,
}

async fn earnings(state: &AppState, session: &Session, month: String) -> Result<Earnings, ApiError> {
    let message = pb::GetEarningsRequest { month: month.clone() };
    let reply = call::read!(state, booking.get_earnings, Some(session), message).await?;
    let names = names(
        state,
        Some(session),
        reply.lines.iter().map(|l| l.client_id.clone()),
    )
    .await?;
    Ok(Earnings {
        month,
        currency: "usd".to_owned(),
        held_cents: reply.held_cents,
        paid_cents: reply.paid_cents,
        fees_cents: reply.fees_cents,
        net_cents: reply.net_cents,
        lines: reply
            .lines
            .into_iter()
            .map(|l| EarningsLine {
                client_name: names.or_deleted(&l.client_id),
                booking_id: l.booking_id,
                booking_date: l.booking_date,
                client_id: l.client_id,
                kind: l.kind,
                gross_cents: l.gross_cents,
                fee_cents: l.fee_cents,
                net_cents: l.net_cents,
                at: l.at,
            })
            .collect(),
    })
}

/// The signed-in coach's earnings in a month (UTC): held now, paid, the platform's fees and net,
/// and each charge and refund.
#[utoipa::path(get, path = "/coach/earnings", tag = "payments", params(MonthQuery),
    responses((status = 200, description = "The month's earnings", body = Earnings)))]
pub(crate) async fn coach_earnings(
    State(state): State<AppState>,
    session: Session,
    Query(query): Query<MonthQuery>,
) -> Result<axum::Json<Earnings>, ApiError> {
    Ok(axum::Json(earnings(&state, &session, query.month()?).await?))
}

/// The signed-in coach's statement of a month (UTC) as CSV, to download: a header row, then one
/// row per charge or refund, oldest first. Amounts are dollars with two decimals (`-12.50` for a
/// refund), not cents.
#[utoipa::path(get, path = "/coach/earnings.csv", tag = "payments", params(MonthQuery),
    responses((status = 200, description = "`booking_id,booking_date,client,kind,gross,fee,net,at`, one row per line, amounts in dollars",
               content_type = "text/csv", body = String,
               headers(("Content-Disposition" = String, description = "`attachment; filename=\"earnings-YYYY-MM.csv\"`")))))]
pub(crate) async fn coach_earnings_csv(
    State(state): State<AppState>,
    session: Session,
    Query(query): Query<MonthQuery>,
) -> Result<Response, ApiError> {
    let earnings = earnings(&state, &session, query.month()?).await?;
    let disposition = format!("attachment; filename=\"earnings-{}.csv\"", earnings.month);
    let mut response = csv(&earnings).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The statement: a header row, then a row per line (CRLF, RFC 4180).
fn csv(earnings: &Earnings) -> String {
    let mut out = String::from("booking_id,booking_date,client,kind,gross,fee,net,at\r\n");
    for line in &earnings.lines {
        let row = [
            field(&line.booking_id),
            field(&line.booking_date),
            field(&line.client_name),
            field(&line.kind),
            dollars(line.gross_cents),
            dollars(line.fee_cents),
            dollars(line.net_cents),
            field(&line.at),
        ];
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

/// Whole cents as dollars with two decimals: `1250` → `12.50`, `-5` → `-0.05`.
fn dollars(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// A CSV field: quoted when it holds a comma, a quote or a line break; text a spreadsheet would
/// run as a formula (`=`, `+`, `-`, `@` first) starts with `'`.
fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_are_written_as_dollars_with_two_decimals() {
        assert_eq!(dollars(7500), "75.00");
        assert_eq!(dollars(1250), "12.50");
        assert_eq!(dollars(5), "0.05");
        assert_eq!(dollars(0), "0.00");
        assert_eq!(dollars(-3750), "-37.50");
        assert_eq!(dollars(-5), "-0.05");
    }

    #[test]
    fn a_field_is_quoted_when_it_must_be_and_never_runs_as_a_formula() {
        assert_eq!(field("Ann Lee"), "Ann Lee");
        assert_eq!(field("Lee, Ann"), "\"Lee, Ann\"");
        assert_eq!(field("Ann \"Ace\" Lee"), "\"Ann \"\"Ace\"\" Lee\"");
        assert_eq!(field("=HYPERLINK(1)"), "'=HYPERLINK(1)");
    }

    #[test]
    fn only_a_real_month_is_a_month() {
        assert!(is_month("2026-11"));
        assert!(!is_month("2026-13"));
        assert!(!is_month("2026-1"));
        assert!(!is_month("26-11-01"));
        let bad = MonthQuery {
            month: Some("November".into()),
        };
        assert_eq!(
            bad.month().unwrap_err().status,
            axum::http::StatusCode::BAD_REQUEST
        );
        let none = MonthQuery { month: None };
        assert!(is_month(&none.month().unwrap()));
    }

    #[test]
    fn the_statement_has_a_header_row_and_a_row_per_line() {
        let earnings = Earnings {
            month: "2030-06".into(),
            currency: "usd".into(),
            held_cents: 0,
            paid_cents: 7500,
            fees_cents: 750,
            net_cents: 6750,
            lines: vec![EarningsLine {
                booking_id: "b1".into(),
                booking_date: "2030-06-03".into(),
                client_id: "c1".into(),
                client_name: "Lee, Ann".into(),
                kind: "capture".into(),
                gross_cents: 7500,
                fee_cents: 750,
                net_cents: 6750,
                at: "2030-06-03T11:00:00Z".into(),
            }],
        };
        assert_eq!(
            csv(&earnings),
            "booking_id,booking_date,client,kind,gross,fee,net,at\r\n\
             b1,2030-06-03,\"Lee, Ann\",capture,75.00,7.50,67.50,2030-06-03T11:00:00Z\r\n"
        );
    }
}
